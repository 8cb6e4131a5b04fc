package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.OffsetEstimator;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.PubToSubPairs;
import io.mqttload.measure.SignedLatencyStats;
import io.mqttload.report.HtmlReport;
import io.mqttload.report.ReportText;
import io.mqttload.report.influx.ReportPoints;

/**
 * The clocks of a merged report from made-up engine summaries: engine-1 the reference, engine-2's clock 2.5 s ahead,
 * each engine's subscribers receiving the other engine's messages (as the ledgers say), with the latencies that
 * clocks like these produce.
 */
class ClockReportTest {
    private static final long T0 = 1_795_000_000_000_000L;
    private static final long SHIFT = 2_500_000;
    /** True pub-to-sub latency of every message: 1 ms. */
    private static final long TRUE_LATENCY = 1_000;

    static OffsetEstimator.Estimate estimate(long offset, long bound, long atMicros) {
        OffsetEstimator.Estimate e = new OffsetEstimator.Estimate();
        e.offsetMicros = offset;
        e.boundMicros = bound;
        e.roundTripMicros = 2 * bound;
        e.samples = 16;
        e.atMicros = atMicros;
        return e;
    }

    static ClockFigures reference() {
        ClockFigures f = new ClockFigures();
        f.reference = true;
        f.referenceEngine = "engine-1";
        f.referenceNumber = 1;
        return f;
    }

    static ClockFigures measured(OffsetEstimator.Estimate before, OffsetEstimator.Estimate after) {
        ClockFigures f = new ClockFigures();
        f.referenceEngine = "engine-1";
        f.referenceNumber = 1;
        f.before = before;
        f.after = after;
        return f;
    }

    /** An engine whose one subscriber received {@code messages} of a stream of each engine in {@code fromEngines}. */
    private static EngineSummary engine(String id, int number, ClockFigures clock, Histogram pubToSub, long negative,
            long messages, int... fromEngines) {
        EngineSummary s = new EngineSummary();
        s.engineId = id;
        s.engineNumber = number;
        s.runId = "run-clock";
        s.scenario = "clocks";
        s.clock = clock;
        s.latencyMicros.put("pubToSub", new LatencyStats(pubToSub));
        s.counts.put(Count.LATENCY_NEGATIVE.key(), negative);
        List<DeliveryCheck.Stream> streams = new ArrayList<>();
        streams.add(new DeliveryCheck.Stream((number << DeliveryLedger.LOCAL_STREAM_BITS) | 1, "t/" + id, messages, messages,
                new long[0]));
        DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:" + id + "-sub", "subscribe");
        for (int from : fromEngines) {
            scope.see((from << DeliveryLedger.LOCAL_STREAM_BITS) | 1, new DeliveryCheck.Seen(messages, messages, new long[0]));
        }
        s.ledger = new DeliveryCheck.Ledger(streams, List.of(scope));
        return s;
    }

    /**
     * A pair's figures as the receiving engine records them: {@code count} messages of true latency {@code trueMicros}
     * measured across a clock difference {@code difference}, corrected by {@code estimate} ± {@code bound} (null: never
     * known).
     */
    private static PubToSubPairs.Figures pair(int publisher, long trueMicros, int count, long difference, Long estimate,
            long bound) {
        PubToSubPairs.Figures f = new PubToSubPairs.Figures();
        f.publisherEngine = publisher;
        f.measured = signed(trueMicros + difference, count);
        if (estimate != null) {
            f.correctionMicros = estimate;
            f.correctionBoundMicros = bound;
            f.corrected = signed(trueMicros + difference - estimate, count);
        } else {
            f.notCorrected = count;
        }
        return f;
    }

    static SignedLatencyStats signed(long value, int count) {
        Histogram up = new Histogram(3);
        Histogram down = new Histogram(3);
        if (value >= 0) {
            up.recordValueWithCount(value, count);
        } else {
            down.recordValueWithCount(-value, count);
        }
        return new SignedLatencyStats(up, down);
    }

    private static Histogram latencies(long value, int count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(value, count);
        return h;
    }

