package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.clock.ClockFigures;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.Judgement;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.PubToSubPairs;
import io.mqttload.rendezvous.Rendezvous;

/**
 * The exact end-of-run figures of one engine: counts, rates, latency distributions, expected
 * versus received deliveries and the loss verdict. Rendered as a table (for people) and as an
 * {@link EngineSummary} (for merging and tools).
 */
public final class RunSummary {
    public final String runId;
    public final String engineId;
    public final String scenario;
    public final long startedAtMillis;
    public final long endedAtMillis;
    /** Length of the measured window: from the end of warm-up to the end of production (the last Publish sample's end). */
    public final double measuredSeconds;
    public final long warmupMillis;

    /**
     * Every count of {@link Count#SUMMARY}; the InfluxDB writer's own ({@link Count.Source#METRICS_WRITER}) and the Prometheus
     * export's ({@link Count.Source#PROMETHEUS_EXPORT}) only when they ran.
     */
    public final Map<Count, Long> counts = new EnumMap<>(Count.class);
    /** Every declared {@link Latency} kind's figure, read through {@link #latencyOf}. */
    private final Map<Latency, LatencyStats> latency = new EnumMap<>(Latency.class);
    /** Per Subscribe sampler label, over the measured window; only samplers whose clients received measured messages. */
    public final Map<String, LatencyStats> pubToSubBySampler = new TreeMap<>();
    /** Pub-to-sub per publishing engine: as measured, never floored, and corrected by the clock offsets. */
    public final List<PubToSubPairs.Figures> pubToSubPairs;
    public final DeliveryLedger.Delivery delivery;
    /** Acknowledged and received after the warm-up, the drain included: what the window and the drain add up to. */
    public final long measuredPublished;
    public final long measuredReceived;
    /** Why the last established connection was lost, or null. */
    public final String lastConnectionLoss;
    /** When the Connect samplers connected and the rate they achieved; null when none did. */
    public final ConnectPhase connectPhase;
    public final int engineNumber;
    /** {@link DeliveryLedger#book()} at the end of the run, for merging engines. */
    private final DeliveryCheck.Ledger ledger;
    /** The barriers this engine passed, in name and generation order. */
    private final List<BarrierFigures> rendezvous = new ArrayList<>();
    /** Broker CPU and memory over the steady phase, per monitored broker. */
    public final List<BrokerMonitor.Stats> broker = new ArrayList<>();
    /** Why things failed, by sampler, kind and reason, most frequent first. */
    public final List<FailureTally.Row> failures;
    public final double failureTolerancePercent;
    /** Per broker node: a cluster's nodes side by side. */
    public final List<NodeFigures> nodes;

