package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.common.Json;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.Judgement;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;
import io.mqttload.rendezvous.Rendezvous;

/**
 * The exact end-of-run figures of one engine: counts, rates, latency distributions, expected
 * versus received deliveries and the loss verdict. Rendered as JSON (for merging and tools) and as
 * a table (for people).
 */
public final class RunSummary {
    public final String runId;
    public final String engineId;
    public final String scenario;
    public final long startedAtMillis;
    public final long endedAtMillis;
    /** Length of the measured window: from the end of warm-up to the end of the run. */
    public final double measuredSeconds;
    public final long warmupMillis;

    public final Map<String, Long> counts = new LinkedHashMap<>();
    public final LatencyStats pubToSub;
    public final LatencyStats publish;
    public final LatencyStats connect;
    /** Per Subscribe sampler label, over the measured window; only samplers whose clients received measured messages. */
    public final Map<String, LatencyStats> pubToSubBySampler = new TreeMap<>();
    public final DeliveryLedger.Delivery delivery;
    public final long measuredPublished;
    public final long measuredReceived;
    /** Why the last established connection was lost, or null. */
    public final String lastConnectionLoss;
    public final int engineNumber;
    /** {@link DeliveryLedger#toJson()} at the end of the run, for merging engines. */
    private final String ledgerJson;
    /** The barriers this engine passed, as a JSON array. */
    private String rendezvousJson = "[]";
    private final List<String> rendezvousLines = new ArrayList<>();
    /** Broker CPU and memory over the steady phase, per monitored broker. */
    public final List<BrokerMonitor.Stats> broker = new ArrayList<>();
    /** Why things failed, by sampler, kind and reason, most frequent first. */
    public final List<FailureTally.Row> failures;
    public final double failureTolerancePercent;

    public RunSummary(String runId, String engineId, int engineNumber, String scenario, long startedAtMillis,
            long endedAtMillis, long warmupMillis,
            double measuredSeconds, EngineMetrics m, DeliveryLedger.Delivery delivery, long measuredPublished,
            long measuredReceived, long[] receivedPerSubscriber, String ledgerJson, double failureTolerancePercent) {
        this.runId = runId;
        this.engineNumber = engineNumber;
        this.ledgerJson = ledgerJson;
        this.engineId = engineId;
        this.scenario = scenario;
        this.startedAtMillis = startedAtMillis;
        this.endedAtMillis = endedAtMillis;
        this.warmupMillis = warmupMillis;
        this.measuredSeconds = measuredSeconds;
        this.delivery = delivery;
        this.measuredPublished = measuredPublished;
        this.measuredReceived = measuredReceived;
        this.lastConnectionLoss = m.lastConnectionLoss.get();
        counts.put("connectsOk", m.connectsOk.sum());
        counts.put("connectsFailed", m.connectsFailed.sum());
        counts.put("connectionsLost", m.connectionsLost.sum());
        counts.put("reconnects", m.reconnects.sum());
        counts.put("subscribeOk", m.subscribeOk.sum());
        counts.put("subscribeFailed", m.subscribeFailed.sum());
        counts.put("published", m.published.sum());
        counts.put("acknowledged", m.acknowledged.sum());
        counts.put("publishFailed", m.publishFailed.sum());
        counts.put("publishNotSent", m.publishNotSent.sum());
        counts.put("publishedBytes", m.publishedBytes.sum());
        counts.put("received", m.received.sum());
        counts.put("receivedBytes", m.receivedBytes.sum());
        counts.put("receivedUnmeasured", m.receivedUnmeasured.sum());
        counts.put("expected", delivery.expected);
        counts.put("receivedOfExpected", delivery.receivedOfExpected);
        counts.put("lost", delivery.lost());
        counts.put("deliveredUnacknowledged", delivery.deliveredUnacknowledged);
        counts.put("receivedFromUnknownStreams", delivery.receivedFromUnknownStreams);
        counts.put("duplicates", m.duplicates.sum());
        counts.put("reordered", m.reordered.sum());
        counts.put("missingInGaps", delivery.missingInGaps);
        counts.put("lateSubscriptions", delivery.lateSubscriptions);
        counts.put("sharedScopesAcrossEngines", (long) delivery.sharedScopesAcrossEngines);
        counts.put("subscribingClients", receivedPerSubscriber[0]);
        counts.put("receivedPerClientMin", receivedPerSubscriber[1]);
        counts.put("receivedPerClientMax", receivedPerSubscriber[2]);
        counts.put("latencyNegative", m.pubToSubLatency.negativeCount());
        counts.put("latencyClamped", m.pubToSubLatency.clampedCount());
        counts.put("rendezvousTimeouts", m.rendezvousTimeouts.sum());
        counts.put("rendezvousFailures", m.rendezvousFailures.sum());
        counts.put("protocolViolations", m.protocolViolations.sum());
        // After the run end closed every client: anything here is a client the broker still holds open.
        counts.put("openAtEnd", m.activeConnections.sum());
        this.failures = m.failures.rows();
        this.failureTolerancePercent = failureTolerancePercent;
        this.pubToSub = new LatencyStats(m.pubToSubLatency.totalCopy());
        this.publish = new LatencyStats(m.publishLatency.totalCopy());
        this.connect = new LatencyStats(m.connectLatency.totalCopy());
    }

