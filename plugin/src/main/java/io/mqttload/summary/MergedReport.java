package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.Judgement;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.measure.SignedLatencyStats;

/**
 * The exact report of a whole run over every engine, built from the engines' end-of-run summaries
 * ({@link EngineSummary}): counts summed, latency percentiles from the merged HdrHistograms
 * (never averages of per-engine percentiles), and expected versus received deliveries from the
 * merged ledgers, so that a message published on one engine and owed to a subscriber on another is
 * checked too. Warm-up is already excluded from each engine's rates and latency.
 */
public final class MergedReport {

    public final String runId;
    public final String scenario;
    public final List<EngineRow> engines = new ArrayList<>();
    /** Engines that took part (they started the test) but whose summary never arrived. */
    public final Set<String> missingEngines;
    /** The engines' counts, each merged as {@link Count#merge()} says; those no engine carried are absent. */
    public final Map<Count, Long> counts = new EnumMap<>(Count.class);
    public final Map<String, LatencyStats> latency = new LinkedHashMap<>();
    public final double publishRate;
    public final double receiveRate;
    /** The engines' window rates added up, and the drain beside them: see {@link Rates}. */
    public final Rates rates;
    public final double measuredSeconds;
    public final long warmupMillis;
    public final long expected;
    public final long receivedOfExpected;
    public final long lateSubscriptions;
    /**
     * Expected and received ({@code [expected, received]}) per Subscribe sampler label over every engine:
     * which subscribers lost messages (a slow consumer's loss is its own, not the others').
     */
    public final Map<String, long[]> lossBySampler = new TreeMap<>();
    /** Per broker node of the connection's list, merged over the engines (one entry for a single broker). */
    public final Map<String, NodeFigures> nodes = new TreeMap<>();

    /** Why things failed over every engine, by sampler, kind and reason, most frequent first. */
    public final List<FailureTally.Row> failures = new ArrayList<>();
    /** Receivers owed messages that got none of them, over every engine. */
    public final List<String> receivedNothing = new ArrayList<>();
    public final double failureTolerancePercent;
    private final Judgement judgement;

    /** Broker CPU and memory over the steady phase, per monitored broker (as the engines next to them saw it). */
    public final List<BrokerRow> brokers = new ArrayList<>();
    /** Pub-to-sub latency per Subscribe sampler label, merged over the engines (exact: histograms add). */
    public final Map<String, LatencyStats> pubToSubBySampler = new TreeMap<>();

    /** The run second by second over every engine (see {@link RunSecond}), in time order. */
    public final List<RunSecond> timeline = new ArrayList<>();
    /** Broker samples by broker name, in time order: [timeMillis, cpu % of one core (-1: none), rss bytes]. */
    public final Map<String, List<double[]>> brokerTimeline = new TreeMap<>();
    /** Per engine: its facts (machine, JVM, JMeter) and the properties its run set. */
    public final Map<String, Map<String, String>> engineFacts = new LinkedHashMap<>();
    public final Map<String, Map<String, String>> engineParameters = new LinkedHashMap<>();

    /** Every barrier passage of the run over all engines, in name and generation order. */
    public final List<BarrierRow> rendezvous = new ArrayList<>();

    /** The engines' clock offsets, and what they do to cross-engine pub-to-sub latency. */
    public final ClockReport clocks;
    /** The engines' connect phases on the reference engine's clock; null when no connect succeeded. */
    public final ConnectPhase connectPhase;

    /** What the run was asked to do, over every engine. */
    public final RunSetup setup;

    /** Why the figures cannot be trusted as a whole (colliding engine numbers, mixed runs), or empty. */
    public final List<String> problems = new ArrayList<>();