    public RunSummary(String runId, String engineId, int engineNumber, String scenario, long startedAtMillis,
            long endedAtMillis, long warmupMillis,
            double measuredSeconds, EngineMetrics m, DeliveryLedger.Delivery delivery, long measuredPublished,
            long measuredReceived, WindowCounts window, long[] receivedPerSubscriber, DeliveryCheck.Ledger ledger,
            double failureTolerancePercent) {
        this.runId = runId;
        this.engineNumber = engineNumber;
        this.ledger = ledger;
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
        this.connectPhase = ConnectPhase.of(m.sum(Count.CONNECTS_OK), m.connectSpan.get());
        for (Count c : Count.SUMMARY) {
            if (c.counted()) {
                counts.put(c, m.sum(c));
            }
        }
        counts.put(Count.EXPECTED, delivery.expected);
        counts.put(Count.RECEIVED_OF_EXPECTED, delivery.receivedOfExpected);
        counts.put(Count.LOST, delivery.lost());
        counts.put(Count.DELIVERED_UNACKNOWLEDGED, delivery.deliveredUnacknowledged);
        counts.put(Count.DELIVERED_DESPITE_NO_LOCAL, delivery.deliveredDespiteNoLocal);
        counts.put(Count.SHARED_GROUPS_UNSERVED, delivery.sharedGroupsUnserved);
        counts.put(Count.UNSERVED_SHARED_DELIVERIES, delivery.unservedSharedDeliveries);
        counts.put(Count.PUBLISHED_BEFORE_SUBSCRIPTION, delivery.publishedBeforeSubscription);
        counts.put(Count.UNDECIDED_AROUND_SUBSCRIPTION, delivery.undecidedAroundSubscription);
        counts.put(Count.PUBLISHED_WHILE_SESSION_LOST, delivery.publishedWhileSessionLost);
        counts.put(Count.LOST_FROM_KEPT_SESSIONS, delivery.lostFromKeptSessions);
        counts.put(Count.RECEIVED_FROM_UNKNOWN_STREAMS, delivery.receivedFromUnknownStreams);
        counts.put(Count.MISSING_IN_GAPS, delivery.missingInGaps);
        counts.put(Count.LATE_SUBSCRIPTIONS, delivery.lateSubscriptions);
        counts.put(Count.SHARED_SCOPES_ACROSS_ENGINES, (long) delivery.sharedScopesAcrossEngines);
        counts.put(Count.SUBSCRIBING_CLIENTS, receivedPerSubscriber[0]);
        counts.put(Count.RECEIVED_PER_CLIENT_MIN, receivedPerSubscriber[1]);
        counts.put(Count.RECEIVED_PER_CLIENT_MAX, receivedPerSubscriber[2]);
        counts.put(Count.LATENCY_NEGATIVE, m.pubToSubNegativeCount());
        counts.put(Count.LATENCY_CLAMPED, m.pubToSubClampedCount());
        // After the run end closed every client: anything here is a client the broker still holds open.
        counts.put(Count.OPEN_AT_END, m.sum(Count.ACTIVE_CONNECTIONS));
        counts.put(Count.ACKNOWLEDGED_IN_WINDOW, window.acknowledged);
        counts.put(Count.RECEIVED_IN_WINDOW, window.received);
        counts.put(Count.IN_FLIGHT_AT_WINDOW_START, window.inFlightAtStart);
        counts.put(Count.IN_FLIGHT_AT_WINDOW_END, window.inFlightAtEnd);
        counts.put(Count.SCHEDULED_IN_WINDOW, window.scheduled);
        counts.put(Count.RECEIVED_IN_DRAIN, window.receivedInDrain);
        counts.put(Count.DRAIN_MILLIS, window.drainMillis);
        counts.put(Count.RECONNECT_GIVE_UP_FIRST_MILLIS, sinceStart(m.firstGiveUpMillis.get(), startedAtMillis));
        counts.put(Count.RECONNECT_GIVE_UP_LAST_MILLIS, sinceStart(m.lastGiveUpMillis.get(), startedAtMillis));
        counts.putAll(m.recovery.figures(startedAtMillis));
        this.failures = m.failures.rows();
        this.failureTolerancePercent = failureTolerancePercent;
        this.nodes = NodeFigures.of(m.nodes.all(), delivery.byNode);
        for (Latency kind : Latency.values()) {
            latency.put(kind, new LatencyStats(m.totalCopy(kind)));
        }
        this.pubToSubPairs = m.pubToSubPairs.figures();
    }

    /** {@code epochMillis} from the run's start, at least 1 so that it is not read as "never"; 0 stays 0. */
    private static long sinceStart(long epochMillis, long startedAtMillis) {
        return epochMillis == 0 ? 0 : Math.max(1, epochMillis - startedAtMillis);
    }

    /** The figure of one latency kind. */
    public LatencyStats latencyOf(Latency kind) {
        return latency.get(kind);
    }

    /** This engine's clock against the run's reference engine (see {@code clock.ClockSync}). */
    private ClockFigures clock;

    public void clock(ClockFigures figures) {
        clock = figures;
    }

