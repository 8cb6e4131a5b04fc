package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.OffsetEstimator;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.measure.Count;
import io.mqttload.measure.PubToSubPairs;
import io.mqttload.measure.SignedLatencyStats;

/**
 * The engines' clocks in the merged report: each engine's offset to the reference before and after production, its
 * bound and drift; which engines' messages crossed to which (from the merged ledgers); the pub-to-sub latency of each
 * (publishing engine, receiving engine) pair as the receiving engine recorded it, measured and corrected as each
 * message arrived by the clock difference measured before production; and warnings about each pair, judged against
 * that pair's own latencies and nothing else.
 */
public final class ClockReport {
    /** A bound, or a clock difference, above this share of a pair's p50 is worth a warning. */
    public static final double SHARE_OF_P50 = 0.10;
    /** "Within a few bounds of zero": a p50 no further from 0 than this many bounds cannot be told from 0. */
    public static final int BOUNDS_FROM_ZERO = 3;
    /** The JMeter property that shows figures corrected by the measured offsets beside the measured ones. */
    public static final String CORRECT_PROPERTY = "mqttload.correctClockOffsets";

    /** The engine the offsets are measured against; null when no engine measured one. */
    public String reference;
    public List<Row> engines = new ArrayList<>();
    /** Messages received on another engine than the one that published them, per pair. */
    public List<Crossing> crossings = new ArrayList<>();
    public List<String> warnings = new ArrayList<>();
    /** Pub-to-sub per (publishing engine, receiving engine); the corrected figures only with {@link #CORRECT_PROPERTY}. */
    public List<LatencyPair> pairs = new ArrayList<>();
    /** Every pair's measured latencies added up, never floored: the run's pub-to-sub as the clocks read it. */
    public SignedLatencyStats measuredPubToSub;
    /** Only with {@link #CORRECT_PROPERTY}: the corrected latencies of every pair that has them, added up. */
    public SignedLatencyStats correctedPubToSub;
    /** With {@link #CORRECT_PROPERTY}: the pairs and messages left out of {@link #correctedPubToSub}, and why; or null. */
    public String correctedPubToSubMissing;

    @JsonIgnore
    private List<LatencyPair> allPairs = List.of();
    @JsonIgnore
    private SignedLatencyStats correctedTotal;
    @JsonIgnore
    private String correctedTotalMissing;

    /** One engine's clock. Offsets: the engine's clock minus the reference's, in µs. */
    public static final class Row {
        public String engineId;
        public int engineNumber;
        public String referenceEngine;
        public boolean reference;
        public OffsetEstimator.Estimate before;
        public OffsetEstimator.Estimate after;
        /** Over the run: the middle of before and after, or the one measured; null when neither was. */
        public Long offsetMicros;
        /** Over the run: the larger bound plus half the change between before and after. */
        public Long boundMicros;
        public Double driftPpm;
        public Double driftBoundPpm;
        public String notMeasured;
        /** Pub-to-sub latencies this engine recorded as 0 because they were negative. */
        public long negativeLatencies;

        /** Whether {@link #offsetMicros} can be used against the report's reference. */
        public boolean measured() {
            return offsetMicros != null;
        }
    }

    /** Messages published on one engine and received on another, and the clock difference inside their latency. */
    public static final class Crossing {
        public String publisher;
        public String subscriber;
        public long messages;
        /** Subscriber's clock minus publisher's: added to each of these messages' measured latency; null: unknown. */
        public Long clockDifferenceMicros;
        public Long boundMicros;
    }

    /** Over the engines' summaries. */
    public static ClockReport of(List<EngineSummary> unordered) {
        ClockReport r = new ClockReport();
        // By engine number, as people number their engines; summaries arrive in the order the engines ended.
        List<EngineSummary> summaries = new ArrayList<>(unordered);
        summaries.sort(Comparator.comparingInt((EngineSummary s) -> s.engineNumber).thenComparing(s -> s.engineId));
        Map<Integer, String> idByNumber = new HashMap<>();
        for (EngineSummary s : summaries) {
            idByNumber.put(s.engineNumber, s.engineId);
        }
        r.reference = chooseReference(summaries);
        Map<String, Row> rows = new LinkedHashMap<>();
        for (EngineSummary s : summaries) {
            Row row = row(s, r.reference);
            rows.put(s.engineId, row);
            r.engines.add(row);
        }
        for (EngineSummary s : summaries) {
            DeliveryCheck.receivedByPublishingEngine(s.ledger).forEach((number, messages) -> {
                String publisher = idByNumber.get(number);
                if (publisher == null || publisher.equals(s.engineId) || messages == 0) {
                    return;
                }
                Crossing c = new Crossing();
                c.publisher = publisher;
                c.subscriber = s.engineId;
                c.messages = messages;
                Row p = rows.get(publisher);
                Row sub = rows.get(s.engineId);
                if (p.measured() && sub.measured()) {
                    c.clockDifferenceMicros = sub.offsetMicros - p.offsetMicros;
                    c.boundMicros = sub.boundMicros + p.boundMicros;
                }
                r.crossings.add(c);
            });
        }
        r.allPairs = pairs(summaries, rows, idByNumber);
        r.warn(rows);
        r.total();
        r.showCorrected(false);
        return r;
    }