    /**
     * engine-1 receives engine-2's messages (2.5 s negative), engine-2 engine-1's (2.5 s too long), each corrected by
     * the offset before production (2.5 s ± 100 µs) as it arrived; the true offset is 25 µs more.
     */
    private static List<EngineSummary> shiftedPair() {
        ClockFigures two = measured(estimate(SHIFT, 100, T0), estimate(SHIFT + 50, 150, T0 + 60_000_000));
        EngineSummary one = engine("engine-1", 1, reference(), latencies(0, 500), 500, 500, 2);
        one.pubToSubPairs.add(pair(2, TRUE_LATENCY, 500, -(SHIFT + 25), -SHIFT, 100L));
        EngineSummary other = engine("engine-2", 2, two, latencies(SHIFT + TRUE_LATENCY, 500), 0, 500, 1);
        other.pubToSubPairs.add(pair(1, TRUE_LATENCY, 500, SHIFT + 25, SHIFT, 100L));
        return List.of(one, other);
    }

    @Test
    void offsets_boundsAndDrift_perEngine_againstTheReference() {
        ClockReport c = MergedReport.of(shiftedPair(), List.of()).clocks;

        assertThat(c.reference).isEqualTo("engine-1");
        assertThat(c.engines).extracting(r -> r.engineId).containsExactly("engine-1", "engine-2");
        ClockReport.Row ref = c.engines.get(0);
        assertThat(ref.reference).isTrue();
        assertThat(ref.offsetMicros).isZero();
        ClockReport.Row two = c.engines.get(1);
        // Over the run: the middle of before and after; the larger bound plus half the change.
        assertThat(two.offsetMicros).isEqualTo(SHIFT + 25);
        assertThat(two.boundMicros).isEqualTo(150 + 25);
        // 50 µs in 60 s.
        assertThat(two.driftPpm).isCloseTo(50 / 60.0, within(1e-9));
        assertThat(two.driftBoundPpm).isCloseTo(250 / 60.0, within(1e-9));
    }

    @Test
    void crossings_carryTheSubscribersClockMinusThePublishers_andEachPairIsWarnedAboutWithItsOwnFigures() {
        ClockReport c = MergedReport.of(shiftedPair(), List.of()).clocks;

        assertThat(c.crossings).hasSize(2);
        ClockReport.Crossing toOne = c.crossings.get(0);
        assertThat(toOne.publisher).isEqualTo("engine-2");
        assertThat(toOne.subscriber).isEqualTo("engine-1");
        assertThat(toOne.messages).isEqualTo(500);
        assertThat(toOne.clockDifferenceMicros).isEqualTo(-(SHIFT + 25));
        assertThat(toOne.boundMicros).isEqualTo(175);
        // Each pair's warning names the pair, its clock difference as applied and its own p50s.
        assertThat(c.warnings).contains("500 message(s) from engine-1 to engine-2 carry a clock difference of"
                + " +2500.000 ms ± 0.100 ms (engine-2's clock ahead of engine-1's): it is inside each of their measured"
                + " latencies; measured p50 +2502.655 ms, corrected p50 +1.025 ms",
                "500 message(s) from engine-2 to engine-1 carry a clock difference of -2500.000 ms ± 0.100 ms"
                + " (engine-1's clock behind engine-2's): it is inside each of their measured latencies; measured p50"
                + " -2498.560 ms, corrected p50 +0.975 ms",
                // 2.5 s recorded with 3 significant digits: the measured p50 is the end of a 2,048 µs bucket, the
                // corrected one exact; ± 0.100 ms is more than 10 % of 0.975 ms.
                "the clock difference from engine-2 to engine-1, -2500.000 ms, is known only to ± 0.100 ms, more than"
                + " 10 % of the pair's corrected p50 (+0.975 ms): its latencies are no more exact than that");
        // Negative measured latencies are kept, not warned about as lost; nothing is within 3 bounds of 0.
        assertThat(c.warnings).hasSize(3);
        // The corrected figures only when asked for; the measured ones always.
        assertThat(c.pairs).allSatisfy(p -> assertThat(p.corrected).isNull());
        assertThat(c.correctedPubToSub).isNull();
        assertThat(c.measuredPubToSub.count).isEqualTo(1000);
        assertThat(c.measuredPubToSub.negative).isEqualTo(500);
    }