    private MergedReport(List<EngineSummary> summaries, Collection<String> missing) {
        this.missingEngines = new TreeSet<>(missing);
        Set<String> runIds = new LinkedHashSet<>();
        Set<String> scenarios = new LinkedHashSet<>();
        Map<Integer, String> byNumber = new HashMap<>();
        double measured = 0;
        long warmup = 0;
        Histogram[] merged = new Histogram[Latency.values().length];
        for (EngineSummary s : summaries) {
            EngineRow row = new EngineRow(s);
            engines.add(row);
            runIds.add(s.runId);
            scenarios.add(s.scenario);
            String other = byNumber.putIfAbsent(row.engineNumber, row.engineId);
            if (other != null) {
                problems.add("engines " + other + " and " + row.engineId + " share mqttload.engineNumber "
                        + row.engineNumber + ": their stream ids collide, so loss across engines cannot be checked;"
                        + " give every engine its own number");
            }
            measured = Math.max(measured, s.measuredSeconds);
            warmup = Math.max(warmup, s.warmupMillis);
            row.counts.forEach((c, v) -> counts.merge(c, v, c.merge()::combine));
            for (int i = 0; i < merged.length; i++) {
                LatencyStats stats = s.latencyMicros.get(Latency.values()[i].key());
                if (stats == null) {
                    continue;
                }
                if (merged[i] == null) {
                    merged[i] = stats.histogram().copy();
                } else {
                    merged[i].add(stats.histogram());
                }
            }
        }
        mergeSamplerLatency(summaries);
        mergeRendezvous(summaries);
        mergeTimelines(summaries);
        for (EngineSummary sm : summaries) {
            engineFacts.put(sm.engineId, new LinkedHashMap<>(sm.engine));
            engineParameters.put(sm.engineId, new LinkedHashMap<>(sm.parameters));
            for (BrokerMonitor.Stats b : sm.broker) {
                brokers.add(new BrokerRow(sm.engineId, b));
            }
        }
        if (runIds.size() > 1) {
            problems.add("summaries of different runs were merged: " + runIds);
        }
        Map<String, List<String>> byHeaderLayout = new TreeMap<>();
        for (EngineSummary sm : summaries) {
            byHeaderLayout.computeIfAbsent(sm.engine.getOrDefault(PayloadHeader.LAYOUT_FACT, "1"), k -> new ArrayList<>())
                    .add(sm.engineId);
        }
        if (byHeaderLayout.size() > 1) {
            problems.add("engines write different measurement headers (layout: engines " + byHeaderLayout + "), so"
                    + " each misreads the others' messages: run the same plugin version on every engine");
        }
        this.runId = String.join(",", runIds);
        this.scenario = String.join(",", scenarios);
        this.rates = Rates.merge(engines.stream().map(e -> e.rates).collect(Collectors.toList()));
        this.publishRate = rates.publish;
        this.receiveRate = rates.receive;
        this.measuredSeconds = measured;
        this.warmupMillis = warmup;
        for (int i = 0; i < merged.length; i++) {
            latency.put(Latency.values()[i].key(), new LatencyStats(merged[i] == null ? new Histogram(3) : merged[i]));
        }
        this.clocks = ClockReport.of(summaries);
        latency.put(Latency.PUB_TO_SUB.key(), pubToSubHeadline(latencyOf(Latency.PUB_TO_SUB), clocks.measuredPubToSub,
                clocks.crossesEngines()));
        correctRendezvous(summaries);
        this.connectPhase = ConnectPhase.merge(summaries, clocks);
        this.setup = RunSetup.merge(summaries.stream().map(sm -> sm.setup).collect(Collectors.toList()));
        DeliveryCheck.Result d = mergeLedgers(summaries, clocks);
        this.expected = d.expected;
        this.receivedOfExpected = d.receivedOfExpected;
        this.lossBySampler.putAll(d.bySampler);
        this.nodes.putAll(NodeFigures.merge(summaries, d.byNode));
        this.receivedNothing.addAll(d.receivedNothing);
        this.lateSubscriptions = count(Count.LATE_SUBSCRIPTIONS);
        // The counts of Merge.FROM_LEDGERS: what the merged ledgers found replaces the engines' sums.
        counts.put(Count.EXPECTED, expected);
        counts.put(Count.RECEIVED_OF_EXPECTED, receivedOfExpected);
        counts.put(Count.LOST, lost());
        counts.put(Count.DELIVERED_UNACKNOWLEDGED, d.deliveredUnacknowledged);
        counts.put(Count.DELIVERED_DESPITE_NO_LOCAL, d.deliveredDespiteNoLocal);
        counts.put(Count.SHARED_GROUPS_UNSERVED, d.sharedGroupsUnserved);
        counts.put(Count.UNSERVED_SHARED_DELIVERIES, d.unservedSharedDeliveries);
        counts.put(Count.PUBLISHED_BEFORE_SUBSCRIPTION, d.publishedBeforeSubscription);
        counts.put(Count.UNDECIDED_AROUND_SUBSCRIPTION, d.undecidedAroundSubscription);
        counts.put(Count.PUBLISHED_WHILE_SESSION_LOST, d.publishedWhileSessionLost);
        counts.put(Count.LOST_FROM_KEPT_SESSIONS, d.lostFromKeptSessions);
        counts.put(Count.RECEIVED_FROM_UNKNOWN_STREAMS, d.receivedFromUnknownStreams);
        failures.addAll(mergeFailures(summaries));
        this.failureTolerancePercent = summaries.isEmpty() ? 0 : summaries.get(0).failureTolerancePercent;
        List<String> incomplete = new ArrayList<>(problems);
        if (!missingEngines.isEmpty()) {
            incomplete.add("no summary from engine(s) " + missingEngines + ": the engine died or was unreachable, or the"
                    + " plan has no MQTT Run End sampler in a tearDown Thread Group; the figures below are the other"
                    + " engines'");
        }
        this.judgement = new Judgement(this::count, failures, incomplete, receivedNothing, failureTolerancePercent, true);
    }