    /**
     * The engines' clocks as the delivery check reads them: between two engines by number, the subscriber's offset
     * minus the publisher's, bounded by the sum of their bounds; one engine's clock against itself 0 ± 0; null where
     * either offset is not measured (or two engines share a number).
     */
    public DeliveryCheck.Clocks byEngineNumber() {
        Map<Integer, Row> byNumber = new HashMap<>();
        Set<Integer> shared = new HashSet<>();
        for (Row row : engines) {
            if (byNumber.put(row.engineNumber, row) != null) {
                shared.add(row.engineNumber);
            }
        }
        return (subscriber, publisher) -> {
            if (subscriber == publisher) {
                return new long[] {0, 0};
            }
            Row sub = byNumber.get(subscriber);
            Row pub = byNumber.get(publisher);
            if (sub == null || pub == null || !sub.measured() || !pub.measured() || shared.contains(subscriber)
                    || shared.contains(publisher)) {
                return null;
            }
            return new long[] {sub.offsetMicros - pub.offsetMicros, sub.boundMicros + pub.boundMicros};
        };
    }

    /** The reference the engines measured against: the one that is its own, else the one most engines name. */
    private static String chooseReference(List<EngineSummary> summaries) {
        Map<String, Integer> named = new TreeMap<>();
        for (EngineSummary s : summaries) {
            if (s.clock != null && s.clock.reference) {
                return s.engineId;
            }
            if (s.clock != null && s.clock.referenceEngine != null) {
                named.merge(s.clock.referenceEngine, 1, Integer::sum);
            }
        }
        return named.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    private static Row row(EngineSummary s, String reference) {
        Row row = new Row();
        row.engineId = s.engineId;
        row.engineNumber = s.engineNumber;
        row.negativeLatencies = s.count(Count.LATENCY_NEGATIVE);
        ClockFigures f = s.clock;
        if (f == null) {
            row.notMeasured = "the engine's summary has no clock figures";
            return row;
        }
        row.referenceEngine = f.referenceEngine;
        row.reference = f.reference;
        row.before = f.before;
        row.after = f.after;
        row.notMeasured = f.notMeasured;
        if (f.reference && reference != null && !reference.equals(s.engineId)) {
            // It found no other engine in time and took itself: its clock was not compared with the run's reference.
            row.reference = false;
            row.notMeasured = "not compared with " + reference + (f.notMeasured == null ? "" : ": " + f.notMeasured);
            return row;
        }
        if (f.reference) {
            row.offsetMicros = 0L;
            row.boundMicros = 0L;
            return row;
        }
        if (reference != null && f.referenceEngine != null && !reference.equals(f.referenceEngine)) {
            row.notMeasured = "measured against " + f.referenceEngine + ", not " + reference
                    + (f.notMeasured == null ? "" : "; " + f.notMeasured);
            return row;
        }
        if (f.before != null && f.after != null) {
            long change = Math.abs(f.after.offsetMicros - f.before.offsetMicros);
            row.offsetMicros = f.before.offsetMicros + (f.after.offsetMicros - f.before.offsetMicros) / 2;
            // A clock that moved between the two estimates was somewhere in between at every moment of the run.
            row.boundMicros = Math.max(f.before.boundMicros, f.after.boundMicros) + (change + 1) / 2;
            row.driftPpm = OffsetEstimator.driftPpm(f.before, f.after);
            row.driftBoundPpm = OffsetEstimator.driftBoundPpm(f.before, f.after);
        } else {
            OffsetEstimator.Estimate one = f.before != null ? f.before : f.after;
            if (one != null) {
                row.offsetMicros = one.offsetMicros;
                row.boundMicros = one.boundMicros;
            }
        }
        return row;
    }

    /** Each receiving engine's pairs, publisher named by the summaries' engine numbers. */
    private static List<LatencyPair> pairs(List<EngineSummary> summaries, Map<String, Row> rows,
            Map<Integer, String> idByNumber) {
        List<LatencyPair> list = new ArrayList<>();
        for (EngineSummary s : summaries) {
            for (PubToSubPairs.Figures f : s.pubToSubPairs) {
                LatencyPair p = new LatencyPair();
                p.publisher = idByNumber.getOrDefault(f.publisherEngine, "engine number " + f.publisherEngine);
                p.subscriber = s.engineId;
                p.measured = f.measured;
                p.clockDifferenceMicros = f.correctionMicros;
                p.boundMicros = f.correctionBoundMicros;
                p.corrected = f.corrected;
                p.notCorrected = f.notCorrected;
                if (p.corrected != null && p.corrected.count > 0) {
                    p.resolutionMicros = p.corrected.resolutionAt(p.corrected.percentile(50.0));
                }
                if (p.corrected == null) {
                    p.notCorrectedWhy = whyNotCorrected(rows.get(p.publisher), rows.get(s.engineId), p);
                }
                list.add(p);
            }
        }
        list.sort(Comparator.comparing((LatencyPair p) -> p.publisher).thenComparing(p -> p.subscriber));
        return list;
    }

    private static String whyNotCorrected(Row pub, Row sub, LatencyPair p) {
        if (pub == null) {
            return p.publisher + " sent no summary, so its clock is unknown";
        }
        Row unknown = !pub.measured() ? pub : !sub.measured() ? sub : null;
        if (unknown != null) {
            return unknown.engineId + "'s clock offset was not measured: " + unknown.notMeasured;
        }
        return "the offsets before production did not reach " + p.subscriber + " (each engine publishes its own)";
    }

    private void warn(Map<String, Row> rows) {
        boolean anyPairs = !allPairs.isEmpty();
        if (!anyPairs) {
            for (Crossing c : crossings) {
                if (c.clockDifferenceMicros == null) {
                    Row unknown = rows.get(c.subscriber).measured() ? rows.get(c.publisher) : rows.get(c.subscriber);
                    warnings.add(String.format(Locale.ROOT, "%d message(s) from %s to %s crossed clocks whose difference"
                            + " was not measured (%s: %s): their latencies carry it, unknown", c.messages, c.publisher,
                            c.subscriber, unknown.engineId, unknown.notMeasured));
                }
            }
            if (!crossings.isEmpty()) {
                warnings.add("the engines' summaries carry no pub-to-sub latency per publishing engine (written by an"
                        + " earlier plugin version): the latencies across engines cannot be compared with their clock"
                        + " differences or corrected");
            }
        }
        for (LatencyPair p : allPairs) {
            if (!p.oneClock()) {
                warn(p);
            }
        }
    }

    /** The warnings of one pair of engines, each against that pair's own latencies. */
    private void warn(LatencyPair p) {
        String messages = String.format(Locale.ROOT, "%d message(s) from %s to %s", p.measured.count, p.publisher,
                p.subscriber);
        if (p.clockDifferenceMicros == null) {
            warnings.add(String.format(Locale.ROOT, "%s crossed clocks whose difference was not measured (%s): their"
                    + " measured p50 %s ms carries it, unknown; the pair is left out of the corrected figures",
                    messages, p.notCorrectedWhy, signedMs(p.measured.percentile(50.0))));
            return;
        }
        long d = p.clockDifferenceMicros;
        long u = p.boundMicros;
        if (p.corrected == null || p.corrected.count == 0) {
            warnings.add(String.format(Locale.ROOT, "%s carry a clock difference of %s ms ± %s ms, known there only"
                    + " after all of them arrived: measured p50 %s ms, none corrected", messages, signedMs(d), ms(u),
                    signedMs(p.measured.percentile(50.0))));
            return;
        }
        long p50 = p.corrected.percentile(50.0);
        if (Math.abs(d) > u && Math.abs(d) > SHARE_OF_P50 * Math.abs(p50)) {
            warnings.add(String.format(Locale.ROOT, "%s carry a clock difference of %s ms ± %s ms (%s's clock %s %s's):"
                    + " it is inside each of their measured latencies; measured p50 %s ms, corrected p50 %s ms",
                    messages, signedMs(d), ms(u), p.subscriber, d > 0 ? "ahead of" : "behind", p.publisher,
                    signedMs(p.measured.percentile(50.0)), signedMs(p50)));
        }
        if (Math.abs(p50) <= BOUNDS_FROM_ZERO * u) {
            warnings.add(String.format(Locale.ROOT, "from %s to %s (clock difference %s ms ± %s ms) the corrected"
                    + " pub-to-sub p50 (%s ms) is within %d bounds (%d × %s ms) of zero: the clocks cannot tell these"
                    + " latencies from 0", p.publisher, p.subscriber, signedMs(d), ms(u), signedMs(p50), BOUNDS_FROM_ZERO,
                    BOUNDS_FROM_ZERO, ms(u)));
        } else if (u > SHARE_OF_P50 * Math.abs(p50)) {
            warnings.add(String.format(Locale.ROOT, "the clock difference from %s to %s, %s ms, is known only to ± %s"
                    + " ms, more than %.0f %% of the pair's corrected p50 (%s ms): its latencies are no more exact than"
                    + " that", p.publisher, p.subscriber, signedMs(d), ms(u), SHARE_OF_P50 * 100, signedMs(p50)));
        }
        if (p.corrected.negative > 0) {
            warnings.add(String.format(Locale.ROOT, "%d corrected latencies from %s to %s are below 0 (down to %s ms,"
                    + " corrected p50 %s ms): the clock difference %s ms ± %s ms is off by more than those latencies",
                    p.corrected.negative, p.publisher, p.subscriber, signedMs(p.corrected.min), signedMs(p50),
                    signedMs(d), ms(u)));
        }
        if (p.notCorrected > 0) {
            warnings.add(String.format(Locale.ROOT, "%d message(s) from %s to %s arrived before the clock difference"
                    + " (%s ms ± %s ms) was known there: in the measured figures only (measured p50 %s ms)",
                    p.notCorrected, p.publisher, p.subscriber, signedMs(d), ms(u),
                    signedMs(p.measured.percentile(50.0))));
        }
    }

    /** The pairs' measured latencies added up, and the corrected ones of every pair that has them, naming the rest. */
    private void total() {
        if (allPairs.isEmpty()) {
            return;
        }
        SignedLatencyStats measured = SignedLatencyStats.empty();
        SignedLatencyStats corrected = SignedLatencyStats.empty();
        List<String> leftOut = new ArrayList<>();
        long early = 0;
        for (LatencyPair p : allPairs) {
            measured = measured.plus(p.measured);
            if (p.corrected == null) {
                leftOut.add(p.name() + " (" + p.measured.count + " message(s): " + p.notCorrectedWhy + ")");
            } else {
                corrected = corrected.plus(p.corrected);
                early += p.notCorrected;
            }
        }
        measuredPubToSub = measured;
        if (early > 0) {
            leftOut.add(early + " message(s) received before their pair's clock difference was known");
        }
        correctedTotal = corrected.count > 0 ? corrected : null;
        correctedTotalMissing = leftOut.isEmpty() ? null : "left out: " + String.join("; ", leftOut);
    }

    /** Whether some engine received messages another engine published: their latencies hold two clocks. */
    public boolean crossesEngines() {
        return allPairs.stream().anyMatch(p -> !p.oneClock());
    }

    /** Shows the corrected figures ({@link #CORRECT_PROPERTY}); without it they are neither printed nor written. */
    public void showCorrected(boolean show) {
        pairs = new ArrayList<>();
        for (LatencyPair p : allPairs) {
            pairs.add(show ? p : measuredOnly(p));
        }
        correctedPubToSub = show ? correctedTotal : null;
        correctedPubToSubMissing = show ? correctedTotalMissing : null;
    }

    /** A copy of a pair without its corrected figures (they are shown only on request). */
    private static LatencyPair measuredOnly(LatencyPair pair) {
        LatencyPair p = new LatencyPair();
        p.publisher = pair.publisher;
        p.subscriber = pair.subscriber;
        p.measured = pair.measured;
        p.clockDifferenceMicros = pair.clockDifferenceMicros;
        p.boundMicros = pair.boundMicros;
        p.notCorrected = pair.notCorrected;
        p.notCorrectedWhy = pair.notCorrectedWhy;
        return p;
    }

    /** Whether the report has anything to say about clocks: more than one engine, or a warning. */
    public boolean shown() {
        return engines.size() > 1 || !warnings.isEmpty();
    }

    /** Milliseconds with three decimals: microseconds stay visible. */
    public static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }

    /** As {@link #ms}, with a sign always. */
    public static String signedMs(long micros) {
        return String.format(Locale.ROOT, "%+.3f", micros / 1000.0);
    }
}
