package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BinaryOperator;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.common.Json;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.Judgement;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;

/**
 * The exact report of a whole run over every engine, built from the engines' end-of-run summaries
 * ({@link RunSummary#toJson()}): counts summed, latency percentiles from the merged HdrHistograms
 * (never averages of per-engine percentiles), and expected versus received deliveries from the
 * merged ledgers, so that a message published on one engine and owed to a subscriber on another is
 * checked too. Warm-up is already excluded from each engine's rates and latency.
 */
public final class MergedReport {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The latency kinds of the report, in the order the tables show them. */
    public static final List<String> LATENCY_KINDS = List.of("pubToSub", "publish", "connect");
    public static final List<String> LATENCY_TITLES = List.of("pub-to-sub", "publish (ack)", "connect");

    public final String runId;
    public final String scenario;
    public final List<EngineRow> engines = new ArrayList<>();
    /** Engines that took part (they started the test) but whose summary never arrived. */
    public final Set<String> missingEngines;
    public final Map<String, Long> counts = new LinkedHashMap<>();
    public final Map<String, LatencyStats> latency = new LinkedHashMap<>();
    public final double publishRate;
    public final double receiveRate;
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

    /** One monitored broker: the seeds' columns. */
    public static final class BrokerRow {
        public final String broker;
        public final String engineId;
        public final double cpuAvg;
        public final double cpuMax;
        public final long rssAvg;
        public final long rssMax;

        BrokerRow(String engineId, JsonNode b) {
            this.engineId = engineId;
            this.broker = b.path("broker").asText();
            this.cpuAvg = b.path("cpuAvg").asDouble();
            this.cpuMax = b.path("cpuMax").asDouble();
            this.rssAvg = b.path("rssAvg").asLong();
            this.rssMax = b.path("rssMax").asLong();
        }
    }

    /** The run second by second over every engine (see {@link Second}), in time order. */
    public final List<Second> timeline = new ArrayList<>();
    /** Broker samples by broker name, in time order: [timeMillis, cpu % of one core (-1: none), rss bytes]. */
    public final Map<String, List<double[]>> brokerTimeline = new TreeMap<>();
    /** Per engine: its facts (machine, JVM, JMeter) and the properties its run set. */
    public final Map<String, Map<String, String>> engineFacts = new LinkedHashMap<>();
    public final Map<String, Map<String, String>> engineParameters = new LinkedHashMap<>();

    /** One second of the run, summed over the engines; latency merged from their histograms. */
    public static final class Second {
        public final long timeMillis;
        public long acknowledged;
        public long received;
        public long connections;
        public long connects;
        public long errors;
        public final Histogram pubToSub = new Histogram(3);

        Second(long timeMillis) {
            this.timeMillis = timeMillis;
        }
    }

    /** Every barrier passage of the run over all engines, in name and generation order. */
    public final List<BarrierRow> rendezvous = new ArrayList<>();

    /** One barrier passage across engines. */
    public static final class BarrierRow {
        public final String name;
        public final int generation;
        public final int groupSize;
        /** Threads that waited at it, summed over engines. */
        public int threads;
        public int engines;
        public int enginesReleased;
        long firstWakeMicros = Long.MAX_VALUE;
        long lastWakeMicros = Long.MIN_VALUE;

        BarrierRow(String name, int generation, int groupSize) {
            this.name = name;
            this.generation = generation;
            this.groupSize = groupSize;
        }

        public boolean releasedEverywhere() {
            return enginesReleased == engines;
        }

        /** From the first to the last thread released, over every engine (engine clocks, µs precision). */
        public double spreadMillis() {
            return releasedEverywhere() ? (lastWakeMicros - firstWakeMicros) / 1000.0 : Double.NaN;
        }

        public String describe() {
            return releasedEverywhere()
                    ? String.format(Locale.ROOT, "'%s' #%d: %d of %d threads on %d engine(s) released, spread %.3f ms",
                            name, generation, threads, groupSize, engines, spreadMillis())
                    : String.format(Locale.ROOT, "'%s' #%d: TIMED OUT on %d of %d engine(s); %d of %d threads arrived",
                            name, generation, engines - enginesReleased, engines, threads, groupSize);
        }
    }

    /** Why the figures cannot be trusted as a whole (colliding engine numbers, mixed runs), or empty. */
    public final List<String> problems = new ArrayList<>();