    /** Records the barriers of the run: for the table, and for the merged report's release spread. */
    public void rendezvous(List<Rendezvous.Barrier> barriers) {
        barriers.sort(Comparator.comparing((Rendezvous.Barrier b) -> b.name).thenComparingInt(b -> b.generation));
        StringBuilder json = new StringBuilder("[");
        for (Rendezvous.Barrier b : barriers) {
            json.append(json.length() > 1 ? ", " : "").append(String.format(Locale.ROOT,
                    "{\"name\": %s, \"generation\": %d, \"groupSize\": %d, \"arrived\": %d, \"localThreads\": %d,"
                            + " \"released\": %b, \"waitedMillis\": %s, \"firstWakeMicros\": %d, \"lastWakeMicros\": %d}",
                    Json.quote(b.name), b.generation, b.groupSize, b.arrived(), b.localThreads(), b.isReleased(),
                    Json.number(Rendezvous.waitedMillis(b)), b.isReleased() ? b.firstWakeMicros() : 0,
                    b.isReleased() ? b.lastWakeMicros() : 0));
            rendezvousLines.add(b.isReleased()
                    ? String.format(Locale.ROOT, "%s: %d of %d arrived, %d thread(s) here released after %.0f ms,"
                            + " spread here %.3f ms", b.describe(), b.arrivedAtRelease(), b.groupSize, b.localThreads(),
                            Rendezvous.waitedMillis(b), (b.lastWakeMicros() - b.firstWakeMicros()) / 1000.0)
                    : String.format(Locale.ROOT, "%s: TIMED OUT with %d of %d arrived (engines %s)", b.describe(),
                            b.arrived(), b.groupSize, b.enginesSeen()));
        }
        rendezvousJson = json.append(']').toString();
    }

    private String timelineJson = "{}";
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final Map<String, String> parameters = new LinkedHashMap<>();

    public void timeline(String json) {
        timelineJson = json;
    }

    public void engineFacts(Map<String, String> engineFacts, Map<String, String> planParameters) {
        facts.putAll(engineFacts);
        parameters.putAll(planParameters);
    }

    public void broker(List<BrokerMonitor.Stats> stats) {
        broker.addAll(stats);
    }

    /** Pub-to-sub latency of each Subscribe sampler's clients: a latency probe's own figure beside a flood's. */
    public void pubToSubBySampler(Map<String, LatencyStats> bySampler) {
        pubToSubBySampler.putAll(bySampler);
    }

    public long count(String name) {
        Long v = counts.get(name);
        return v == null ? 0 : v;
    }

    /** The verdict on this engine's own figures: see {@link Judgement}. */
    public Judgement judgement() {
        return new Judgement(this::count, failures, List.of(), delivery.receivedNothing, failureTolerancePercent, false);
    }

    public Verdict verdict() {
        return judgement().verdict;
    }

    public double publishRate() {
        return rate(measuredPublished);
    }

    public double receiveRate() {
        return rate(measuredReceived);
    }

    private double rate(long n) {
        return measuredSeconds <= 0 ? 0 : n / measuredSeconds;
    }

    public String verdictLine() {
        return judgement().line();
    }