    /**
     * The pub-to-sub figure every output of the run shows as its headline (the Summary row, the latency table's
     * pub-to-sub row, {@code latencyMicros.pubToSub} of {@code report-<run>.json}, {@code mqtt_report_latency}, the
     * sweep's and the comparison's figures, each engine's p99 in the engine table). Where messages crossed from one
     * engine's clock to another's, the (publishing engine, receiving engine) pairs' measured latencies added up: every
     * message, never floored, a value below 0 shown as the negative it was measured (the engines' own histograms, which
     * record such a value as 0, would show a receiving clock behind by seconds as a p50 of 0). Within one engine, or
     * from summaries without pairs (an earlier plugin version), the engines' histograms as recorded.
     */
    static LatencyStats pubToSubHeadline(LatencyStats recorded, SignedLatencyStats measuredPairs, boolean acrossClocks) {
        return acrossClocks && measuredPairs != null ? LatencyStats.signed(measuredPairs) : recorded;
    }

    /** Failure rows of every engine, added up by sampler, kind and reason. */
    private static List<FailureTally.Row> mergeFailures(List<EngineSummary> summaries) {
        FailureTally tally = new FailureTally();
        for (EngineSummary s : summaries) {
            for (FailureTally.Row f : s.failures) {
                tally.add(f.sampler, f.kind, f.reason, f.count);
            }
        }
        return tally.rows();
    }

