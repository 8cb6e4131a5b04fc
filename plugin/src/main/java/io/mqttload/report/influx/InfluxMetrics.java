package io.mqttload.report.influx;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.broker.BrokerSample;
import io.mqttload.engine.IntervalListener;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.summary.RunSummary;

/**
 * Turns the engine's metrics into InfluxDB points every interval, tagged with run, scenario and
 * engine: cumulative counters ({@code mqtt_counts}), and per kind of latency the interval's count,
 * mean, percentiles and max plus the interval histogram itself, HdrHistogram-encoded, so percentiles
 * over engines and over the whole run are computed exactly by merging, never by averaging percentiles.
 */
public final class InfluxMetrics implements IntervalListener {
    private static final Logger log = LoggerFactory.getLogger(InfluxMetrics.class);
    private final InfluxWriter writer;
    private final EngineMetrics metrics;
    private final Map<String, String> tags = new LinkedHashMap<>();
    private final int ticksPerPoint;
    private int ticks;
    /** Counters (published, acknowledged, received, connects) and time of the previous point, for rates. */
    private long[] previous = new long[4];
    private long previousPointMillis = System.currentTimeMillis();
    /** The engine's latency of the ticks since the last point, per kind; merged, so nothing is lost between points. */
    private final Map<Latency, Histogram> pending = new EnumMap<>(Latency.class);
    /** Per sampler label, in the order samplers first appeared. */
    private final Map<String, PendingSampler> samplers = new LinkedHashMap<>();
    /** Per broker node, written only when the connection lists several. */
    private final Map<String, PendingNode> nodes = new LinkedHashMap<>();
    /** The delivery figures the run's last {@code mqtt_counts} point carries, final there ({@code lost} is live before). */
    private static final List<Count> FINAL_COUNTS = List.of(Count.LOST, Count.EXPECTED, Count.RECEIVED_OF_EXPECTED,
            Count.DELIVERED_UNACKNOWLEDGED);

    /** One broker node's latency since the last point, per kind. */
    private static final class PendingNode {
        final NodeMetrics metrics;
        final String tag;
        final Map<Latency, Histogram> pending = new EnumMap<>(Latency.class);

        PendingNode(NodeMetrics metrics) {
            this.metrics = metrics;
            this.tag = tagValue(metrics.name);
        }
    }

    /** A sampler's latency since its last point, per kind. */
    private static final class PendingSampler {
        final SamplerMetrics metrics;
        final String tag;
        final Map<Latency, Histogram> pending = new EnumMap<>(Latency.class);

        PendingSampler(SamplerMetrics metrics) {
            this.metrics = metrics;
            this.tag = tagValue(metrics.label);
        }
    }

    /** A label as a tag value: never empty, and never ending in a backslash, which line protocol cannot carry. */
    static String tagValue(String label) {
        String v = label == null || label.isEmpty() ? "(unnamed)" : label;
        return v.endsWith("\\") ? v.replaceAll("\\\\+$", "") + "_" : v;
    }

    /** @param intervalSeconds how often points are written; the engine's metrics tick every second */
    public InfluxMetrics(InfluxWriter writer, EngineMetrics metrics, RunConfig config, int intervalSeconds) {
        this.writer = writer;
        this.metrics = metrics;
        this.ticksPerPoint = Math.max(1, intervalSeconds);
        tags.put("run", config.runId());
        tags.put("scenario", config.scenario());
        tags.put("engine", config.engineId());
        // Refused here, at test start, rather than on the first write.
        LineProtocol.tags(new StringBuilder(), tags);
        event("run start", "MQTT run " + config.runId() + " started on engine " + config.engineId(),
                System.currentTimeMillis());
    }

