package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Every latency figure, declared once, as {@link Count} declares counts: the key it travels under (summary JSON,
 * InfluxDB's {@code kind} tag), the Prometheus histogram's name, the title people read, what it measures, the levels
 * that keep it, and which are measured from the intended send time. The summary, the merge, the text, Markdown and
 * HTML tables, InfluxDB, Prometheus and the live panel iterate this list; {@code LatencyShownTest} fails on a kind
 * missing from one of them. Keys and metric names stay as they are: saved summaries and dashboards read them.
 *
 * <p>The per-engine-pair pub-to-sub figures ({@link PubToSubPairs}) are not kinds here on purpose: they are signed
 * (corrected by the clock offsets, never floored) and kept per pair of engines, not per level.
 */
public enum Latency {
    PUB_TO_SUB("pubToSub", "pub_to_sub_latency_seconds", "pub-to-sub from send", null,
            "a message's send to its arrival at a subscriber", Level.ENGINE, Level.SAMPLER, Level.NODE),
    PUB_TO_SUB_INTENDED("pubToSubIntended", "pub_to_sub_from_intended_latency_seconds", "pub-to-sub from intended",
            PUB_TO_SUB, "a paced message's intended send time to its arrival at a subscriber", Level.ENGINE,
            Level.SAMPLER),
    PUBLISH("publish", "publish_ack_latency_seconds", "publish ack from send", null,
            "a publish's send to the broker's acknowledgement", Level.ENGINE, Level.SAMPLER),
    PUBLISH_INTENDED("publishIntended", "publish_ack_from_intended_latency_seconds", "publish ack from intended",
            PUBLISH, "a paced publish's intended send time to the broker's acknowledgement", Level.ENGINE, Level.SAMPLER),
    SCHEDULE_LAG("scheduleLag", "schedule_lag_seconds", "schedule lag", PUBLISH,
            "how late paced publishers sent against their schedule (actual send minus intended send time)",
            Level.ENGINE, Level.SAMPLER),
    CONNECT("connect", "connect_latency_seconds", "connect", null, "a connect's call to its CONNACK", Level.ENGINE,
            Level.SAMPLER),
    /** The connect's phases (docs/measurement.md): they add up to {@link #CONNECT}; TLS only over TLS. */
    CONNECT_TCP("connectTcp", "connect_tcp_latency_seconds", "connect: TCP", null,
            "a connect's call to its TCP connection", Level.ENGINE, Level.SAMPLER),
    CONNECT_TLS("connectTls", "connect_tls_latency_seconds", "connect: TLS handshake", null,
            "a connect's TLS handshake", Level.ENGINE, Level.SAMPLER),
    CONNECT_CONNACK("connectConnack", "connect_connack_latency_seconds", "connect: CONNACK", null,
            "a connect's end of handshake to its CONNACK", Level.ENGINE, Level.SAMPLER),
    ROUND_TRIP("roundTrip", "round_trip_latency_seconds", "round trip (reply)", null,
            "a request's send to its reply's arrival at the requester (MQTT 5)", Level.ENGINE);

    /** Every figure is in microseconds, recorded into a {@link LatencyRecorder}'s histogram. */
    public static final String UNIT = "µs";

    /** What a report says in place of a figure from the intended time when no message had one. */
    public static final String NO_INTENDED_TIME = "no intended send time: no publisher was paced by its own rate or by a"
            + " throughput timer the engine reads (docs/measurement.md)";

    /**
     * Where a figure is kept: the engine's run total (and each interval's), each sampler's, each broker node's (the
     * subscribers' node). Every level's figures are also taken per interval, for the live outputs.
     */
    public enum Level {
        ENGINE, SAMPLER, NODE
    }

    private final String key;
    private final String metricName;
    private final String title;
    /** For a figure from the intended send time: the figure of the same messages from their send. */
    private final Latency fromSend;
    private final String description;
    private final Set<Level> levels;

    Latency(String key, String metricName, String title, Latency fromSend, String description, Level first,
            Level... rest) {
        this.key = key;
        this.metricName = metricName;
        this.title = title;
        this.fromSend = fromSend;
        this.description = description;
        this.levels = Collections.unmodifiableSet(EnumSet.of(first, rest));
    }

    public String key() {
        return key;
    }

    /** The Prometheus histogram's name, without the exporter's prefix. */
    public String metricName() {
        return metricName;
    }

    public String title() {
        return title;
    }

    /** What the figure measures, from which instant to which. */
    public String description() {
        return description;
    }

    /** Whether {@code level} keeps this figure. */
    public boolean keptAt(Level level) {
        return levels.contains(level);
    }

    /** The kinds {@code level} keeps, in declaration order. */
    public static List<Latency> keptBy(Level level) {
        List<Latency> kinds = new ArrayList<>();
        for (Latency k : values()) {
            if (k.keptAt(level)) {
                kinds.add(k);
            }
        }
        return kinds;
    }

    /** Whether the figure is one phase of {@link #CONNECT}. */
    public boolean isConnectPhase() {
        return this == CONNECT_TCP || this == CONNECT_TLS || this == CONNECT_CONNACK;
    }

    /**
     * Whether the figure is recorded where a message is received, once per receiving scope (a Subscribe sampler's
     * clients on one node, from publishers on one node), and the engine's, each node's and each sampler's figure summed
     * from those scopes at each tick ({@link EngineMetrics#takeReceivedInterval}); the others are recorded on every
     * level that keeps them.
     */
    public boolean recordedPerReceiver() {
        return this == PUB_TO_SUB || this == PUB_TO_SUB_INTENDED;
    }

    /**
     * Whether the engine's run figure takes in the warm-up too: connects come before production, most of them before
     * any warm-up ends.
     */
    public boolean countsDuringWarmUp() {
        return this == CONNECT || isConnectPhase();
    }

    /** Whether the figure is measured from the intended send time (or is the lag behind it). */
    public boolean fromIntendedTime() {
        return fromSend != null;
    }

    /**
     * How a report shows this figure, given every figure of the report: {@link Row#FIGURES}; {@link Row#NO_INTENDED_TIME}
     * for a figure from the intended time where messages went out but none had one; {@link Row#HIDDEN} for round trips
     * without requests and for figures from the intended time where nothing was published either.
     */
    public Row row(Function<Latency, LatencyStats> figures) {
        LatencyStats own = figures.apply(this);
        if (own != null && own.count > 0) {
            return Row.FIGURES;
        }
        if (this == ROUND_TRIP || isConnectPhase()) {
            return Row.HIDDEN;
        }
        if (fromSend == null) {
            return Row.FIGURES;
        }
        LatencyStats sent = figures.apply(fromSend);
        return sent != null && sent.count > 0 ? Row.NO_INTENDED_TIME : Row.HIDDEN;
    }

    /** How a report shows one latency figure. */
    public enum Row {
        FIGURES, NO_INTENDED_TIME, HIDDEN
    }

    /** The kind with this key, or null. */
    public static Latency ofKey(String key) {
        for (Latency k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        return null;
    }

    /** Appends this figure's plain-text row as {@link #row} says (nothing when hidden). */
    public void appendTextRow(StringBuilder t, Function<Latency, LatencyStats> figures) {
        switch (row(figures)) {
            case FIGURES:
                figures.apply(this).appendTextRow(t, title);
                break;
            case NO_INTENDED_TIME:
                t.append(String.format(Locale.ROOT, "%-" + LatencyStats.NAME_WIDTH + "s %s%n", title, NO_INTENDED_TIME));
                break;
            default:
                break;
        }
    }

    /** The same as a Markdown row of the latency table. */
    public void appendMarkdownRow(StringBuilder m, Function<Latency, LatencyStats> figures) {
        switch (row(figures)) {
            case FIGURES:
                figures.apply(this).appendMarkdownRow(m, title);
                break;
            case NO_INTENDED_TIME:
                m.append("| ").append(title).append(" | ").append(NO_INTENDED_TIME).append(" |")
                        .append(" |".repeat(LatencyStats.PERCENTILES.size() + 2)).append('\n');
                break;
            default:
                break;
        }
    }
}