    public String toTable() {
        StringBuilder t = new StringBuilder();
        String rule = "-".repeat(78) + "\n";
        t.append(rule);
        t.append(String.format(Locale.ROOT, "MQTT run %s  scenario %s  engine %s%n", runId, scenario, engineId));
        t.append(String.format(Locale.ROOT, "measured %.1f s (warm-up %.1f s excluded from rates and latency)%n",
                measuredSeconds, warmupMillis / 1000.0));
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-28s %s%n", "actual rate pub:sub (msg/s)",
                String.format(Locale.ROOT, "%.1f : %.1f", publishRate(), receiveRate())));
        t.append(String.format(Locale.ROOT, "%-28s ok %d  failed %d  lost %d  reconnects %d%n", "connections",
                count("connectsOk"), count("connectsFailed"), count("connectionsLost"), count("reconnects")));
        if (lastConnectionLoss != null) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "last connection loss", lastConnectionLoss));
        }
        t.append(String.format(Locale.ROOT, "%-28s %d  acknowledged %d  failed %d (not sent %d)%n", "published",
                count("published"), count("acknowledged"), count("publishFailed"), count("publishNotSent")));
        t.append(String.format(Locale.ROOT, "%-28s %d  (%d bytes, %d without header)%n", "received", count("received"),
                count("receivedBytes"), count("receivedUnmeasured")));
        if (count("subscribingClients") > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d clients, min %d, max %d%n", "received per subscriber",
                    count("subscribingClients"), count("receivedPerClientMin"), count("receivedPerClientMax")));
        }
        if (counts.containsKey("metricPointsWritten")) {
            t.append(String.format(Locale.ROOT, "%-28s written %d  dropped %d%n", "metric points (InfluxDB)",
                    count("metricPointsWritten"), count("metricPointsDropped")));
        }
        t.append(String.format(Locale.ROOT, "%-28s %d : %d%n", "expected : received", delivery.expected,
                delivery.receivedOfExpected));
        t.append(String.format(Locale.ROOT, "%-28s lost %d  duplicates %d  reordered %d%n", "delivery", delivery.lost(),
                count("duplicates"), count("reordered")));
        if (delivery.deliveredUnacknowledged > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d%n", "delivered, never acked", delivery.deliveredUnacknowledged));
        }
        if (count("protocolViolations") > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d%n", "broker protocol violations", count("protocolViolations")));
        }
        if (delivery.bySampler.size() > 1 || delivery.lost() > 0) {
            delivery.bySampler.forEach((label, v) -> t.append(String.format(Locale.ROOT,
                    "%-28s expected %d  received %d  lost %d%n", "  by " + (label.isEmpty() ? "(unnamed)" : label),
                    v[0], v[1], v[0] - v[1])));
        }
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-16s %9s %9s %9s %9s %9s %9s %9s %9s %9s%n", "latency (ms)", "count",
                "avg", "p50", "p75", "p90", "p95", "p99", "p99.9", "max"));
        pubToSub.appendTextRow(t, "pub-to-sub");
        publish.appendTextRow(t, "publish (ack)");
        connect.appendTextRow(t, "connect");
        if (pubToSubBySampler.size() > 1) {
            pubToSubBySampler.forEach((label, stats) -> stats.appendTextRow(t, "  to " + label));
        }
        for (BrokerMonitor.Stats b : broker) {
            t.append(String.format(Locale.ROOT, "%-28s CPU avg %.1f%% max %.1f%% (of one core), memory avg %.1f MiB"
                    + " max %.1f MiB, %d samples%n", "broker " + b.broker, b.cpuAvg, b.cpuMax, b.rssAvg / 1048576.0,
                    b.rssMax / 1048576.0, b.samples));
        }
        for (String line : rendezvousLines) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "rendezvous", line));
        }
        appendFailures(t, failures, rule);
        t.append(rule);
        t.append("verdict: ").append(verdictLine()).append('\n');
        t.append(rule);
        return t.toString();
    }

    /** The top failure reasons per sampler under the table, as JMeter's dashboard lists its top errors. */
    public static void appendFailures(StringBuilder t, List<FailureTally.Row> rows, String rule) {
        if (rows.isEmpty()) {
            return;
        }
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-22s %-18s %9s  %s%n", "errors by sampler", "kind", "count", "reason"));
        for (String line : FailureTally.topLines(rows, TOP_REASONS)) {
            t.append(line).append('\n');
        }
    }

    /** Reasons shown per sampler in the tables; the JSON carries every one. */
    static final int TOP_REASONS = 5;

    public String toJson() {
        Json j = new Json();
        j.open();
        j.field("runId", runId).field("engineId", engineId).field("engineNumber", engineNumber)
                .field("scenario", scenario);
        j.field("startedAtMillis", startedAtMillis).field("endedAtMillis", endedAtMillis);
        j.field("warmupMillis", warmupMillis).field("measuredSeconds", measuredSeconds);
        j.field("publishRate", publishRate()).field("receiveRate", receiveRate());
        j.key("counts").open();
        counts.forEach(j::field);
        j.close();
        j.key("latencyMicros").open();
        pubToSub.writeJson(j, "pubToSub");
        publish.writeJson(j, "publish");
        connect.writeJson(j, "connect");
        j.close();
        j.key("pubToSubBySampler").open();
        pubToSubBySampler.forEach((label, stats) -> stats.writeJson(j, label));
        j.close();
        if (lastConnectionLoss != null) {
            j.field("lastConnectionLoss", lastConnectionLoss);
        }
        Judgement judgement = judgement();
        j.field("verdict", judgement.verdict.name()).field("verdictText", judgement.line());
        j.field("failureTolerancePercent", failureTolerancePercent);
        FailureTally.writeJson(j, "failures", failures);
        StringBuilder brokers = new StringBuilder("[");
        for (BrokerMonitor.Stats b : broker) {
            brokers.append(brokers.length() > 1 ? ", " : "").append(String.format(Locale.ROOT,
                    "{\"broker\": %s, \"cpuAvg\": %s, \"cpuMax\": %s, \"rssAvg\": %d, \"rssMax\": %d, \"samples\": %d}",
                    Json.quote(b.broker), Json.number(b.cpuAvg), Json.number(b.cpuMax), b.rssAvg, b.rssMax, b.samples));
        }
        j.rawField("broker", brokers.append(']').toString());
        j.rawField("rendezvous", rendezvousJson);
        j.key("lossBySampler").open();
        delivery.bySampler.forEach((label, v) -> {
            j.key(label).open();
            j.field("expected", v[0]).field("received", v[1]).field("lost", v[0] - v[1]);
            j.close();
        });
        j.close();
        j.key("engine").open();
        facts.forEach(j::field);
        j.close();
        j.key("parameters").open();
        parameters.forEach(j::field);
        j.close();
        j.rawField("timeline", timelineJson);
        j.rawField("ledger", ledgerJson);
        j.close();
        return j.toString();
    }

}
