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
import io.mqttload.measure.LatencyStats;
import io.mqttload.report.HtmlReport;
import io.mqttload.report.ReportText;

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

    private static OffsetEstimator.Estimate estimate(long offset, long bound, long atMicros) {
        OffsetEstimator.Estimate e = new OffsetEstimator.Estimate();
        e.offsetMicros = offset;
        e.boundMicros = bound;
        e.roundTripMicros = 2 * bound;
        e.samples = 16;
        e.atMicros = atMicros;
        return e;
    }

    private static ClockFigures reference() {
        ClockFigures f = new ClockFigures();
        f.reference = true;
        f.referenceEngine = "engine-1";
        f.referenceNumber = 1;
        return f;
    }

    private static ClockFigures measured(OffsetEstimator.Estimate before, OffsetEstimator.Estimate after) {
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

    private static Histogram latencies(long value, int count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(value, count);
        return h;
    }

    /** engine-1 receives engine-2's messages (all negative, so 0), engine-2 engine-1's (2.5 s too long). */
    private static List<EngineSummary> shiftedPair() {
        ClockFigures two = measured(estimate(SHIFT, 100, T0), estimate(SHIFT + 50, 150, T0 + 60_000_000));
        return List.of(
                engine("engine-1", 1, reference(), latencies(0, 500), 500, 500, 2),
                engine("engine-2", 2, two, latencies(SHIFT + TRUE_LATENCY, 500), 0, 500, 1));
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
    void crossings_carryTheSubscribersClockMinusThePublishers_andAreWarnedAbout() {
        ClockReport c = MergedReport.of(shiftedPair(), List.of()).clocks;

        assertThat(c.crossings).hasSize(2);
        ClockReport.Crossing toOne = c.crossings.get(0);
        assertThat(toOne.publisher).isEqualTo("engine-2");
        assertThat(toOne.subscriber).isEqualTo("engine-1");
        assertThat(toOne.messages).isEqualTo(500);
        assertThat(toOne.clockDifferenceMicros).isEqualTo(-(SHIFT + 25));
        assertThat(toOne.boundMicros).isEqualTo(175);
        assertThat(c.crossings.get(1).clockDifferenceMicros).isEqualTo(SHIFT + 25);
        assertThat(c.warnings).anySatisfy(w -> assertThat(w).contains("500 message(s) from engine-1 to engine-2 carry a clock"
                + " difference of +2500.025 ms ± 0.175 ms (engine-2's clock ahead of engine-1's)"));
        assertThat(c.warnings).anySatisfy(w -> assertThat(w).startsWith("engine-1 recorded 500 negative pub-to-sub latencies"));
        // The measured figures stay as measured; corrected ones only when asked for.
        assertThat(c.corrected).isEmpty();
        assertThat(c.correctedPubToSub).isNull();
    }

    @Test
    void correction_shiftsAnEngineFedByOneOtherEngine_andRefusesWhereValuesWereLost() {
        MergedReport r = MergedReport.of(shiftedPair(), List.of());
        r.clocks.showCorrected(true);

        assertThat(r.clocks.corrected).hasSize(2);
        ClockReport.Corrected one = r.clocks.corrected.get(0);
        assertThat(one.corrected).isNull();
        assertThat(one.notCorrected).contains("500 of its latencies were negative and recorded as 0");
        ClockReport.Corrected two = r.clocks.corrected.get(1);
        assertThat(two.publisher).isEqualTo("engine-1");
        assertThat(two.clockDifferenceMicros).isEqualTo(SHIFT + 25);
        // 2.501 s recorded with 3 significant digits: within the histogram's resolution there (2 ms) of 1 ms - 25 µs.
        assertThat(two.corrected.percentile(50.0)).isBetween(0L, TRUE_LATENCY + 2_048);
        assertThat(two.measured.percentile(50.0)).isGreaterThan(SHIFT);
        assertThat(r.clocks.correctedPubToSub).isNull();
        assertThat(r.clocks.correctedPubToSubMissing).startsWith("engine-1 could not be corrected");
        // Printed beside, labelled, never instead of the measured row.
        String table = ReportText.table(r);
        assertThat(table).contains("pub-to-sub at engine-2 (from engine-1) CORRECTED by -2500.025 ms ± 0.175 ms");
        assertThat(table).contains("pub-to-sub at engine-1 not corrected");
        assertThat(table).containsPattern("pub-to-sub from send +\\d+ ");

        r.clocks.showCorrected(false);
        assertThat(r.clocks.corrected).isEmpty();
        assertThat(ReportText.table(r)).doesNotContain("CORRECTED");
    }

    @Test
    void correction_ofEveryEngine_givesACorrectedRunRow() {
        // engine-2's clock 2.5 s behind engine-1's: engine-1's subscribers see 2.5 s too much, engine-2 only its own.
        ClockFigures two = measured(estimate(-SHIFT, 100, T0), estimate(-SHIFT, 100, T0 + 60_000_000));
        List<EngineSummary> engines = List.of(
                engine("engine-1", 1, reference(), latencies(SHIFT + TRUE_LATENCY, 100), 0, 100, 2),
                engine("engine-2", 2, two, latencies(TRUE_LATENCY, 100), 0, 100, 2));
        MergedReport r = MergedReport.of(engines, List.of());
        r.clocks.showCorrected(true);

        assertThat(r.clocks.correctedPubToSub).isNotNull();
        assertThat(r.clocks.correctedPubToSub.count).isEqualTo(200);
        assertThat(r.clocks.correctedPubToSub.percentile(99.0)).isLessThan(TRUE_LATENCY + 2_048);
        assertThat(ReportText.markdown(r)).contains("CORRECTED by the measured clock offsets");
        assertThat(HtmlReport.render(r)).contains("CORRECTED by the measured clock offsets");
    }

    @Test
    void correction_isRefusedForAMixture_namingWhatTheSummariesLack() {
        ClockFigures two = measured(estimate(SHIFT, 100, T0), null);
        List<EngineSummary> engines = List.of(
                engine("engine-1", 1, reference(), latencies(TRUE_LATENCY, 100), 0, 100, 1),
                engine("engine-2", 2, two, latencies(TRUE_LATENCY, 100), 0, 100, 1, 2));
        MergedReport r = MergedReport.of(engines, List.of());
        r.clocks.showCorrected(true);

        assertThat(r.clocks.corrected).singleElement().satisfies(k -> assertThat(k.notCorrected)
                .isEqualTo("received from engine-1, engine-2: the summaries have no pub-to-sub histogram per publishing"
                        + " engine, so one correction cannot be applied to this mixture"));
        // Only before was measured: its offset and bound stand for the run, and there is no drift.
        assertThat(r.clocks.engines.get(1).offsetMicros).isEqualTo(SHIFT);
        assertThat(r.clocks.engines.get(1).driftPpm).isNull();
    }

    @Test
    void warnings_whenTheBoundIsLargeAgainstTheP50_orTheP50IsWithinAFewBoundsOfZero() {
        // Clocks agree (offset 0), but known only to ± 1.5 ms; the latencies are 10 ms, then 2 ms.
        ClockFigures two = measured(estimate(0, 1_500, T0), null);
        List<EngineSummary> slow = List.of(engine("engine-1", 1, reference(), latencies(10_000, 100), 0, 100, 2),
                engine("engine-2", 2, two, latencies(10_000, 100), 0, 100, 2));
        assertThat(MergedReport.of(slow, List.of()).clocks.warnings).singleElement().asString()
                .contains("known only to more than 10 % of the pub-to-sub p50 (10.0").contains("engine-2 to engine-1 (± 1.500 ms)");

        List<EngineSummary> fast = List.of(engine("engine-1", 1, reference(), latencies(2_000, 100), 0, 100, 2),
                engine("engine-2", 2, two, latencies(2_000, 100), 0, 100, 2));
        assertThat(MergedReport.of(fast, List.of()).clocks.warnings).singleElement().asString()
                .contains("the pub-to-sub p50 (2.000 ms) is within 3 bounds (3 × 1.500 ms) of zero");
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
}