    /**
     * Engines' seconds are matched by wall-clock second; counts add up, histograms merge. An engine's ticks are a
     * second apart but not aligned with the clock's seconds, so one wall second may hold two of its intervals (the
     * run's last, short one among them): its rate there is its counts over the time they cover, not over a second.
     */
    private void mergeTimelines(List<EngineSummary> summaries) {
        Map<Long, RunSecond> seconds = new TreeMap<>();
        for (EngineSummary s : summaries) {
            // This engine's points by wall second, summed: its share of each second, over the time it covers.
            Map<Long, TimelineFigures.Point> engineSeconds = new TreeMap<>();
            for (TimelineFigures.Point p : s.timeline.seconds) {
                long second = p.timeMillis / 1000;
                RunSecond sec = seconds.computeIfAbsent(second, k -> new RunSecond(k * 1000));
                sec.acknowledged += p.acknowledged;
                sec.received += p.received;
                sec.connections += p.connections;
                sec.connects += p.connects;
                sec.errors += p.errors;
                sec.reconnectAttempts += p.reconnectAttempts;
                addEncoded(sec.pubToSub, p.pubToSubHdr);
                addEncoded(sec.publishAck, p.publishAckHdr);
                TimelineFigures.Point share = engineSeconds.computeIfAbsent(second, k -> new TimelineFigures.Point());
                share.acknowledged += p.acknowledged;
                share.received += p.received;
                share.errors += p.errors;
                share.intervalMillis += p.intervalMillis > 0 ? p.intervalMillis : 1000;
            }
            engineSeconds.forEach((second, share) -> seconds.get(second).addEngineRates(share.acknowledged,
                    share.received, share.errors, share.intervalMillis));
            for (TimelineFigures.BrokerPoint b : s.timeline.broker) {
                brokerTimeline.computeIfAbsent(b.broker, k -> new ArrayList<>())
                        .add(new double[] {b.timeMillis, b.cpuPercentOfCore, b.rssBytes});
            }
        }
        timeline.addAll(seconds.values());
        brokerTimeline.values().forEach(l -> l.sort(Comparator.comparingDouble(a -> a[0])));
    }

    /** Adds a histogram as the timeline carries it (encoded; empty when the interval had no value). */
    private static void addEncoded(Histogram into, String encoded) {
        if (encoded != null && !encoded.isEmpty()) {
            into.add(decode(encoded));
        }
    }

    private void mergeSamplerLatency(List<EngineSummary> summaries) {
        Map<String, Histogram> merged = new TreeMap<>();
        for (EngineSummary s : summaries) {
            s.pubToSubBySampler.forEach((label, stats) -> merged.merge(label, stats.histogram().copy(), (into, h) -> {
                into.add(h);
                return into;
            }));
        }
        merged.forEach((label, h) -> pubToSubBySampler.put(label, new LatencyStats(h)));
    }

    private void mergeRendezvous(List<EngineSummary> summaries) {
        Map<String, BarrierRow> rows = new TreeMap<>();
        for (EngineSummary s : summaries) {
            for (BarrierFigures b : s.rendezvous) {
                BarrierRow row = rows.computeIfAbsent(String.format(Locale.ROOT, "%s\u0000%09d", b.name, b.generation),
                        k -> new BarrierRow(b.name, b.generation, b.groupSize));
                row.engines++;
                row.threads += b.localThreads;
                // The engines' own counts: an engine lost after the barrier had its threads there all the same.
                row.arrivedAsCounted = Math.max(row.arrivedAsCounted, b.released ? b.arrivedAtRelease : b.arrived);
                row.enginesSeen.addAll(b.engines);
                if (b.released) {
                    row.enginesReleased++;
                    row.firstWakeMicros = Math.min(row.firstWakeMicros, b.firstWakeMicros);
                    row.lastWakeMicros = Math.max(row.lastWakeMicros, b.lastWakeMicros);
                }
            }
        }
        rendezvous.addAll(rows.values());
        // In the order the run passed them; barriers that never released last.
        rendezvous.sort(Comparator.comparingLong((BarrierRow b) -> b.firstWakeMicros)
                .thenComparing(b -> b.name).thenComparingInt(b -> b.generation));
    }

