package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.OffsetEstimator;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;

/**
 * The engines' clocks in the merged report: each engine's offset to the reference before and after production, its
 * bound and drift; which engines' messages crossed to which (from the merged ledgers), so which clock differences
 * are inside the pub-to-sub figures; warnings where they matter; and, on request, pub-to-sub figures corrected by the
 * measured offsets where that is exact.
 *
 * <p>What the summaries do not hold: pub-to-sub histograms per (publishing engine, receiving engine). So a warning
 * compares a pair's clock difference and bound with the merged pub-to-sub p50, not with that pair's own latencies,
 * and a correction is made only for a receiving engine whose measured messages all came from one publishing engine
 * (its whole histogram then carries one clock difference); an engine that received from several is left as it is,
 * and says so.
 */
public final class ClockReport {
    /** A bound, or a clock difference, above this share of the pub-to-sub p50 is worth a warning. */
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
    /** Only with {@link #CORRECT_PROPERTY}: per receiving engine, corrected or why not. */
    public List<Corrected> corrected = new ArrayList<>();
    /** Only with {@link #CORRECT_PROPERTY}, and only when every receiving engine could be corrected. */
    public LatencyStats correctedPubToSub;
    /** Why {@link #correctedPubToSub} is missing, with the option on. */
    public String correctedPubToSubMissing;

    @JsonIgnore
    private List<Corrected> corrections = List.of();
    @JsonIgnore
    private LatencyStats correctedTotal;
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

    /** One receiving engine's pub-to-sub, corrected by the clock difference of its one publishing engine, or why not. */
    public static final class Corrected {
        public String engineId;
        public String publisher;
        /** Subtracted from every measured latency. */
        public long clockDifferenceMicros;
        /** The correction's own bound; the histogram's resolution (3 significant digits) adds to it. */
        public long boundMicros;
        public LatencyStats measured;
        public LatencyStats corrected;
        /** Corrected latencies below 0 (recorded as 0): the offset estimate and the true one differ by more. */
        public long negativeAfterCorrection;
        public String notCorrected;
    }