    @Test
    void correction_perPair_asRecorded_withThePrecisionItHas() {
        MergedReport r = MergedReport.of(shiftedPair(), List.of());
        r.clocks.showCorrected(true);

        assertThat(r.clocks.pairs).extracting(LatencyPair::name).containsExactly("engine-1 to engine-2",
                "engine-2 to engine-1");
        LatencyPair toTwo = r.clocks.pairs.get(0);
        assertThat(toTwo.clockDifferenceMicros).isEqualTo(SHIFT);
        // 1,025 µs and 975 µs: below 2,048, so HdrHistogram holds them exactly, and says so (1 µs buckets).
        assertThat(toTwo.corrected.percentile(50.0)).isEqualTo(TRUE_LATENCY + 25);
        assertThat(toTwo.resolutionMicros).isEqualTo(1);
        assertThat(r.clocks.pairs.get(1).corrected.percentile(50.0)).isEqualTo(TRUE_LATENCY - 25);
        assertThat(r.clocks.correctedPubToSub.count).isEqualTo(1000);
        assertThat(r.clocks.correctedPubToSub.percentile(50.0)).isEqualTo(TRUE_LATENCY - 25);
        assertThat(r.clocks.correctedPubToSub.percentile(99.0)).isEqualTo(TRUE_LATENCY + 25);
        assertThat(r.clocks.correctedPubToSubMissing).isNull();
        // Printed beside, labelled, never instead of the measured row.
        String table = ReportText.table(r);
        assertThat(table).contains("pub-to-sub engine-1 to engine-2: 500 message(s), measured p50 +2502.655, p99"
                + " +2502.655 ms; clock difference +2500.000 ± 0.100 ms; CORRECTED p50 +1.025, p99 +1.025 ms (± 0.100 ms:"
                + " the clock difference's bound; recorded to 0.001 ms at the p50)");
        assertThat(table).containsPattern("pub-to-sub from send +\\d+ ");
        // The headline is the pairs' measured latencies, never floored: the 500 below 0 are there as measured.
        assertThat(table).contains("pub-to-sub: 500 latencies below 0 (engine clocks behind their publishers'): the"
                + " Summary and the pub-to-sub from send row show them as measured across the engines' clocks, never"
                + " floored; the other pub-to-sub rows hold them as 0; the Clocks section has them per pair of engines,"
                + " measured and corrected");
        assertThat(r.latencyOf(Latency.PUB_TO_SUB).negativeCount()).isEqualTo(500);
        assertThat(ReportText.markdown(r)).contains("pub-to-sub CORRECTED by the measured clock offsets");
        assertThat(HtmlReport.render(r)).contains("CORRECTED by the measured clock offsets");

        // Every output carries the pairs: the report's JSON, and InfluxDB's report points.
        ReportFigures read = SummaryJson.readReport(r.toJson());
        assertThat(read.clocks.pairs.get(0).corrected.percentile(50.0)).isEqualTo(TRUE_LATENCY + 25);
        assertThat(read.clocks.pairs.get(1).measured.percentile(50.0)).isEqualTo(-2_498_560);
        assertThat(read.clocks.correctedPubToSub.count).isEqualTo(1000);
        assertThat(ReportPoints.of(r, 1_000)).filteredOn(l -> l.startsWith("mqtt_report_pair_latency,"))
                .hasSize(4).anySatisfy(l -> assertThat(l).contains("publisher=engine-2,subscriber=engine-1,"
                        + "figure=measured").contains("p50=-2498560i").contains("clockDifference=-2500000i"))
                .anySatisfy(l -> assertThat(l).contains("publisher=engine-1,subscriber=engine-2,figure=corrected")
                        .contains("p50=1025i"));

        r.clocks.showCorrected(false);
        assertThat(ReportText.table(r)).doesNotContain("CORRECTED");
        assertThat(ReportPoints.of(r, 1_000)).filteredOn(l -> l.startsWith("mqtt_report_pair_latency,")).hasSize(2);
    }

    @Test
    void correctedLatenciesBelow0_andMessagesBeforeTheDifferenceWasKnown_areWarnedAboutWithThePairsDifferenceAndP50() {
        // The difference applied is 2 ms larger than the true one, and 1 ms latencies: every corrected one is below 0.
        EngineSummary other = engine("engine-2", 2, measured(estimate(SHIFT + 2_000, 100, T0), null),
                latencies(SHIFT + 25 + TRUE_LATENCY, 100), 0, 100, 1);
        PubToSubPairs.Figures wrong = pair(1, TRUE_LATENCY, 100, SHIFT + 25, SHIFT + 2_000, 100L);
        wrong.notCorrected = 5;
        other.pubToSubPairs.add(wrong);
        ClockReport c = MergedReport.of(List.of(engine("engine-1", 1, reference(), latencies(0, 0), 0, 0), other),
                List.of()).clocks;

        assertThat(c.warnings).contains("100 corrected latencies from engine-1 to engine-2 are below 0 (down to -0.975"
                + " ms, corrected p50 -0.975 ms): the clock difference +2502.000 ms ± 0.100 ms is off by more than those"
                + " latencies", "5 message(s) from engine-1 to engine-2 arrived before the clock difference (+2502.000 ms"
                + " ± 0.100 ms) was known there: in the measured figures only (measured p50 "
                + ClockReport.signedMs(wrong.measured.percentile(50.0)) + " ms)");
    }