    /** {@code mqtt_broker}: source {@code proc} (the local process) and source {@code sys} (its $SYS topics). */
    @Override
    public void onBrokerSample(String broker, BrokerSample sample) {
        if (sample.hasProcess()) {
            StringBuilder line = new StringBuilder(256);
            LineProtocol.measurement(line, "mqtt_broker");
            LineProtocol.tags(line, tags);
            LineProtocol.tag(line, "broker", tagValue(broker));
            LineProtocol.tag(line, "source", "proc");
            LineProtocol.firstField(line, "rssBytes", sample.rssBytes);
            if (!Double.isNaN(sample.cpuPercentOfCore)) {
                LineProtocol.field(line, "cpuPercentOfCore", sample.cpuPercentOfCore);
                LineProtocol.field(line, "cpuPercentOfMachine", sample.cpuPercentOfMachine);
            }
            LineProtocol.field(line, "openFds", sample.openFds);
            LineProtocol.field(line, "sockets", sample.sockets);
            LineProtocol.field(line, "threads", sample.threads);
            LineProtocol.end(line, sample.timeMillis);
            writer.offer(line.toString());
        }
        if (!sample.sys.isEmpty()) {
            StringBuilder line = new StringBuilder(256);
            LineProtocol.measurement(line, "mqtt_broker");
            LineProtocol.tags(line, tags);
            LineProtocol.tag(line, "broker", tagValue(broker));
            LineProtocol.tag(line, "source", "sys");
            boolean first = true;
            for (Map.Entry<String, Double> e : sample.sys.entrySet()) {
                if (first) {
                    LineProtocol.firstField(line, e.getKey(), e.getValue().doubleValue());
                    first = false;
                } else {
                    LineProtocol.field(line, e.getKey(), e.getValue());
                }
            }
            LineProtocol.end(line, sample.timeMillis);
            writer.offer(line.toString());
        }
    }

    @Override
    public void onEvent(String type, String text, long timeMillis) {
        event(type, text, timeMillis);
    }

    /** A point Grafana can show as an annotation: {@code mqtt_events} with a title and a text. */
    private void event(String title, String text, long timeMillis) {
        StringBuilder line = new StringBuilder(256);
        LineProtocol.measurement(line, "mqtt_events");
        LineProtocol.tags(line, tags);
        LineProtocol.tag(line, "type", title);
        LineProtocol.firstField(line, "value", 1);
        LineProtocol.field(line, "text", text);
        LineProtocol.end(line, timeMillis);
        writer.offer(line.toString());
    }

    @Override
    public void onInterval(Interval interval) {
        merge(pending, Latency.Level.ENGINE, interval::of);
        for (Interval.OfSampler s : interval.bySampler) {
            PendingSampler p = samplers.computeIfAbsent(s.sampler.label, k -> new PendingSampler(s.sampler));
            merge(p.pending, Latency.Level.SAMPLER, s::of);
        }
        for (Interval.OfNode n : interval.byNode) {
            PendingNode p = nodes.computeIfAbsent(n.node.name, k -> new PendingNode(n.node));
            merge(p.pending, Latency.Level.NODE, n::of);
        }
        if (++ticks % ticksPerPoint == 0) {
            writePoints(interval.endMillis);
        }
    }

    /** Adds one interval of every kind {@code level} keeps to what is pending since the last point. */
    private static void merge(Map<Latency, Histogram> pending, Latency.Level level,
            Function<Latency, Histogram> interval) {
        for (Latency kind : Latency.keptBy(level)) {
            Histogram h = pending.get(kind);
            if (h == null) {
                // Every listener receives the same interval histograms: this one keeps its own copy to add to.
                pending.put(kind, interval.apply(kind).copy());
            } else {
                h.add(interval.apply(kind));
            }
        }
    }

    private void writePoints(long endMillis) {
        writePoints(endMillis, null);
    }