    /** Over the engines' summaries; {@code pubToSub} is the merged pub-to-sub latency. */
    public static ClockReport of(List<EngineSummary> unordered, LatencyStats pubToSub) {
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
        r.warn(rows, pubToSub);
        r.prepareCorrections(summaries, rows, idByNumber);
        return r;
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

    private void warn(Map<String, Row> rows, LatencyStats pubToSub) {
        long p50 = pubToSub == null ? 0 : pubToSub.percentile(50.0);
        String p50Text = ms(p50) + " ms";
        List<String> nearZero = new ArrayList<>();
        List<String> uncertain = new ArrayList<>();
        long widest = 0;
        for (Crossing c : crossings) {
            String pair = String.format(Locale.ROOT, "%d message(s) from %s to %s", c.messages, c.publisher, c.subscriber);
            if (c.clockDifferenceMicros == null) {
                Row unknown = rows.get(c.subscriber).measured() ? rows.get(c.publisher) : rows.get(c.subscriber);
                warnings.add(pair + " crossed clocks whose difference was not measured (" + unknown.engineId + ": "
                        + unknown.notMeasured + "): their latencies carry it, unknown");
                continue;
            }
            long d = c.clockDifferenceMicros;
            long u = c.boundMicros;
            if (Math.abs(d) > u && Math.abs(d) > SHARE_OF_P50 * p50) {
                warnings.add(String.format(Locale.ROOT, "%s carry a clock difference of %s ms ± %s ms (%s's clock %s"
                        + " %s's): it is inside each of their pub-to-sub latencies, against a p50 of %s", pair, signedMs(d),
                        ms(u), c.subscriber, d > 0 ? "ahead of" : "behind", c.publisher, p50Text));
            }
            String known = String.format(Locale.ROOT, "%s to %s (± %s ms)", c.publisher, c.subscriber, ms(u));
            if (p50 <= BOUNDS_FROM_ZERO * u) {
                nearZero.add(known);
                widest = Math.max(widest, u);
            } else if (u > SHARE_OF_P50 * p50) {
                uncertain.add(known);
            }
        }
        // One warning each over all pairs: the p50 they are compared with is the run's, the same for every pair.
        if (!nearZero.isEmpty()) {
            warnings.add(String.format(Locale.ROOT, "the pub-to-sub p50 (%s) is within %d bounds (%d × %s ms) of zero for"
                    + " messages across engines (%s): the clocks cannot tell such latencies from 0", p50Text,
                    BOUNDS_FROM_ZERO, BOUNDS_FROM_ZERO, ms(widest), String.join(", ", nearZero)));
        }
        if (!uncertain.isEmpty()) {
            warnings.add(String.format(Locale.ROOT, "clock differences across engines known only to more than %.0f %% of"
                    + " the pub-to-sub p50 (%s): %s; latencies across those engines are no more exact than that",
                    SHARE_OF_P50 * 100, p50Text, String.join(", ", uncertain)));
        }
        for (Row row : rows.values()) {
            if (row.negativeLatencies > 0) {
                warnings.add(String.format(Locale.ROOT, "%s recorded %d negative pub-to-sub latencies (as 0, counted in"
                        + " latencyNegative): its clock is behind the clock of an engine it received from", row.engineId,
                        row.negativeLatencies));
            }
        }
    }

    /** Per receiving engine: the correction when its measured messages all came from one other engine. */
    private void prepareCorrections(List<EngineSummary> summaries, Map<String, Row> rows, Map<Integer, String> idByNumber) {
        List<Corrected> list = new ArrayList<>();
        Histogram total = new Histogram(3);
        String missing = null;
        for (EngineSummary s : summaries) {
            LatencyStats measured = s.latencyMicros.get(LatencyKind.PUB_TO_SUB.key());
            if (measured == null || measured.count == 0) {
                continue;
            }
            Map<Integer, Long> from = DeliveryCheck.receivedByPublishingEngine(s.ledger);
            from.values().removeIf(n -> n == 0);
            if (from.size() == 1 && from.containsKey(s.engineNumber)) {
                // One clock: nothing to correct.
                total.add(measured.histogram());
                continue;
            }
            Corrected c = new Corrected();
            c.engineId = s.engineId;
            c.measured = measured;
            list.add(c);
            if (from.size() != 1) {
                List<String> names = new ArrayList<>();
                from.keySet().forEach(n -> names.add(idByNumber.getOrDefault(n, "engine number " + n)));
                c.notCorrected = from.isEmpty() ? "no message of the run's streams in its ledger"
                        : "received from " + String.join(", ", names) + ": the summaries have no pub-to-sub histogram per"
                        + " publishing engine, so one correction cannot be applied to this mixture";
            } else {
                int number = from.keySet().iterator().next();
                c.publisher = idByNumber.get(number);
                Row sub = rows.get(s.engineId);
                Row pub = c.publisher == null ? null : rows.get(c.publisher);
                if (pub == null || !pub.measured() || !sub.measured()) {
                    c.notCorrected = "the clock difference to its publishing engine "
                            + (c.publisher == null ? "(engine number " + number + ", no summary)" : c.publisher)
                            + " was not measured";
                } else if (sub.negativeLatencies > 0) {
                    c.notCorrected = sub.negativeLatencies + " of its latencies were negative and recorded as 0: their"
                            + " measured values are lost, so no correction can restore them";
                } else {
                    c.clockDifferenceMicros = sub.offsetMicros - pub.offsetMicros;
                    c.boundMicros = sub.boundMicros + pub.boundMicros;
                    Histogram shifted = new Histogram(3);
                    c.negativeAfterCorrection = shift(measured.histogram(), c.clockDifferenceMicros, shifted);
                    c.corrected = new LatencyStats(shifted);
                }
            }
            if (c.corrected == null) {
                missing = missing != null ? missing : s.engineId + " could not be corrected (" + c.notCorrected + ")";
            } else {
                total.add(c.corrected.histogram());
            }
        }
        corrections = list;
        correctedTotal = missing == null && !list.isEmpty() ? new LatencyStats(total) : null;
        correctedTotalMissing = list.isEmpty() ? "no engine received messages from another engine" : missing;
    }

    /** Every recorded value less {@code difference} into {@code into}; returns how many fell below 0 (recorded as 0). */
    static long shift(Histogram measured, long difference, Histogram into) {
        long negative = 0;
        for (HistogramIterationValue v : measured.recordedValues()) {
            long value = measured.medianEquivalentValue(v.getValueIteratedTo()) - difference;
            if (value < 0) {
                negative += v.getCountAtValueIteratedTo();
                value = 0;
            }
            into.recordValueWithCount(value, v.getCountAtValueIteratedTo());
        }
        return negative;
    }

    /** Shows the corrected figures ({@link #CORRECT_PROPERTY}); without it they are neither printed nor written. */
    public void showCorrected(boolean show) {
        corrected = show ? new ArrayList<>(corrections) : new ArrayList<>();
        correctedPubToSub = show ? correctedTotal : null;
        correctedPubToSubMissing = show ? correctedTotalMissing : null;
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