    @Test
    void aPairWhoseOffsetWasNotMeasured_isNamed_andLeftOutOfTheCorrectedFigures() {
        ClockFigures two = ClockFigures.notMeasured("before: engine-1 answered none of 3 requests");
        two.referenceEngine = "engine-1";
        EngineSummary one = engine("engine-1", 1, reference(), latencies(TRUE_LATENCY, 100), 0, 100, 1, 2);
        one.pubToSubPairs.add(pair(1, TRUE_LATENCY, 100, 0, 0L, 0));
        one.pubToSubPairs.add(pair(2, TRUE_LATENCY, 100, -SHIFT, null, 0));
        MergedReport r = MergedReport.of(List.of(one, engine("engine-2", 2, two, latencies(TRUE_LATENCY, 0), 0, 0)),
                List.of());
        r.clocks.showCorrected(true);

        assertThat(r.clocks.warnings).containsExactly("100 message(s) from engine-2 to engine-1 crossed clocks whose"
                + " difference was not measured (engine-2's clock offset was not measured: before: engine-1 answered"
                + " none of 3 requests): their measured p50 -2498.560 ms carries it, unknown; the pair is left out of"
                + " the corrected figures");
        assertThat(r.clocks.correctedPubToSub.count).isEqualTo(100);
        assertThat(r.clocks.correctedPubToSubMissing).isEqualTo("left out: engine-2 to engine-1 (100 message(s):"
                + " engine-2's clock offset was not measured: before: engine-1 answered none of 3 requests)");
        assertThat(ReportText.table(r)).contains("pub-to-sub engine-1 to engine-1: 100 message(s), one clock: p50 1.000");
    }

    @Test
    void warnings_whenTheBoundIsLargeAgainstThePairsP50_orItsP50IsWithinAFewBoundsOfZero() {
        // Clocks agree (offset 0), but known only to ± 1.5 ms; the latencies are 10 ms, then 2 ms.
        ClockFigures two = measured(estimate(0, 1_500, T0), null);
        EngineSummary slow = engine("engine-2", 2, two, latencies(10_000, 100), 0, 100, 1);
        slow.pubToSubPairs.add(pair(1, 10_000, 100, 0, 0L, 1_500));
        assertThat(MergedReport.of(List.of(engine("engine-1", 1, reference(), latencies(0, 0), 0, 0), slow), List.of())
                .clocks.warnings).containsExactly("the clock difference from engine-1 to engine-2, +0.000 ms, is"
                        + " known only to ± 1.500 ms, more than 10 % of the pair's corrected p50 (+10.007 ms): its"
                        + " latencies are no more exact than that");

        EngineSummary fast = engine("engine-2", 2, two, latencies(2_000, 100), 0, 100, 1);
        fast.pubToSubPairs.add(pair(1, 2_000, 100, 0, 0L, 1_500));
        assertThat(MergedReport.of(List.of(engine("engine-1", 1, reference(), latencies(0, 0), 0, 0), fast), List.of())
                .clocks.warnings).containsExactly("from engine-1 to engine-2 (clock difference +0.000 ms ± 1.500 ms) the"
                        + " corrected pub-to-sub p50 (+2.000 ms) is within 3 bounds (3 × 1.500 ms) of zero: the clocks"
                        + " cannot tell these latencies from 0");
    }

