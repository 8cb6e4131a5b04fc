package io.mqttload.report.prometheus;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

import org.HdrHistogram.Histogram;

import io.mqttload.broker.BrokerSample;
import io.mqttload.engine.IntervalListener;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Interval;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.measure.Latency;
import io.mqttload.summary.RunSummary;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The engine's figures as Prometheus metrics, read when scraped or pushed: the counts the InfluxDB points carry, from
 * the engine's own counters (live at every scrape), and latency as cumulative histograms fed every tick from the
 * engine's interval histograms. Names follow Prometheus' conventions: {@code mqttload_} and the count's key in snake
 * case, {@code _total} on counters, units in the name ({@code _seconds}, {@code _bytes}); per-sampler and per-node
 * figures have names of their own ({@code mqttload_sampler_...}, {@code mqttload_node_...}) so that summing a metric
 * never adds an engine's total to its parts. Labels: {@code run}, {@code scenario}, {@code engine}, and {@code sampler}
 * or {@code node}; latency also {@code phase} ({@code warmup} or {@code measured}: the report's figures are the
 * measured phase's). No client ids or topics: their number grows with the load.
 */
public final class PrometheusMetrics implements IntervalListener {
    static final String PREFIX = "mqttload_";
    static final String WARMUP = "warmup";
    static final String MEASURED = "measured";

    private static final List<Latency> ENGINE_KINDS = Latency.keptBy(Latency.Level.ENGINE);
    private static final List<Latency> SAMPLER_KINDS = Latency.keptBy(Latency.Level.SAMPLER);
    private static final List<Latency> NODE_KINDS = Latency.keptBy(Latency.Level.NODE);

    private final EngineMetrics metrics;
    private final Labels engineLabels;
    private final Series engine = new Series(null);
    /** Per sampler label and per broker node, as they first appear in an interval. */
    private final Map<String, Series> samplers = new ConcurrentHashMap<>();
    private final Map<String, Series> nodes = new ConcurrentHashMap<>();
    private volatile RunSummary end;
    /** The last resource sample of each monitored broker (MQTT Broker Monitor). */
    private final Map<String, BrokerSample> brokers = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Double>> brokerSys = new ConcurrentHashMap<>();

    /** The latency of one level (the engine, a sampler, a node) per kind and phase, and where its counts live. */
    private static final class Series {
        final Object counters;
        final Map<Latency, LatencyBuckets[]> latency = new EnumMap<>(Latency.class);

        Series(Object counters) {
            this.counters = counters;
        }

        void add(Latency kind, boolean measured, Histogram h) {
            if (h == null || h.getTotalCount() == 0) {
                return;
            }
            LatencyBuckets[] phases;
            synchronized (latency) {
                phases = latency.computeIfAbsent(kind, k -> new LatencyBuckets[] {new LatencyBuckets(),
                    new LatencyBuckets()});
            }
            phases[measured ? 1 : 0].add(h);
        }

        Map<Latency, LatencyBuckets[]> latency() {
            synchronized (latency) {
                return new EnumMap<>(latency);
            }
        }
    }

    public PrometheusMetrics(EngineMetrics metrics, RunConfig config) {
        this.metrics = metrics;
        this.engineLabels = Labels.of("run", config.runId(), "scenario", config.scenario(), "engine", config.engineId());
    }

    @Override
    public void onInterval(Interval interval) {
        boolean measured = interval.countedInTotal;
        for (Latency k : ENGINE_KINDS) {
            engine.add(k, measured, interval.of(k));
        }
        for (Interval.OfSampler s : interval.bySampler) {
            Series series = samplers.computeIfAbsent(s.sampler.label, k -> new Series(s.sampler));
            for (Latency k : SAMPLER_KINDS) {
                series.add(k, measured, s.of(k));
            }
        }
        for (Interval.OfNode n : interval.byNode) {
            Series series = nodes.computeIfAbsent(n.node.name, k -> new Series(n.node));
            for (Latency k : NODE_KINDS) {
                series.add(k, measured, n.of(k));
            }
        }
    }

    @Override
    public void onRunEnd(RunSummary summary) {
        end = summary;
    }

    /** A process sample and a $SYS sample may arrive apart: the newest of each is kept. */
    @Override
    public void onBrokerSample(String broker, BrokerSample sample) {
        if (sample.hasProcess()) {
            brokers.put(broker, sample);
        }
        if (!sample.sys.isEmpty()) {
            brokerSys.put(broker, sample.sys);
        }
    }

    /** Whether the run's final figures (the summary's) are in what a scrape returns now. */
    boolean ended() {
        return end != null;
    }

    /** Everything a scrape or a push returns, as of now. */
    public MetricSnapshots collect() {
        RunSummary summary = end;
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        engineCounts(out, summary);
        levelCounts(out, "sampler_", "sampler", Count.Level.SAMPLER, samplers, s -> ((SamplerMetrics) s)::sum);
        levelCounts(out, "node_", "node", Count.Level.NODE, nodes, n -> ((NodeMetrics) n)::sum);
        failures(out);
        latency(out, "", null, Map.of("", engine));
        latency(out, "sampler_", "sampler", samplers);
        latency(out, "node_", "node", nodes);
        brokers(out);
        if (summary != null) {
            out.metricSnapshot(GaugeSnapshot.builder().name(PREFIX + "verdict").help("the run's verdict (the label), 1"
                    + " once the run ended").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(
                    engineLabels.add("verdict", summary.verdict().name())).value(1).build()).build());
        }
        return out.build();
    }

    /**
     * The engine's counts: live counters at every scrape; the counts computed at the run's end (expected deliveries,
     * loss from the ledger) once it ended. {@code lost} is live before: sequence numbers skipped and not filled in;
     * so are the recovery counts {@link io.mqttload.measure.RecoveryTracker#soFarCounts} gives while the run goes.
     */
    private void engineCounts(MetricSnapshots.Builder out, RunSummary summary) {
        Map<Count, Long> soFar = metrics.recovery.soFarCounts();
        for (Count c : Count.values()) {
            if (!c.at(Count.Level.ENGINE) || c.source() == Count.Source.METRICS_WRITER
                    || c.source() == Count.Source.PROMETHEUS_EXPORT) {
                continue;
            }
            double value;
            if (c.counted()) {
                value = metrics.sum(c);
            } else if (summary != null) {
                value = summary.count(c);
            } else if (c == Count.LOST) {
                value = Math.max(0, metrics.sum(Count.GAPS) - metrics.sum(Count.GAPS_FILLED));
            } else if (soFar.containsKey(c)) {
                // Recovery as it happens: clients a declared outage took offline and those back so far.
                value = soFar.get(c);
            } else {
                continue;
            }
            out.metricSnapshot(metric(c, "", List.of(engineLabels), List.of(value)));
        }
    }

    private interface CountSource {
        ToLongFunction<Count> of(Object counters);
    }

    private void levelCounts(MetricSnapshots.Builder out, String prefix, String label, Count.Level level,
            Map<String, Series> series, CountSource source) {
        if (series.isEmpty()) {
            return;
        }
        List<Map.Entry<String, Series>> entries = new ArrayList<>(series.entrySet());
        for (Count c : Count.counted(level)) {
            List<Labels> labels = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (Map.Entry<String, Series> e : entries) {
                labels.add(engineLabels.add(label, labelValue(e.getKey())));
                values.add((double) source.of(e.getValue().counters).applyAsLong(c));
            }
            out.metricSnapshot(metric(c, prefix, labels, values));
        }
    }

    /** A count as a counter ({@code _total}) when it only grows, else as a gauge; milliseconds become seconds. */
    private static MetricSnapshot metric(Count c, String prefix, List<Labels> labels, List<Double> values) {
        String name = PREFIX + prefix + name(c);
        double scale = c.key().endsWith("Millis") ? 1e-3 : 1;
        if (c.source() == Count.Source.COUNTER) {
            CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(c.meaning());
            for (int i = 0; i < labels.size(); i++) {
                b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels.get(i))
                        .value(values.get(i) * scale).build());
            }
            return b.build();
        }
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(c.meaning());
        for (int i = 0; i < labels.size(); i++) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels.get(i)).value(values.get(i) * scale)
                    .build());
        }
        return b.build();
    }

    /** A count's metric name without prefix or {@code _total}: its key in snake case, milliseconds as seconds. */
    public static String name(Count c) {
        String key = c.key().endsWith("Millis") ? c.key().substring(0, c.key().length() - 6) + "Seconds" : c.key();
        return snake(key);
    }

    static String snake(String camel) {
        StringBuilder s = new StringBuilder(camel.length() + 8);
        for (char ch : camel.toCharArray()) {
            if (Character.isUpperCase(ch)) {
                s.append('_').append(Character.toLowerCase(ch));
            } else {
                s.append(ch);
            }
        }
        return s.toString();
    }

    /** Failures by sampler, kind and reason: the reasons are client-independent texts, at most 200 rows per engine. */
    private void failures(MetricSnapshots.Builder out) {
        List<FailureTally.Row> rows = metrics.failures.rows();
        if (rows.isEmpty()) {
            return;
        }
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(PREFIX + "failures").help("failed operations by"
                + " sampler, kind and reason (the reasons behind the error counts)");
        for (FailureTally.Row r : rows) {
            b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(engineLabels.add("sampler",
                    r.sampler.isEmpty() ? "(engine)" : r.sampler).add("kind", r.kind.text()).add("reason", r.reason))
                    .value(r.count).build());
        }
        out.metricSnapshot(b.build());
    }

    private void latency(MetricSnapshots.Builder out, String prefix, String label, Map<String, Series> series) {
        Map<Latency, HistogramSnapshot.Builder> byKind = new EnumMap<>(Latency.class);
        for (Map.Entry<String, Series> e : series.entrySet()) {
            Labels labels = label == null ? engineLabels : engineLabels.add(label, labelValue(e.getKey()));
            for (Map.Entry<Latency, LatencyBuckets[]> k : e.getValue().latency().entrySet()) {
                HistogramSnapshot.Builder b = byKind.computeIfAbsent(k.getKey(), kind -> HistogramSnapshot.builder()
                        .name(PREFIX + prefix + kind.metricName()).help(help(kind)));
                String[] phases = {WARMUP, MEASURED};
                for (int p = 0; p < phases.length; p++) {
                    LatencyBuckets.Snapshot s = k.getValue()[p].snapshot();
                    b.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                            .labels(labels.add("phase", phases[p]))
                            .classicHistogramBuckets(ClassicHistogramBuckets.of(LatencyBuckets.UPPER_BOUNDS_SECONDS, s.counts))
                            .sum(s.sumSeconds).build());
                }
            }
        }
        for (HistogramSnapshot.Builder b : byKind.values()) {
            out.metricSnapshot(b.build());
        }
    }

    /**
     * A histogram's help text. A classic histogram's buckets start at 0, like the engine's own: a pub-to-sub latency
     * measured below 0 (this engine's clock behind its publisher's) is counted in the first bucket, and the help says
     * so; the run report's headline has it as measured.
     */
    private static String help(Latency kind) {
        return kind.description() + (kind.recordedPerReceiver() ? "; a latency below 0 (this engine's clock behind the"
                + " publishing engine's) is counted as 0 (latencyNegative of the engine's summary); the run report's"
                + " pub-to-sub has it as measured" : "")
                + " (docs/measurement.md)";
    }

    /**
     * The monitored brokers' last samples, as the {@code mqtt_broker} points carry them: process figures and the
     * broker's own {@code $SYS} figures ({@code mqttload_broker_sys}, one series per statistic).
     */
    private void brokers(MetricSnapshots.Builder out) {
        Map<String, GaugeSnapshot.Builder> gauges = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, BrokerSample> e : new java.util.TreeMap<>(brokers).entrySet()) {
            Labels labels = engineLabels.add("broker", labelValue(e.getKey()));
            BrokerSample b = e.getValue();
            gauge(gauges, "broker_resident_memory_bytes", "the broker process's resident memory", labels, b.rssBytes);
            if (!Double.isNaN(b.cpuPercentOfCore)) {
                gauge(gauges, "broker_cpu_percent_of_core", "the broker process's CPU, % of one core", labels,
                        b.cpuPercentOfCore);
            }
            gauge(gauges, "broker_open_fds", "the broker process's open file descriptors", labels, b.openFds);
            gauge(gauges, "broker_sockets", "the broker process's sockets", labels, b.sockets);
            gauge(gauges, "broker_threads", "the broker process's threads", labels, b.threads);
        }
        for (Map.Entry<String, Map<String, Double>> e : new java.util.TreeMap<>(brokerSys).entrySet()) {
            Labels labels = engineLabels.add("broker", labelValue(e.getKey()));
            for (Map.Entry<String, Double> sys : new java.util.TreeMap<>(e.getValue()).entrySet()) {
                gauge(gauges, "broker_sys", "the broker's own $SYS statistics, by name", labels.add("name", sys.getKey()),
                        sys.getValue());
            }
        }
        gauges.values().forEach(g -> out.metricSnapshot(g.build()));
    }

    private static void gauge(Map<String, GaugeSnapshot.Builder> gauges, String name, String help, Labels labels,
            double value) {
        gauges.computeIfAbsent(name, n -> GaugeSnapshot.builder().name(PREFIX + n).help(help))
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
    }

    /** A sampler's or node's name as a label value: never empty. */
    static String labelValue(String name) {
        return name == null || name.isEmpty() ? "(unnamed)" : name;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "Prometheus metrics of %s", engineLabels);
    }
}