    /** Each released passage on the reference's clock too: every engine's wake times less its measured offset. */
    private void correctRendezvous(List<EngineSummary> summaries) {
        Map<String, ClockReport.Row> clockRows = new HashMap<>();
        clocks.engines.forEach(e -> clockRows.put(e.engineId, e));
        Map<String, BarrierRow> rows = new HashMap<>();
        rendezvous.forEach(b -> rows.put(b.name + "\u0000" + b.generation, b));
        for (EngineSummary s : summaries) {
            ClockReport.Row clock = clockRows.get(s.engineId);
            for (BarrierFigures b : s.rendezvous) {
                BarrierRow row = rows.get(b.name + "\u0000" + b.generation);
                if (b.released && row != null) {
                    row.addClock(s.engineId, b.firstWakeMicros, b.lastWakeMicros, clock.offsetMicros, clock.boundMicros,
                            clock.notMeasured);
                }
            }
        }
    }

    /**
     * Merges engine summaries given as JSON text ({@link SummaryJson}); {@code missing} names engines whose summary
     * did not arrive.
     */
    public static MergedReport merge(List<String> summaryJson, Collection<String> missing) {
        List<EngineSummary> summaries = new ArrayList<>();
        for (String text : summaryJson) {
            summaries.add(SummaryJson.readEngineSummary(text));
        }
        return of(summaries, missing);
    }

    public static MergedReport of(List<EngineSummary> summaries, Collection<String> missing) {
        return new MergedReport(summaries, missing);
    }

    private static Histogram decode(String base64) {
        try {
            return LatencyStats.decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a run summary holds " + e.getMessage(), e);
        }
    }

    /**
     * Every stream of every engine against every receiver scope of every engine, by the same calculation an engine
     * makes for itself ({@link DeliveryCheck}), what is owed decided with the engines' measured clock offsets.
     */
    private static DeliveryCheck.Result mergeLedgers(List<EngineSummary> summaries, ClockReport clocks) {
        Map<Integer, DeliveryCheck.Stream> streams = new HashMap<>();
        Map<String, DeliveryCheck.Scope> scopes = new TreeMap<>();
        for (EngineSummary s : summaries) {
            DeliveryCheck.add(s.ledger, streams, scopes);
        }
        return DeliveryCheck.check(streams.values(), scopes.values(), clocks.byEngineNumber());
    }

    /** Every monitored broker added up, as one cluster (see {@link BrokerRow#total}); null without a monitor. */
    public BrokerRow brokerTotal() {
        return BrokerRow.total(brokers);
    }

    public long lost() {
        return expected - receivedOfExpected;
    }

    /** Deliveries nobody owed, over every such count (see {@link Count#notOwed()}): beside lost, never in it. */
    public long notOwed() {
        long n = 0;
        for (Count c : Count.NOT_OWED_DELIVERIES) {
            n += count(c);
        }
        return n;
    }

    /** The merged count, 0 when no engine carried it. */
    public long count(Count c) {
        Long v = counts.get(c);
        return v == null ? 0 : v;
    }

    /** The merged figure of one latency kind. */
    public LatencyStats latencyOf(Latency kind) {
        return latency.get(kind.key());
    }

    /**
     * Whether a report shows this latency kind's figures: round trips only where there were requests, figures from the
     * intended send time only where messages had one (see {@link Latency#row}).
     */
    public boolean showsLatency(String kind) {
        return Latency.ofKey(kind).row(this::latencyOf) == Latency.Row.FIGURES;
    }

    /** Whether a report says "no intended send time" in place of this kind's figures. */
    public boolean lacksIntendedTime(String kind) {
        return Latency.ofKey(kind).row(this::latencyOf) == Latency.Row.NO_INTENDED_TIME;
    }

    /** The throughput timers' publish rate over every engine and the seconds behind it, or empty (see {@link RunSetup}). */
    public String scheduleLine() {
        return RunSetup.scheduleText(count(Count.SCHEDULED_PUBLISH_RATE), count(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS));
    }

    /** The engines on one line: how many, and each with its machine ("engine-1 on host-a, 2 cores"). */
    public String enginesLine() {
        return RunSetup.enginesText(engineFacts, missingEngines);
    }