    /**
     * The run of issue 38: engine-2 7.2 s ahead, engine-1 receiving more of the crossing messages than engine-2 (1,276
     * against 1,240). Each direction's warnings read its own figures: none says its latencies are near zero, whichever
     * way the split falls.
     */
    @Test
    void warnings_doNotDependOnHowTheOtherDirectionWasRecorded() {
        long shift = 7_200_000;
        for (int[] split : new int[][] {{1_276, 1_240}, {1_240, 1_276}}) {
            ClockFigures two = measured(estimate(shift, 125, T0), estimate(shift + 100, 125, T0 + 60_000_000));
            EngineSummary one = engine("engine-1", 1, reference(), latencies(0, split[0]), split[0], split[0], 2);
            one.pubToSubPairs.add(pair(2, 2_865, split[0], -shift, -shift, 250L));
            EngineSummary other = engine("engine-2", 2, two, latencies(shift + 2_865, split[1]), 0, split[1], 1);
            other.pubToSubPairs.add(pair(1, 2_865, split[1], shift, shift, 250L));
            ClockReport c = MergedReport.of(List.of(one, other), List.of()).clocks;

            assertThat(c.warnings).hasSize(2).noneSatisfy(w -> assertThat(w).contains("of zero"))
                    .allSatisfy(w -> assertThat(w).contains("corrected p50 +2.865 ms"));
            assertThat(c.warnings.get(0)).startsWith(split[1] + " message(s) from engine-1 to engine-2 carry a clock"
                    + " difference of +7200.000 ms ± 0.250 ms");
            assertThat(c.warnings.get(1)).startsWith(split[0] + " message(s) from engine-2 to engine-1 carry a clock"
                    + " difference of -7200.000 ms ± 0.250 ms");
        }
    }

    /**
     * Issue 38's run again (engine-2 7.2 s ahead, engine-1 receiving 1,276 of the 2,516 crossing messages): the
     * headline pub-to-sub of every output is the pairs' measured latencies, a p50 7.2 s below 0 as measured, where the
     * engines' histograms (each latency below 0 recorded as 0) made it 0.000 ms.
     */
    @Test
    void headline_acrossClocks7200msApart_isTheSignedMeasuredP50_inEveryOutput() {
        long shift = 7_200_000;
        ClockFigures two = measured(estimate(shift, 125, T0), estimate(shift + 100, 125, T0 + 60_000_000));
        EngineSummary one = engine("engine-1", 1, reference(), latencies(0, 1_276), 1_276, 1_276, 2);
        one.pubToSubPairs.add(pair(2, 2_865, 1_276, -shift, -shift, 250L));
        EngineSummary other = engine("engine-2", 2, two, latencies(shift + 2_865, 1_240), 0, 1_240, 1);
        other.pubToSubPairs.add(pair(1, 2_865, 1_240, shift, shift, 250L));
        MergedReport r = MergedReport.of(List.of(one, other), List.of());

        LatencyStats headline = r.latencyOf(Latency.PUB_TO_SUB);
        long p50 = headline.percentile(50.0);
        // The 1,258th of 2,516 values is one of engine-1's: -7,197,135 µs, to its 4.096 ms bucket's end nearest 0.
        assertThat(p50).isEqualTo(r.clocks.measuredPubToSub.percentile(50.0)).isEqualTo(-7_196_672);
        assertThat(headline.count).isEqualTo(2_516);
        assertThat(headline.negativeCount()).isEqualTo(1_276);
        assertThat(headline.percentile(99.0)).isEqualTo(r.clocks.measuredPubToSub.percentile(99.0)).isPositive();
        String p50Ms = "-7196.672";

        String text = ReportText.table(r);
        assertThat(text).containsPattern("pub-to-sub from send +2516 +[-\\d.]+ +" + p50Ms + " ");
        assertThat(text).containsPattern("\\nALL .* " + ClockReport.ms(headline.percentile(99.0)) + "\\n");
        assertThat(ReportText.markdown(r)).contains("| " + p50Ms + " |").contains("| pub-to-sub from send | 2516 |");
        // The Summary table's row: the rates, the mean, then the p50.
        assertThat(HtmlReport.render(r)).containsPattern("<tr><td class=\"n\">[^<]*</td><td class=\"n\">[-\\d.]+</td>"
                + "<td class=\"n\">" + p50Ms + "</td>");

        ReportFigures read = SummaryJson.readReport(r.toJson());
        assertThat(read.formatVersion).isEqualTo(SummaryJson.FORMAT_VERSION);
        LatencyStats json = read.latencyMicros.get(Latency.PUB_TO_SUB.key());
        assertThat(json.percentile(50.0)).isEqualTo(p50);
        assertThat(json.percentiles).containsExactly(headline.percentiles);
        assertThat(json.negativeCount()).isEqualTo(1_276);

        assertThat(ReportPoints.of(r, 1_000)).filteredOn(l -> l.startsWith("mqtt_report_latency,")
                && l.contains(",kind=pubToSub ")).singleElement().asString().contains("p50=-7196672i");
        // Each engine's row in the engine table: its own pairs, as measured.
        assertThat(r.engines).extracting(e -> e.pubToSubP99).containsExactly(-7_196_672L,
                other.pubToSubPairs.get(0).measured.percentile(99.0));

        // Within one engine there is nothing to add: its histogram is the headline, as before.
        EngineSummary alone = engine("engine-1", 1, reference(), latencies(2_865, 100), 0, 100, 1);
        alone.pubToSubPairs.add(pair(1, 2_865, 100, 0, 0L, 0L));
        LatencyStats oneClock = MergedReport.of(List.of(alone), List.of()).latencyOf(Latency.PUB_TO_SUB);
        assertThat(oneClock.mayBeNegative()).isFalse();
        assertThat(oneClock.histogram()).isEqualTo(alone.latencyMicros.get("pubToSub").histogram());
    }