    /** Records the barriers of the run: for the table, and for the merged report's release spread. */
    public void rendezvous(List<Rendezvous.Barrier> barriers) {
        barriers.sort(Comparator.comparing((Rendezvous.Barrier b) -> b.name).thenComparingInt(b -> b.generation));
        for (Rendezvous.Barrier b : barriers) {
            rendezvous.add(BarrierFigures.of(b));
        }
    }

    private TimelineFigures timeline = new TimelineFigures();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final Map<String, String> parameters = new LinkedHashMap<>();

    public void timeline(TimelineFigures figures) {
        timeline = figures;
    }

    public void engineFacts(Map<String, String> engineFacts, Map<String, String> planParameters) {
        facts.putAll(engineFacts);
        parameters.putAll(planParameters);
    }

    private RunSetup setup = new RunSetup();

    /** What the run was asked to do, as its samplers ran it. */
    public void setup(RunSetup runSetup) {
        setup = runSetup;
    }

    public RunSetup setup() {
        return setup;
    }

    public void broker(List<BrokerMonitor.Stats> stats) {
        broker.addAll(stats);
    }

    /** Pub-to-sub latency of each Subscribe sampler's clients: a latency probe's own figure beside a flood's. */
    public void pubToSubBySampler(Map<String, LatencyStats> bySampler) {
        pubToSubBySampler.putAll(bySampler);
    }

    public long count(Count c) {
        Long v = counts.get(c);
        return v == null ? 0 : v;
    }

    /** The verdict on this engine's own figures: see {@link Judgement}. */
    public Judgement judgement() {
        return new Judgement(this::count, failures, List.of(), delivery.receivedNothing, failureTolerancePercent, false);
    }

    public Verdict verdict() {
        return judgement().verdict;
    }

    /** The window's rates and the drain beside them: see {@link Rates}. */
    public Rates rates() {
        return Rates.of(this::count, measuredSeconds);
    }

    public double publishRate() {
        return rates().publish;
    }

    public double receiveRate() {
        return rates().receive;
    }

    public String verdictLine() {
        return judgement().line();
    }

    /**
     * Who gave up reconnecting, after how many attempts and when ("" when no client did), in the summary's and the
     * report's words.
     */
    public static String reconnectsGivenUp(ToLongFunction<Count> count) {
        long clients = count.applyAsLong(Count.RECONNECTS_GIVEN_UP);
        if (clients == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%d client(s) gave up after %d reconnect attempt(s) in all, from %.1f s to %.1f s"
                + " after the run's start: their connections stayed lost", clients,
                count.applyAsLong(Count.RECONNECT_ATTEMPTS_GIVEN_UP),
                count.applyAsLong(Count.RECONNECT_GIVE_UP_FIRST_MILLIS) / 1000.0,
                count.applyAsLong(Count.RECONNECT_GIVE_UP_LAST_MILLIS) / 1000.0);
    }

    /** The request/response line ("" without requests or replies), for the engine summary and the report alike. */
    public static String requestResponseLine(ToLongFunction<Count> count) {
        long requests = count.applyAsLong(Count.REQUESTS_PUBLISHED);
        long sent = count.applyAsLong(Count.REPLIES_SENT);
        if (requests == 0 && sent == 0) {
            return "";
        }
        long received = count.applyAsLong(Count.REPLIES_RECEIVED);
        return String.format(Locale.ROOT, "request/response: %d request(s), %d repl(ies) sent, %d answered, %d failed,"
                + " %d request(s) unanswered, %d duplicate and %d foreign repl(ies)%n", requests, sent, received,
                count.applyAsLong(Count.REPLIES_FAILED), Math.max(0, requests - received),
                count.applyAsLong(Count.REPLY_DUPLICATES), count.applyAsLong(Count.REPLIES_FOREIGN));
    }

