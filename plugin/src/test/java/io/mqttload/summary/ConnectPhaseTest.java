package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mqttload.clock.ClockFigures;
import io.mqttload.compare.Figure;
import io.mqttload.measure.Count;
import io.mqttload.report.ReportText;
import io.mqttload.report.influx.ReportPoints;

/**
 * The achieved connect rate of a run: its engines' connect phases on the reference engine's clock, so that engines
 * whose clocks differ by seconds but connected side by side add up, and what could not be put on one clock is said.
 */
class ConnectPhaseTest {
    private static final long T0 = 1_795_000_000_000_000L;
    /** engine-2's clock runs 6 s ahead of engine-1's. */
    private static final long SHIFT = 6_000_000;

    private static ClockFigures reference() {
        return ClockReportTest.reference();
    }

    private static ClockFigures shifted(long offset) {
        return ClockReportTest.measured(ClockReportTest.estimate(offset, 200, T0), null);
    }

    /** An engine whose {@code connects} connects ran from {@code first} to {@code last} µs on its own clock. */
    private static EngineSummary engine(String id, int number, ClockFigures clock, long connects, long first, long last) {
        EngineSummary s = new EngineSummary();
        s.engineId = id;
        s.engineNumber = number;
        s.runId = "run-connect";
        s.scenario = "connect";
        s.clock = clock;
        s.counts.put(Count.CONNECTS_OK.key(), connects);
        s.connectPhase = ConnectPhase.of(connects, new long[] {first, last});
        return s;
    }

    @Test
    void enginesThatConnectedSideBySide_addUp_onTheReferencesClock_whateverTheirOwnClocksSaid() {
        // Both connected 1,000 clients over the same two seconds; engine-2's clock reads them 6 s later.
        EngineSummary one = engine("engine-1", 1, reference(), 1000, T0, T0 + 2_000_000);
        EngineSummary two = engine("engine-2", 2, shifted(SHIFT), 1000, T0 + SHIFT + 100_000, T0 + SHIFT + 2_000_000);

        MergedReport report = MergedReport.of(List.of(one, two), List.of());

        assertThat(one.connectPhase.rate).isEqualTo(500.0);
        assertThat(report.connectPhase.connects).isEqualTo(2000).isEqualTo(report.count(Count.CONNECTS_OK));
        assertThat(report.connectPhase.seconds).isEqualTo(2.0);
        assertThat(report.connectPhase.rate).isEqualTo(1000.0);
        assertThat(report.connectPhase.notCorrected).isNull();
        assertThat(ReportText.table(report)).contains("connect rate: 1000.0/s (2000 connects in 2.000 s, first CONNECT"
                + " to last CONNACK)");
        assertThat(ReportPoints.of(report, 0).get(0)).contains(",connectRate=1000");
        ReportFigures figures = SummaryJson.readReport(report.toJson());
        assertThat(Figure.CONNECT_RATE.of(figures, 0)).isEqualTo(1000.0);
    }

    @Test
    void enginesThatConnectedOneAfterTheOther_doNotAddUp() {
        EngineSummary one = engine("engine-1", 1, reference(), 1000, T0, T0 + 2_000_000);
        EngineSummary two = engine("engine-2", 2, shifted(SHIFT), 1000, T0 + SHIFT + 2_000_000, T0 + SHIFT + 4_000_000);

        ConnectPhase run = MergedReport.of(List.of(one, two), List.of()).connectPhase;

        assertThat(run.seconds).isEqualTo(4.0);
        assertThat(run.rate).isEqualTo(500.0);
    }

    @Test
    void anEngineWhoseOffsetWasNotMeasured_isNamed_andItsInstantsStayOnItsOwnClock() {
        EngineSummary one = engine("engine-1", 1, reference(), 1000, T0, T0 + 2_000_000);
        EngineSummary two = engine("engine-2", 2, ClockFigures.notMeasured("no MQTT Rendezvous Timer"), 1000, T0,
                T0 + 2_000_000);

        ConnectPhase run = MergedReport.of(List.of(one, two), List.of()).connectPhase;

        assertThat(run.rate).isEqualTo(1000.0);
        assertThat(run.notCorrected).contains("engine-2's clock offset was not measured")
                .contains("no MQTT Rendezvous Timer");
        assertThat(run.describe()).contains("not on one clock: engine-2's clock offset was not measured");
    }

    @Test
    void oneEngine_needsNoClockButItsOwn_andAnEngineThatConnectedNothingAddsNothing() {
        EngineSummary one = engine("engine-1", 1, ClockFigures.notMeasured("alone"), 300, T0, T0 + 1_500_000);
        EngineSummary idle = engine("engine-2", 2, ClockFigures.notMeasured("alone"), 0, 0, 0);

        ConnectPhase run = MergedReport.of(List.of(one, idle), List.of()).connectPhase;

        assertThat(idle.connectPhase).isNull();
        assertThat(run.notCorrected).isNull();
        assertThat(run.rate).isEqualTo(200.0);
    }

    @Test
    void aSummaryWrittenBeforeThePhaseWasKept_hasNoConnectRate_andTheComparisonLeavesItOut() {
        EngineSummary old = engine("engine-1", 1, reference(), 1000, T0, T0 + 2_000_000);
        old.connectPhase = null;

        MergedReport report = MergedReport.of(List.of(old), List.of());

        assertThat(report.connectPhase).isNull();
        assertThat(ReportText.table(report)).doesNotContain("connect rate");
        assertThat(ReportPoints.of(report, 0).get(0)).doesNotContain("connectRate");
        assertThat(Figure.CONNECT_RATE.of(SummaryJson.readReport(report.toJson()), 0)).isNaN();
    }

    @Test
    void theEnginesSummary_carriesItsPhaseThroughJson() {
        EngineSummary one = engine("engine-1", 1, reference(), 1000, T0, T0 + 2_000_000);

        EngineSummary read = SummaryJson.readEngineSummary(SummaryJson.write(one));

        assertThat(read.connectPhase.connects).isEqualTo(1000);
        assertThat(read.connectPhase.firstConnectMicros).isEqualTo(T0);
        assertThat(read.connectPhase.lastConnackMicros).isEqualTo(T0 + 2_000_000);
        assertThat(read.connectPhase.rate).isEqualTo(500.0);
    }
}
