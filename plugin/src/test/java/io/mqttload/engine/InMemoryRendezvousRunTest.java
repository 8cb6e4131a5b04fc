package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.clock.ClockFigures;
import io.mqttload.measure.Count;
import io.mqttload.measure.PubToSubPairs;
import io.mqttload.rendezvous.Rendezvous;
import io.mqttload.report.ReportText;
import io.mqttload.summary.BarrierFigures;
import io.mqttload.summary.BarrierRow;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * The runtime's own rendezvous and clock exchange through the transport port: two engines on one in-memory broker
 * meet at a barrier and measure their clocks against the reference engine, and both land in the summaries.
 */
class InMemoryRendezvousRunTest {
    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    private final ExecutorService threads = Executors.newFixedThreadPool(6, r -> {
        Thread t = new Thread(r, "engine-thread");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private MemoryEngine engine(int number) {
        return engine(number, 2);
    }

    private MemoryEngine engine(int number, int engines) {
        return new MemoryEngine(broker, results, Map.of("mqttload.engineId", "engine-" + number,
                "mqttload.engineNumber", Integer.toString(number), "mqttload.engines", Integer.toString(engines),
                "mqttload.clockSamples", "4", "mqttload.clockTimeoutMs", "2000"));
    }

    private Future<Rendezvous.Passage> arrive(MemoryEngine engine, ConnectionSettings settings) {
        return arrive(engine, settings, 2);
    }

    private Future<Rendezvous.Passage> arrive(MemoryEngine engine, ConnectionSettings settings, int groupSize) {
        return threads.submit(() -> {
            Rendezvous.Passage p = engine.runtime().rendezvous(settings, 0).await("start", 1, groupSize, 5_000, true);
            engine.runtime().productionStarted("barrier 'start' released");
            return p;
        });
    }

    @Test
    void twoEngines_meetAtABarrier_andMeasureTheirClocks_throughTheirRuntimes() throws Exception {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine one = engine(1);
        MemoryEngine two = engine(2);

        Future<Rendezvous.Passage> first = arrive(one, settings);
        Future<Rendezvous.Passage> second = arrive(two, settings);
        assertThat(first.get(5, TimeUnit.SECONDS).released).isTrue();
        assertThat(second.get(5, TimeUnit.SECONDS).released).isTrue();
        // The measuring engine first: its end-of-run exchange needs the reference engine still there.
        RunSummary measured = two.shutdown();
        RunSummary reference = one.shutdown();

        ClockFigures clock = SummaryJson.readEngineSummary(measured.toJson()).clock;
        assertThat(clock.notMeasured).as(measured.toTable()).isNull();
        assertThat(clock.referenceEngine).isEqualTo("engine-1");
        assertThat(clock.before).isNotNull();
        assertThat(clock.after).isNotNull();
        assertThat(SummaryJson.readEngineSummary(reference.toJson()).clock.reference).isTrue();
        MergedReport report = MergedReport.merge(List.of(reference.toJson(), measured.toJson()), List.of());
        assertThat(report.rendezvous).hasSize(1);
    }

    /**
     * Each engine's subscriber takes the other engine's messages: each engine records them as a pair of its own, and
     * corrects every one by the difference of the two offsets before production, which the engines shared through the
     * clock exchange (one JVM: one clock, so the difference is 0 within its bound).
     */
    @Test
    void twoEngines_shareTheirOffsets_andCorrectEveryMessageFromTheOther() throws Exception {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine one = engine(1);
        MemoryEngine two = engine(2);
        subscribeToTheOther(settings, one, two);
        Future<Rendezvous.Passage> first = arrive(one, settings);
        Future<Rendezvous.Passage> second = arrive(two, settings);
        assertThat(first.get(5, TimeUnit.SECONDS).released).isTrue();
        assertThat(second.get(5, TimeUnit.SECONDS).released).isTrue();
        publishTenEach(one, two);
        RunSummary measured = two.shutdown();
        RunSummary reference = one.shutdown();

        for (RunSummary s : List.of(reference, measured)) {
            PubToSubPairs.Figures fromOther = SummaryJson.readEngineSummary(s.toJson()).pubToSubPairs.get(0);
            assertThat(fromOther.publisherEngine).isEqualTo(3 - s.engineNumber);
            assertThat(fromOther.measured.count).isEqualTo(10);
            assertThat(fromOther.correctionMicros).as(s.toTable()).isNotNull();
            assertThat(Math.abs(fromOther.correctionMicros)).isLessThanOrEqualTo(fromOther.correctionBoundMicros);
            assertThat(fromOther.corrected.count).isEqualTo(10);
            assertThat(fromOther.notCorrected).isZero();
        }
        MergedReport report = MergedReport.merge(List.of(reference.toJson(), measured.toJson()), List.of());
        report.clocks.showCorrected(true);
        assertThat(report.clocks.pairs).extracting(p -> p.name()).containsExactly("engine-1 to engine-2",
                "engine-2 to engine-1");
        assertThat(report.clocks.correctedPubToSub.count).isEqualTo(20);
        assertThat(report.clocks.correctedPubToSubMissing).isNull();
    }

    @Test
    void threeEnginesOfTwoThreads_theMergedBarrierCountsAreTheEngines_withAndWithoutAMissingEngine() throws Exception {
        ConnectionSettings settings = MemoryEngine.settings().build();
        List<MemoryEngine> engines = List.of(engine(1, 3), engine(2, 3), engine(3, 3));
        List<Future<Rendezvous.Passage>> passages = new ArrayList<>();
        for (MemoryEngine e : engines) {
            passages.add(arrive(e, settings, 6));
            passages.add(arrive(e, settings, 6));
        }
        for (Future<Rendezvous.Passage> p : passages) {
            assertThat(p.get(5, TimeUnit.SECONDS).released).isTrue();
        }
        // The reference engine last: the others' end-of-run clock exchange needs it.
        String three = engines.get(2).shutdown().toJson();
        String two = engines.get(1).shutdown().toJson();
        String one = engines.get(0).shutdown().toJson();
        for (String summary : List.of(one, two, three)) {
            EngineSummary read = SummaryJson.readEngineSummary(summary);
            assertThat(read.rendezvous).singleElement().satisfies(b -> {
                assertThat(b.arrivedAtRelease).isEqualTo(6);
                assertThat(b.localThreads).isEqualTo(2);
            });
        }

        MergedReport all = MergedReport.merge(List.of(one, two, three), List.of());
        MergedReport withoutThree = MergedReport.merge(List.of(one, two), List.of("engine-3"));

        for (MergedReport report : List.of(all, withoutThree)) {
            BarrierFigures engineOne = SummaryJson.readEngineSummary(one).rendezvous.get(0);
            assertThat(report.rendezvous).singleElement().satisfies(row -> {
                assertThat(row.arrived()).isEqualTo(engineOne.arrivedAtRelease);
                assertThat(row.enginesArrived()).isEqualTo(3);
                assertThat(row.describe()).startsWith("'start' #1: 6 of 6 threads on 3 engine(s) released");
            });
            ReportFigures.BarrierLine line = report.figures().rendezvous.get("start #1");
            assertThat(line.arrived).isEqualTo(6);
            assertThat(ReportText.table(report)).contains("rendezvous 'start' #1: 6 of 6 threads on 3 engine(s) released");
            assertThat(ReportText.markdown(report)).contains("| start #1 | 6 | 6 | ");
        }
        BarrierRow survivors = withoutThree.rendezvous.get(0);
        assertThat(survivors.engines).as("the summaries that carry it").isEqualTo(2);
        assertThat(survivors.threads).as("the threads of those summaries").isEqualTo(4);
    }

    /**
     * Two engines of one run and no barrier: the first MQTT Connect starts the clock exchange through the plan's broker,
     * the first publish bounds the wait for the other engine, and every message from the other engine is corrected.
     */
    @Test
    void twoEngines_withoutARendezvous_measureTheirClocks_throughThePlansBroker() throws Exception {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine one = engine(1);
        MemoryEngine two = engine(2);
        subscribeToTheOther(settings, one, two);
        publishTenEach(one, two);
        RunSummary measured = two.shutdown();
        RunSummary reference = one.shutdown();

        ClockFigures clock = SummaryJson.readEngineSummary(measured.toJson()).clock;
        assertThat(clock.referenceEngine).as(measured.toTable()).isEqualTo("engine-1");
        assertThat(clock.before).as(measured.toTable()).isNotNull();
        assertThat(SummaryJson.readEngineSummary(reference.toJson()).clock.reference).isTrue();
    }

    /** Each engine connects one client, which subscribes to the other engine's topics. */
    private static void subscribeToTheOther(ConnectionSettings settings, MemoryEngine one, MemoryEngine two) {
        for (MemoryEngine e : List.of(one, two)) {
            int n = e == one ? 1 : 2;
            e.connect("connect", "g", 1, settings, 1, "e" + n + "-{client}", ReconnectPolicy.none());
            e.subscribe("subscribe", "g", 1, "t/" + (3 - n) + "/#", 1);
        }
    }

    private static void publishTenEach(MemoryEngine one, MemoryEngine two) {
        one.publish("publish", "g", 1, "t/1/x", 1, 10, true);
        two.publish("publish", "g", 1, "t/2/x", 1, 10, true);
        one.awaitCount(Count.RECEIVED, 10);
        two.awaitCount(Count.RECEIVED, 10);
    }
}