    @Test
    void summariesWithoutPairs_fromAnEarlierVersion_sayWhatTheyCannotTell() {
        List<EngineSummary> old = new ArrayList<>(shiftedPair());
        old.forEach(s -> s.pubToSubPairs.clear());
        assertThat(MergedReport.of(old, List.of()).clocks.warnings).singleElement().asString()
                .startsWith("the engines' summaries carry no pub-to-sub latency per publishing engine");
        // Only before was measured: its offset and bound stand for the run, and there is no drift.
        ClockFigures two = measured(estimate(SHIFT, 100, T0), null);
        ClockReport c = MergedReport.of(List.of(engine("engine-1", 1, reference(), latencies(0, 0), 0, 0),
                engine("engine-2", 2, two, latencies(0, 0), 0, 0)), List.of()).clocks;
        assertThat(c.engines.get(1).offsetMicros).isEqualTo(SHIFT);
        assertThat(c.engines.get(1).driftPpm).isNull();
    }

    @Test
    void notMeasured_isSaid_andAnEngineMeasuredAgainstAnotherReferenceIsNotMixedIn() {
        ClockFigures other = measured(estimate(SHIFT, 100, T0), null);
        other.referenceEngine = "engine-3";
        List<EngineSummary> engines = List.of(
                engine("engine-1", 1, reference(), latencies(TRUE_LATENCY, 100), 0, 100, 2),
                engine("engine-2", 2, other, latencies(TRUE_LATENCY, 100), 0, 100, 1),
                engine("engine-4", 4, ClockFigures.notMeasured("not measured: no MQTT Rendezvous Timer"),
                        latencies(TRUE_LATENCY, 100), 0, 100, 4));
        ClockReport c = MergedReport.of(engines, List.of()).clocks;

        assertThat(c.engines.get(1).notMeasured).startsWith("measured against engine-3, not engine-1");
        assertThat(c.engines.get(1).measured()).isFalse();
        assertThat(c.engines.get(2).notMeasured).isEqualTo("not measured: no MQTT Rendezvous Timer");
        assertThat(c.warnings).anySatisfy(w -> assertThat(w).contains("crossed clocks whose difference was not measured"));
        assertThat(ReportText.table(MergedReport.of(engines, List.of()))).contains("clock warning:");
    }

    @Test
    void rows_byEngineNumber_andAnEngineThatFoundNoOtherIsNotASecondReference() {
        List<EngineSummary> reversed = new ArrayList<>(shiftedPair());
        Collections.reverse(reversed);
        assertThat(MergedReport.of(reversed, List.of()).clocks.engines).extracting(e -> e.engineId)
                .containsExactly("engine-1", "engine-2");

        // Engine 2 saw nobody before its run ended (its barrier timed out) and took itself as the reference.
        ClockFigures alone = reference();
        alone.referenceEngine = "engine-2";
        alone.referenceNumber = 2;
        alone.notMeasured = "1 of 2 engines announced themselves for the clock exchange (seen: [engine-2])";
        ClockReport c = MergedReport.of(List.of(engine("engine-1", 1, reference(), latencies(TRUE_LATENCY, 10), 0, 10, 1),
                engine("engine-2", 2, alone, latencies(TRUE_LATENCY, 10), 0, 10, 2)), List.of()).clocks;
        assertThat(c.reference).isEqualTo("engine-1");
        assertThat(c.engines.get(1).reference).isFalse();
        assertThat(c.engines.get(1).measured()).isFalse();
        assertThat(c.engines.get(1).notMeasured).isEqualTo("not compared with engine-1: 1 of 2 engines announced"
                + " themselves for the clock exchange (seen: [engine-2])");
    }