    /**
     * @param end the run's summary for the last point, whose loss figures are final; null while the run goes,
     *            when {@code lost} counts the sequence numbers skipped and not (yet) filled in
     */
    private void writePoints(long endMillis, RunSummary end) {
        long[] now = {metrics.sum(Count.PUBLISHED), metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED),
            metrics.sum(Count.CONNECTS_OK)};
        double seconds = (endMillis - previousPointMillis) / 1000.0;
        StringBuilder line = new StringBuilder(1024);
        LineProtocol.measurement(line, "mqtt_counts");
        LineProtocol.tags(line, tags);
        countFields(line, Count.Level.ENGINE, metrics::sum);
        if (seconds > 0) {
            // Rates over this point's interval, so a panel needs no derivative (and no guess of the interval).
            LineProtocol.field(line, "publishRate", (now[0] - previous[0]) / seconds);
            LineProtocol.field(line, "ackRate", (now[1] - previous[1]) / seconds);
            LineProtocol.field(line, "receiveRate", (now[2] - previous[2]) / seconds);
            LineProtocol.field(line, "connectRate", (now[3] - previous[3]) / seconds);
        }
        previous = now;
        previousPointMillis = endMillis;
        LineProtocol.field(line, "errors", metrics.errors());
        if (end == null) {
            LineProtocol.field(line, Count.LOST.key(), Math.max(0, metrics.sum(Count.GAPS) - metrics.sum(Count.GAPS_FILLED)));
            // Clients a declared outage took offline and those back so far: recovery as it happens, not only at the end.
            metrics.recovery.soFarCounts().forEach((c, v) -> LineProtocol.field(line, c.key(), v));
        } else {
            metrics.recovery.soFarCounts().keySet().forEach(c -> LineProtocol.field(line, c.key(), end.count(c)));
            for (Count c : FINAL_COUNTS) {
                LineProtocol.field(line, c.key(), end.count(c));
            }
            // Beside lost, so that a dashboard reading it sees what was owed to nobody.
            for (Count c : Count.NOT_OWED_DELIVERIES) {
                LineProtocol.field(line, c.key(), end.count(c));
            }
            LineProtocol.field(line, "verdict", end.verdict().name());
        }
        LineProtocol.field(line, Count.METRIC_POINTS_DROPPED.key(), writer.dropped());
        LineProtocol.end(line, endMillis);
        writer.offer(line.toString());
        latencies("mqtt_latency", null, null, pending, endMillis);
        for (PendingSampler p : samplers.values()) {
            writeSampler(p, endMillis);
        }
        if (nodes.size() > 1) {
            for (PendingNode p : nodes.values()) {
                writeNode(p, endMillis);
            }
        }
    }

    /** {@code mqtt_node}: one broker node's cumulative counters; {@code mqtt_node_latency}: its interval latency. */
    private void writeNode(PendingNode p, long endMillis) {
        StringBuilder line = new StringBuilder(384);
        LineProtocol.measurement(line, "mqtt_node");
        LineProtocol.tags(line, tags);
        LineProtocol.tag(line, "node", p.tag);
        countFields(line, Count.Level.NODE, p.metrics::sum);
        LineProtocol.end(line, endMillis);
        writer.offer(line.toString());
        latencies("mqtt_node_latency", "node", p.tag, p.pending, endMillis);
    }

    /** {@code mqtt_sampler}: one sampler's cumulative counters; {@code mqtt_sampler_latency}: its interval latency. */
    private void writeSampler(PendingSampler p, long endMillis) {
        StringBuilder line = new StringBuilder(512);
        LineProtocol.measurement(line, "mqtt_sampler");
        LineProtocol.tags(line, tags);
        LineProtocol.tag(line, "sampler", p.tag);
        countFields(line, Count.Level.SAMPLER, p.metrics::sum);
        LineProtocol.end(line, endMillis);
        writer.offer(line.toString());
        latencies("mqtt_sampler_latency", "sampler", p.tag, p.pending, endMillis);
    }

    /**
     * The counts {@code level} keeps as the run goes ({@link Count#counted(Count.Level)}), as the first fields of a
     * point: whatever is declared at a level is written there.
     */
    private static void countFields(StringBuilder line, Count.Level level, ToLongFunction<Count> sum) {
        boolean first = true;
        for (Count c : Count.counted(level)) {
            if (first) {
                LineProtocol.firstField(line, c.key(), sum.applyAsLong(c));
                first = false;
            } else {
                LineProtocol.field(line, c.key(), sum.applyAsLong(c));
            }
        }
    }

    /**
     * Upper bounds (µs) of the heat-map buckets: counts per bucket add up across engines and intervals, so a
     * Grafana heat-map over several engines shows the true distribution, which percentiles cannot.
     */
    static final long[] BUCKET_BOUNDS_MICROS = {100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
        200_000, 500_000, 1_000_000, 2_000_000, 5_000_000};

    /** Field name of bucket {@code i}: {@code b_<upper bound µs>}, and {@code b_inf} for the rest. */
    static String bucketField(int i) {
        return i < BUCKET_BOUNDS_MICROS.length ? "b_" + BUCKET_BOUNDS_MICROS[i] : "b_inf";
    }

    private void buckets(String kind, Histogram h, long endMillis) {
        StringBuilder line = new StringBuilder(512);
        LineProtocol.measurement(line, "mqtt_latency_buckets");
        LineProtocol.tags(line, tags);
        LineProtocol.tag(line, "kind", kind);
        long below = 0;
        for (int i = 0; i <= BUCKET_BOUNDS_MICROS.length; i++) {
            long upTo = i < BUCKET_BOUNDS_MICROS.length
                    ? h.getCountBetweenValues(0, BUCKET_BOUNDS_MICROS[i]) : h.getTotalCount();
            if (i == 0) {
                LineProtocol.firstField(line, bucketField(i), upTo - below);
            } else {
                LineProtocol.field(line, bucketField(i), upTo - below);
            }
            below = upTo;
        }
        LineProtocol.end(line, endMillis);
        writer.offer(line.toString());
    }

    /**
     * A point of every kind pending since the last point, tagged {@code kind} with the kind's key (a kind with nothing
     * recorded writes nothing), then forgets them.
     */
    private void latencies(String measurement, String tagKey, String tagValue, Map<Latency, Histogram> pending,
            long endMillis) {
        pending.forEach((kind, h) -> latency(measurement, tagKey, tagValue, kind.key(), h, endMillis));
        pending.clear();
    }

    /**
     * One latency point of {@code measurement}; {@code tagKey = tagValue} names the sampler or the node it is about
     * (null: the engine's totals, which also get their heat-map buckets).
     */
    private void latency(String measurement, String tagKey, String tagValue, String kind, Histogram h, long endMillis) {
        if (h == null || h.getTotalCount() == 0) {
            return;
        }
        if (tagKey == null) {
            buckets(kind, h, endMillis);
        }
        LatencyStats s = new LatencyStats(h);
        StringBuilder line = new StringBuilder(1024);
        LineProtocol.measurement(line, measurement);
        LineProtocol.tags(line, tags);
        if (tagKey != null) {
            LineProtocol.tag(line, tagKey, tagValue);
        }
        LineProtocol.tag(line, "kind", kind);
        latencyFields(line, s);
        LineProtocol.field(line, "hdr", LatencyStats.encode(h));
        LineProtocol.end(line, endMillis);
        writer.offer(line.toString());
    }

    /** The field set of a latency point: count, mean, p50..p99.9 and max in µs (live points and the run report's). */
    public static void latencyFields(StringBuilder line, LatencyStats s) {
        LineProtocol.firstField(line, "count", s.count);
        LineProtocol.field(line, "mean", s.mean);
        for (int i = 0; i < LatencyStats.PERCENTILES.size(); i++) {
            LineProtocol.field(line, LatencyStats.percentileName(i), s.percentiles[i]);
        }
        LineProtocol.field(line, "max", s.max);
    }

    /** One failure row as a point: tagged by sampler, kind and reason, its count as the field. */
    public static String failurePoint(String measurement, Map<String, String> tags, FailureTally.Row f, long timeMillis) {
        StringBuilder line = new StringBuilder(256);
        LineProtocol.measurement(line, measurement);
        LineProtocol.tags(line, tags);
        LineProtocol.tag(line, "sampler", f.sampler.isEmpty() ? "(engine)" : f.sampler);
        LineProtocol.tag(line, "kind", f.kind.text());
        LineProtocol.tag(line, "reason", f.reason);
        LineProtocol.firstField(line, "count", f.count);
        LineProtocol.end(line, timeMillis);
        return line.toString();
    }

    /** The final counters are written, then everything buffered is flushed (bounded) before the run ends. */
    @Override
    public void onRunEnd(RunSummary summary) {
        // Always a last point: it carries the final loss figures, and the latency of ticks not yet written.
        writePoints(summary.endedAtMillis, summary);
        for (FailureTally.Row f : summary.failures) {
            writer.offer(failurePoint("mqtt_errors", tags, f, summary.endedAtMillis));
        }
        event("run end", summary.verdictLine(), summary.endedAtMillis);
        writer.close(10_000);
        summary.counts.put(Count.METRIC_POINTS_WRITTEN, writer.written());
        summary.counts.put(Count.METRIC_POINTS_DROPPED, writer.dropped());
        String report = "MQTT metrics: " + writer.written() + " points written to InfluxDB, " + writer.dropped()
                + " dropped" + (writer.dropped() == 0 || writer.lastError() == null ? "" : "; last error: "
                + writer.lastError());
        log.info(report);
        System.out.println(report);
    }
}