    /** One engine's line in the report. */
    public static final class EngineRow {
        public final String engineId;
        public final int engineNumber;
        public final double publishRate;
        public final double receiveRate;
        public final Map<String, Long> counts;
        public final long pubToSubP99;
        public final Verdict verdict;

        EngineRow(JsonNode s) {
            engineId = s.path("engineId").asText();
            engineNumber = s.path("engineNumber").asInt(-1);
            publishRate = s.path("publishRate").asDouble();
            receiveRate = s.path("receiveRate").asDouble();
            counts = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = s.path("counts").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                counts.put(e.getKey(), e.getValue().asLong());
            }
            pubToSubP99 = s.path("latencyMicros").path("pubToSub").path("p99").asLong();
            verdict = Verdict.of(s.path("verdict").asText());
        }

        public long count(String name) {
            return counts.getOrDefault(name, 0L);
        }
    }

    private MergedReport(List<JsonNode> summaries, Collection<String> missing) {
        this.missingEngines = new TreeSet<>(missing);
        Set<String> runIds = new LinkedHashSet<>();
        Set<String> scenarios = new LinkedHashSet<>();
        Map<Integer, String> byNumber = new HashMap<>();
        double pub = 0;
        double sub = 0;
        double measured = 0;
        long warmup = 0;
        long late = 0;
        Histogram[] merged = new Histogram[LATENCY_KINDS.size()];
        for (JsonNode s : summaries) {
            EngineRow row = new EngineRow(s);
            engines.add(row);
            runIds.add(s.path("runId").asText());
            scenarios.add(s.path("scenario").asText());
            String other = byNumber.putIfAbsent(row.engineNumber, row.engineId);
            if (other != null) {
                problems.add("engines " + other + " and " + row.engineId + " share mqttload.engineNumber "
                        + row.engineNumber + ": their stream ids collide, so loss across engines cannot be checked;"
                        + " give every engine its own number");
            }
            pub += row.publishRate;
            sub += row.receiveRate;
            measured = Math.max(measured, s.path("measuredSeconds").asDouble());
            warmup = Math.max(warmup, s.path("warmupMillis").asLong());
            row.counts.forEach((k, v) -> counts.merge(k, v, combine(k)));
            for (int i = 0; i < LATENCY_KINDS.size(); i++) {
                Histogram h = decode(s.path("latencyMicros").path(LATENCY_KINDS.get(i)).path("hdrHistogram").asText(""));
                if (merged[i] == null) {
                    merged[i] = h;
                } else {
                    merged[i].add(h);
                }
            }
        }
        mergeSamplerLatency(summaries);
        mergeRendezvous(summaries);
        mergeTimelines(summaries);
        for (JsonNode sm : summaries) {
            String engine = sm.path("engineId").asText();
            engineFacts.put(engine, strings(sm.path("engine")));
            engineParameters.put(engine, strings(sm.path("parameters")));
        }
        for (JsonNode sm : summaries) {
            for (JsonNode b : sm.path("broker")) {
                brokers.add(new BrokerRow(sm.path("engineId").asText(), b));
            }
        }
        if (runIds.size() > 1) {
            problems.add("summaries of different runs were merged: " + runIds);
        }
        this.runId = String.join(",", runIds);
        this.scenario = String.join(",", scenarios);
        this.publishRate = pub;
        this.receiveRate = sub;
        this.measuredSeconds = measured;
        this.warmupMillis = warmup;
        for (int i = 0; i < LATENCY_KINDS.size(); i++) {
            latency.put(LATENCY_KINDS.get(i), new LatencyStats(merged[i] == null ? new Histogram(3) : merged[i]));
        }
        DeliveryCheck.Result d = mergeLedgers(summaries);
        for (JsonNode s : summaries) {
            late += s.path("counts").path("lateSubscriptions").asLong();
        }
        this.expected = d.expected;
        this.receivedOfExpected = d.receivedOfExpected;
        this.lossBySampler.putAll(d.bySampler);
        this.receivedNothing.addAll(d.receivedNothing);
        this.lateSubscriptions = late;
        counts.put("expected", expected);
        counts.put("receivedOfExpected", receivedOfExpected);
        counts.put("lost", lost());
        counts.put("deliveredUnacknowledged", d.deliveredUnacknowledged);
        counts.put("receivedFromUnknownStreams", d.receivedFromUnknownStreams);
        failures.addAll(mergeFailures(summaries));
        this.failureTolerancePercent = summaries.isEmpty() ? 0 : summaries.get(0).path("failureTolerancePercent").asDouble();
        List<String> incomplete = new ArrayList<>(problems);
        if (!missingEngines.isEmpty()) {
            incomplete.add("no summary from engine(s) " + missingEngines + ": the engine died or was unreachable, or the"
                    + " plan has no MQTT Run End sampler in a tearDown Thread Group; the figures below are the other"
                    + " engines'");
        }
        this.judgement = new Judgement(this::count, failures, incomplete, receivedNothing, failureTolerancePercent, true);
    }

    /** Failure rows of every engine, added up by sampler, kind and reason. */
    private static List<FailureTally.Row> mergeFailures(List<JsonNode> summaries) {
        FailureTally tally = new FailureTally();
        for (JsonNode s : summaries) {
            for (JsonNode f : s.path("failures")) {
                tally.add(f.path("sampler").asText(), FailureTally.Kind.of(f.path("kind").asText()),
                        f.path("reason").asText(), f.path("count").asLong());
            }
        }
        return tally.rows();
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(e.getKey(), e.getValue().asText());
        }
        return m;
    }

    /** Engines' seconds are matched by wall-clock second; counts add up, histograms merge. */
    private void mergeTimelines(List<JsonNode> summaries) {
        Map<Long, Second> seconds = new TreeMap<>();
        for (JsonNode s : summaries) {
            for (JsonNode p : s.path("timeline").path("points")) {
                long second = p.get(0).asLong() / 1000;
                Second sec = seconds.computeIfAbsent(second, k -> new Second(k * 1000));
                sec.acknowledged += p.get(1).asLong();
                sec.received += p.get(2).asLong();
                sec.connections += p.get(3).asLong();
                sec.connects += p.get(4).asLong();
                sec.errors += p.get(5).asLong();
                String hdr = p.get(6).asText("");
                if (!hdr.isEmpty()) {
                    sec.pubToSub.add(decode(hdr));
                }
            }
            for (JsonNode b : s.path("timeline").path("broker")) {
                brokerTimeline.computeIfAbsent(b.get(1).asText(), k -> new ArrayList<>())
                        .add(new double[] {b.get(0).asDouble(), b.get(2).asDouble(), b.get(3).asDouble()});
            }
        }
        timeline.addAll(seconds.values());
        brokerTimeline.values().forEach(l -> l.sort(Comparator.comparingDouble(a -> a[0])));
    }

    private void mergeSamplerLatency(List<JsonNode> summaries) {
        Map<String, Histogram> merged = new TreeMap<>();
        for (JsonNode s : summaries) {
            for (Iterator<Map.Entry<String, JsonNode>> it = s.path("pubToSubBySampler").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                Histogram h = decode(e.getValue().path("hdrHistogram").asText(""));
                Histogram into = merged.putIfAbsent(e.getKey(), h);
                if (into != null) {
                    into.add(h);
                }
            }
        }
        merged.forEach((label, h) -> pubToSubBySampler.put(label, new LatencyStats(h)));
    }

    private void mergeRendezvous(List<JsonNode> summaries) {
        Map<String, BarrierRow> rows = new TreeMap<>();
        for (JsonNode s : summaries) {
            for (JsonNode b : s.path("rendezvous")) {
                String name = b.path("name").asText();
                int generation = b.path("generation").asInt();
                BarrierRow row = rows.computeIfAbsent(String.format(Locale.ROOT, "%s\u0000%09d", name, generation),
                        k -> new BarrierRow(name, generation, b.path("groupSize").asInt()));
                row.engines++;
                row.threads += b.path("localThreads").asInt();
                if (b.path("released").asBoolean()) {
                    row.enginesReleased++;
                    row.firstWakeMicros = Math.min(row.firstWakeMicros, b.path("firstWakeMicros").asLong());
                    row.lastWakeMicros = Math.max(row.lastWakeMicros, b.path("lastWakeMicros").asLong());
                }
            }
        }
        rendezvous.addAll(rows.values());
        // In the order the run passed them; barriers that never released last.
        rendezvous.sort(Comparator.comparingLong((BarrierRow b) -> b.firstWakeMicros)
                .thenComparing(b -> b.name).thenComparingInt(b -> b.generation));
    }

    /** How engine counts combine: extremes stay extremes, everything else adds up. */
    private static BinaryOperator<Long> combine(String name) {
        if (name.endsWith("Min")) {
            return Math::min;
        }
        if (name.endsWith("Max")) {
            return Math::max;
        }
        return Long::sum;
    }

    /** Merges engine summaries given as JSON text; {@code missing} names engines whose summary did not arrive. */
    public static MergedReport merge(List<String> summaryJson, Collection<String> missing) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String text : summaryJson) {
            try {
                nodes.add(JSON.readTree(text));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("not an MQTT run summary (JSON): " + e.getOriginalMessage(), e);
            }
        }
        return new MergedReport(nodes, missing);
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
     * makes for itself ({@link DeliveryCheck}).
     */
    private static DeliveryCheck.Result mergeLedgers(List<JsonNode> summaries) {
        Map<Integer, DeliveryCheck.Stream> streams = new HashMap<>();
        Map<String, DeliveryCheck.Scope> scopes = new TreeMap<>();
        for (JsonNode s : summaries) {
            DeliveryCheck.readLedger(s.path("ledger"), streams, scopes);
        }
        return DeliveryCheck.check(streams.values(), scopes.values());
    }

    public long lost() {
        return expected - receivedOfExpected;
    }

    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }

    /** The verdict over every engine (see {@link Judgement}); missing summaries or colliding stream ids make it incomplete. */
    public Verdict verdict() {
        return judgement.verdict;
    }

    public String verdictLine() {
        return judgement.line();
    }

    /** Per-sampler pub-to-sub rows are shown when there is more than one subscriber sampler to tell apart. */
    public Map<String, LatencyStats> samplerLatencyRows() {
        return pubToSubBySampler.size() > 1 ? pubToSubBySampler : Map.of();
    }

    public String toJson() {
        Json j = new Json();
        j.open();
        j.field("runId", runId).field("scenario", scenario);
        j.field("engines", engines.size()).field("measuredSeconds", measuredSeconds).field("warmupMillis", warmupMillis);
        j.field("publishRate", publishRate).field("receiveRate", receiveRate);
        j.key("counts").open();
        counts.forEach(j::field);
        j.close();
        j.key("latencyMicros").open();
        latency.forEach((kind, s) -> s.writeJson(j, kind));
        j.close();
        j.key("pubToSubBySampler").open();
        pubToSubBySampler.forEach((label, s) -> s.writeJson(j, label));
        j.close();
        j.key("engineSummaries").open();
        for (EngineRow e : engines) {
            j.key(e.engineId).open();
            j.field("engineNumber", e.engineNumber).field("publishRate", e.publishRate)
                    .field("receiveRate", e.receiveRate).field("verdict", e.verdict.name());
            j.close();
        }
        j.close();
        j.key("lossBySampler").open();
        lossBySampler.forEach((label, v) -> {
            j.key(label).open();
            j.field("expected", v[0]).field("received", v[1]).field("lost", v[0] - v[1]);
            j.close();
        });
        j.close();
        j.key("brokers").open();
        for (BrokerRow b : brokers) {
            j.key(b.broker).open();
            j.field("engineId", b.engineId).field("cpuAvg", b.cpuAvg).field("cpuMax", b.cpuMax)
                    .field("rssAvg", b.rssAvg).field("rssMax", b.rssMax);
            j.close();
        }
        j.close();
        j.key("rendezvous").open();
        for (BarrierRow b : rendezvous) {
            j.key(b.name + " #" + b.generation).open();
            j.field("groupSize", b.groupSize).field("threads", b.threads).field("engines", b.engines)
                    .field("enginesReleased", b.enginesReleased);
            if (b.releasedEverywhere()) {
                j.field("spreadMillis", b.spreadMillis());
            }
            j.close();
        }
        j.close();
        j.field("missingEngines", String.join(",", missingEngines));
        j.field("verdict", verdict().name()).field("verdictText", verdictLine());
        j.field("failureTolerancePercent", failureTolerancePercent);
        FailureTally.writeJson(j, "failures", failures);
        j.close();
        return j.toString();
    }
}