    @Test
    void oneEngine_showsNoClocks_andTheReportRoundTripsThroughJson() {
        MergedReport single = MergedReport.of(List.of(engine("engine-1", 1, reference(), latencies(TRUE_LATENCY, 10), 0,
                10, 1)), List.of());
        assertThat(single.clocks.shown()).isFalse();
        assertThat(ReportText.table(single)).doesNotContain("clock offsets");

        MergedReport r = MergedReport.of(shiftedPair(), List.of());
        ReportFigures read = SummaryJson.readReport(r.toJson());
        assertThat(read.clocks.engines.get(1).before.offsetMicros).isEqualTo(SHIFT);
        assertThat(read.clocks.engines.get(1).offsetMicros).isEqualTo(SHIFT + 25);
        assertThat(read.clocks.warnings).isEqualTo(r.clocks.warnings);
        assertThat(ReportText.table(r)).contains("engine-2       +2500.000 ± 0.100");
    }

    private static BarrierFigures released(long firstWake, long lastWake) {
        BarrierFigures b = new BarrierFigures();
        b.name = "start";
        b.generation = 1;
        b.groupSize = 6;
        b.localThreads = 3;
        b.released = true;
        b.firstWakeMicros = firstWake;
        b.lastWakeMicros = lastWake;
        return b;
    }

    /** The run: engine-2's clock 1,370 ms ahead, the threads released within 5.117 ms of each other. */
    @Test
    void barrierSpread_correctedByTheOffsets_andThePartOnlyTheyExplainIsTheClocks() {
        long shift = 1_370_000;
        EngineSummary one = engine("engine-1", 1, reference(), latencies(0, 0), 0, 0);
        one.rendezvous.add(released(T0, T0 + 2_000));
        EngineSummary two = engine("engine-2", 2, measured(estimate(shift, 500, T0), estimate(shift, 500, T0 + 1)),
                latencies(0, 0), 0, 0);
        two.rendezvous.add(released(T0 + shift + 3_000, T0 + shift + 5_117));
        MergedReport r = MergedReport.of(List.of(one, two), List.of());

        BarrierRow row = r.rendezvous.get(0);
        assertThat(row.spreadMillis()).isEqualTo(1_375.117);
        assertThat(row.correctedSpreadMillis()).isEqualTo(5.117);
        assertThat(row.correctedSpreadBoundMillis()).isEqualTo(0.5);
        assertThat(row.describe()).isEqualTo("'start' #1: 6 of 6 threads on 2 engine(s) released, spread 1375.117 ms as"
                + " the engines' clocks read it; 5.117 ms ± 0.500 ms with their measured offsets taken out: 1370.000 ms"
                + " of the measured spread is the clocks' offset, not the release");
        ReportFigures.BarrierLine line = SummaryJson.readReport(r.toJson()).rendezvous.get("start #1");
        assertThat(line.spreadMillis).isEqualTo(1_375.117);
        assertThat(line.correctedSpreadMillis).isEqualTo(5.117);
        assertThat(ReportText.markdown(r)).contains("| start #1 | 6 | 6 | 2 | 2 | 1375.117 | 5.117 ± 0.500 |");
        assertThat(HtmlReport.render(r)).contains("5.117 ± 0.500");

        // An engine whose offset is unknown: the spread stays as the clocks read it, and says so.
        EngineSummary unknown = engine("engine-2", 2, ClockFigures.notMeasured("not measured: no reference answered"),
                latencies(0, 0), 0, 0);
        unknown.rendezvous.add(released(T0 + shift + 3_000, T0 + shift + 5_117));
        BarrierRow notCorrected = MergedReport.of(List.of(one, unknown), List.of()).rendezvous.get(0);
        assertThat(notCorrected.correctedSpreadMillis()).isNull();
        assertThat(notCorrected.describe()).endsWith("spread 1375.117 ms (engine clocks; not corrected: engine-2's clock"
                + " offset was not measured (not measured: no reference answered))");
    }
}