    /** The request/response line of the whole run ("" without requests or replies). */
    public String requestResponseLine() {
        return RunSummary.requestResponseLine(this::count).trim();
    }

    /** The verdict over every engine (see {@link Judgement}); missing summaries or colliding stream ids make it incomplete. */
    public Verdict verdict() {
        return judgement.verdict;
    }

    public String verdictLine() {
        return judgement.line();
    }

    /** What the clients' retries did, on every engine: see {@link ConnectRetries#line}. */
    public String connectRetries() {
        return ConnectRetries.line(this::count);
    }

    /** The recovery from the plan's declared outages, on every engine: see {@link RecoveryFigures}. */
    public String recovery() {
        return RecoveryFigures.line(this::count);
    }

    /** Who gave up reconnecting, on every engine: see {@link RunSummary#reconnectsGivenUp}. */
    public String reconnectsGivenUp() {
        return RunSummary.reconnectsGivenUp(this::count);
    }

    /** Per-sampler pub-to-sub rows are shown when there is more than one subscriber sampler to tell apart. */
    public Map<String, LatencyStats> samplerLatencyRows() {
        return pubToSubBySampler.size() > 1 ? pubToSubBySampler : Map.of();
    }

    /** The figures of {@code report-<run>.json}. */
    public ReportFigures figures() {
        ReportFigures f = new ReportFigures();
        f.runId = runId;
        f.scenario = scenario;
        f.engines = engines.size();
        f.measuredSeconds = measuredSeconds;
        f.warmupMillis = warmupMillis;
        f.publishRate = publishRate;
        f.receiveRate = receiveRate;
        f.drainRate = rates.drainKnown ? rates.drainRate : null;
        counts.forEach((c, v) -> f.counts.put(c.key(), v));
        latency.forEach((kind, stats) -> {
            if (showsLatency(kind)) {
                f.latencyMicros.put(kind, stats);
            }
        });
        f.pubToSubBySampler.putAll(pubToSubBySampler);
        for (EngineRow e : engines) {
            ReportFigures.EngineLine line = new ReportFigures.EngineLine();
            line.engineNumber = e.engineNumber;
            line.publishRate = e.publishRate;
            line.receiveRate = e.receiveRate;
            line.verdict = e.verdict;
            f.engineSummaries.put(e.engineId, line);
        }
        lossBySampler.forEach((label, v) -> f.lossBySampler.put(label, new SamplerDelivery(v)));
        f.nodes.putAll(nodes);
        for (BrokerRow b : brokers) {
            ReportFigures.BrokerLine line = new ReportFigures.BrokerLine();
            line.engineId = b.engineId;
            line.cpuAvg = b.cpuAvg;
            line.cpuMax = b.cpuMax;
            line.rssAvg = b.rssAvg;
            line.rssMax = b.rssMax;
            f.brokers.put(b.broker, line);
        }
        for (BarrierRow b : rendezvous) {
            ReportFigures.BarrierLine line = new ReportFigures.BarrierLine();
            line.groupSize = b.groupSize;
            line.threads = b.threads;
            line.arrived = b.arrived();
            line.engines = b.engines;
            line.enginesReleased = b.enginesReleased;
            line.spreadMillis = b.releasedEverywhere() ? b.spreadMillis() : null;
            line.correctedSpreadMillis = b.correctedSpreadMillis();
            line.correctedSpreadBoundMillis = line.correctedSpreadMillis == null ? null : b.correctedSpreadBoundMillis();
            f.rendezvous.put(b.name + " #" + b.generation, line);
        }
        f.missingEngines.addAll(missingEngines);
        f.problems.addAll(problems);
        f.verdict = verdict();
        f.verdictText = verdictLine();
        f.failureTolerancePercent = failureTolerancePercent;
        f.failures.addAll(failures);
        f.clocks = clocks;
        f.connectPhase = connectPhase;
        f.setup = setup;
        return f;
    }

    public String toJson() {
        return SummaryJson.write(figures());
    }
}
