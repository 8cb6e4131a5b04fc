package io.mqttload.summary;

import java.util.Locale;
import java.util.function.Function;

import io.mqttload.measure.LatencyStats;

/**
 * The latency figures of every report, declared once: the key they travel under (summary JSON, InfluxDB's {@code kind}
 * tag), the title people read, and which are measured from the intended send time. Those exist only for paced
 * publishers; where messages went out without one, a report says so instead of showing a figure.
 */
public enum LatencyKind {
    PUB_TO_SUB("pubToSub", "pub-to-sub from send", null),
    PUB_TO_SUB_INTENDED("pubToSubIntended", "pub-to-sub from intended", PUB_TO_SUB),
    PUBLISH("publish", "publish ack from send", null),
    PUBLISH_INTENDED("publishIntended", "publish ack from intended", PUBLISH),
    SCHEDULE_LAG("scheduleLag", "schedule lag", PUBLISH),
    CONNECT("connect", "connect", null),
    /** The connect's phases (docs/measurement.md): they add up to {@link #CONNECT}; TLS only over TLS. */
    CONNECT_TCP("connectTcp", "connect: TCP", null),
    CONNECT_TLS("connectTls", "connect: TLS handshake", null),
    CONNECT_CONNACK("connectConnack", "connect: CONNACK", null),
    ROUND_TRIP("roundTrip", "round trip (reply)", null);

    /** What a report says in place of a figure from the intended time when no message had one. */
    public static final String NO_INTENDED_TIME = "no intended send time: no publisher was paced by a throughput timer"
            + " the engine reads (docs/measurement.md)";

    private final String key;
    private final String title;
    /** For a figure from the intended send time: the figure of the same messages from their send. */
    private final LatencyKind fromSend;

    LatencyKind(String key, String title, LatencyKind fromSend) {
        this.key = key;
        this.title = title;
        this.fromSend = fromSend;
    }

    public String key() {
        return key;
    }

    public String title() {
        return title;
    }

    /** Whether the figure is one phase of {@link #CONNECT}. */
    public boolean isConnectPhase() {
        return this == CONNECT_TCP || this == CONNECT_TLS || this == CONNECT_CONNACK;
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
    public Row row(Function<LatencyKind, LatencyStats> figures) {
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
    public static LatencyKind ofKey(String key) {
        for (LatencyKind k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        return null;
    }

    /** Appends this figure's plain-text row as {@link #row} says (nothing when hidden). */
    public void appendTextRow(StringBuilder t, Function<LatencyKind, LatencyStats> figures) {
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
    public void appendMarkdownRow(StringBuilder m, Function<LatencyKind, LatencyStats> figures) {
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