    public String toTable() {
        StringBuilder t = new StringBuilder();
        String rule = "-".repeat(78) + "\n";
        t.append(rule);
        t.append(String.format(Locale.ROOT, "MQTT run %s  scenario %s  engine %s%n", runId, scenario, engineId));
        t.append(String.format(Locale.ROOT, "measured %.1f s (warm-up %.1f s excluded from rates and latency)%n",
                measuredSeconds, warmupMillis / 1000.0));
        t.append(rule);
        // The schedule has its own line below, beside the actual rate.
        setup.appendText(t, scenario, "", engineId + " on " + facts.getOrDefault("host", "?"));
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-28s %s%n", "actual rate pub:sub (msg/s)", rates().pubSub()));
        t.append(String.format(Locale.ROOT, "%-28s %s%n", "drain", rates().drainText()));
        if (count(Count.SCHEDULED_PUBLISH_RATE) > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d (the plan's schedule), behind it %d s%n", "scheduled pub (msg/s)",
                    count(Count.SCHEDULED_PUBLISH_RATE), count(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)));
        }
        t.append(String.format(Locale.ROOT, "%-28s ok %d  failed %d  lost %d  reconnects %d%n", "connections",
                count(Count.CONNECTS_OK), count(Count.CONNECTS_FAILED), count(Count.CONNECTIONS_LOST), count(Count.RECONNECTS)));
        if (connectPhase != null) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "connect rate", connectPhase.describe()));
        }
        String retried = ConnectRetries.line(this::count);
        if (!retried.isEmpty()) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "retries", retried));
        }
        if (count(Count.RECONNECTS_GIVEN_UP) > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "reconnects given up", reconnectsGivenUp(this::count)));
        }
        String recovery = RecoveryFigures.line(this::count);
        if (!recovery.isEmpty()) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "recovery", recovery));
        }
        if (lastConnectionLoss != null) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "last connection loss", lastConnectionLoss));
        }
        t.append(String.format(Locale.ROOT, "%-28s %d  acknowledged %d  failed %d (not sent %d)%n", "published",
                count(Count.PUBLISHED), count(Count.ACKNOWLEDGED), count(Count.PUBLISH_FAILED), count(Count.PUBLISH_NOT_SENT)));
        t.append(String.format(Locale.ROOT, "%-28s %d  (%d bytes, %d without header)%n", "received", count(Count.RECEIVED),
                count(Count.RECEIVED_BYTES), count(Count.RECEIVED_UNMEASURED)));
        if (count(Count.SUBSCRIBING_CLIENTS) > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d clients, min %d, max %d%n", "received per subscriber",
                    count(Count.SUBSCRIBING_CLIENTS), count(Count.RECEIVED_PER_CLIENT_MIN), count(Count.RECEIVED_PER_CLIENT_MAX)));
        }
        if (counts.containsKey(Count.METRIC_POINTS_WRITTEN)) {
            t.append(String.format(Locale.ROOT, "%-28s written %d  dropped %d%n", "metric points (InfluxDB)",
                    count(Count.METRIC_POINTS_WRITTEN), count(Count.METRIC_POINTS_DROPPED)));
        }
        if (counts.containsKey(Count.PROMETHEUS_SCRAPES)) {
            t.append(String.format(Locale.ROOT, "%-28s scrapes %d  pushes failed %d  final figures %s%n", "Prometheus",
                    count(Count.PROMETHEUS_SCRAPES), count(Count.PROMETHEUS_PUSHES_FAILED),
                    count(Count.PROMETHEUS_FINAL_MISSED) == 0 ? "exported" : "MISSED"));
        }
        t.append(String.format(Locale.ROOT, "%-28s %d : %d%n", "expected : received", delivery.expected,
                delivery.receivedOfExpected));
        t.append(String.format(Locale.ROOT, "%-28s lost %d  duplicates %d  reordered %d%n", "delivery", delivery.lost(),
                count(Count.DUPLICATES), count(Count.REORDERED)));
        for (Count c : Count.NOT_OWED_DELIVERIES) {
            if (count(c) > 0) {
                t.append(String.format(Locale.ROOT, "%-28s %d (%s)%n", "owed to nobody", count(c), c.key()));
            }
        }
        if (delivery.deliveredUnacknowledged > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d%n", "delivered, never acked", delivery.deliveredUnacknowledged));
        }
        if (count(Count.PROTOCOL_VIOLATIONS) > 0) {
            t.append(String.format(Locale.ROOT, "%-28s %d%n", "broker protocol violations", count(Count.PROTOCOL_VIOLATIONS)));
        }
        if (delivery.bySampler.size() > 1 || delivery.lost() > 0 || count(Count.DUPLICATES) > 0
                || count(Count.REORDERED) > 0) {
            delivery.bySampler.forEach((label, v) -> t.append(String.format(Locale.ROOT,
                    "%-28s expected %d  received %d  lost %d  duplicates %d  reordered %d%n", "  by "
                    + (label.isEmpty() ? "(unnamed)" : label), v[0], v[1], v[0] - v[1], v[2], v[3])));
        }
        t.append(rule);
        LatencyStats.appendTextHeader(t);
        for (Latency kind : Latency.values()) {
            kind.appendTextRow(t, this::latencyOf);
        }
        t.append(requestResponseLine(this::count));
        if (pubToSubBySampler.size() > 1) {
            pubToSubBySampler.forEach((label, stats) -> stats.appendTextRow(t, "  to " + label));
        }
        for (BrokerMonitor.Stats b : broker) {
            t.append(String.format(Locale.ROOT, "%-28s CPU avg %.1f%% max %.1f%% (of one core), memory avg %.1f MiB"
                    + " max %.1f MiB, %d samples%n", "broker " + b.broker, b.cpuAvg, b.cpuMax, b.rssAvg / 1048576.0,
                    b.rssMax / 1048576.0, b.samples));
        }
        for (BarrierFigures b : rendezvous) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "rendezvous", b.line()));
        }
        // Only where this engine measured against another: a run on one engine has no clock to compare.
        if (clock != null && clock.referenceEngine != null && !clock.reference) {
            t.append(String.format(Locale.ROOT, "%-28s %s%n", "clock", ClockText.line(clock)));
        }
        NodeFigures.appendTable(t, nodes, rule);
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

    /** What travels to the controller and into the summary file. */
    public EngineSummary figures() {
        EngineSummary f = new EngineSummary();
        f.runId = runId;
        f.engineId = engineId;
        f.engineNumber = engineNumber;
        f.scenario = scenario;
        f.startedAtMillis = startedAtMillis;
        f.endedAtMillis = endedAtMillis;
        f.warmupMillis = warmupMillis;
        f.measuredSeconds = measuredSeconds;
        Rates rates = rates();
        f.publishRate = rates.publish;
        f.receiveRate = rates.receive;
        f.drainRate = rates.drainRate;
        counts.forEach((c, v) -> f.counts.put(c.key(), v));
        for (Latency kind : Latency.values()) {
            if (kind.row(this::latencyOf) == Latency.Row.FIGURES) {
                f.latencyMicros.put(kind.key(), latencyOf(kind));
            }
        }
        f.pubToSubBySampler.putAll(pubToSubBySampler);
        f.pubToSubPairs.addAll(pubToSubPairs);
        f.lastConnectionLoss = lastConnectionLoss;
        f.connectPhase = connectPhase;
        Judgement judgement = judgement();
        f.verdict = judgement.verdict;
        f.verdictText = judgement.line();
        f.failureTolerancePercent = failureTolerancePercent;
        f.failures.addAll(failures);
        f.broker.addAll(broker);
        f.rendezvous.addAll(rendezvous);
        delivery.bySampler.forEach((label, v) -> f.lossBySampler.put(label, new SamplerDelivery(v)));
        f.nodes.addAll(nodes);
        f.engine.putAll(facts);
        f.parameters.putAll(parameters);
        f.timeline = timeline;
        f.ledger = ledger;
        f.clock = clock;
        f.setup = setup;
        return f;
    }

    public String toJson() {
        return SummaryJson.write(figures());
    }
}
