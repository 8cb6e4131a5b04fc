package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.MicroClock;
import io.mqttload.report.ReportText;
import io.mqttload.summary.ConnectPhase;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.mqttload.testsupport.memory.Which;

/**
 * The engine's run end to end on the in-memory broker, in milliseconds: the real operations, drain and summary, with
 * exact figures for a clean run at every QoS and for each delivery fault (PointToPointIT and SharedSubscriptionIT
 * check the same figures against real brokers).
 */
class InMemoryRunTest {
    private static final int PAIRS = 2;
    private static final int SAMPLES = 5;
    private static final int PER_SAMPLE = 8;
    private static final int TOTAL = PAIRS * SAMPLES * PER_SAMPLE;

    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();


    /** Each thread: a subscriber on its own topic, then a publisher sending SAMPLES x PER_SAMPLE messages to it. */
    private RunSummary pointToPoint(ConnectionSettings settings, int qos, boolean synchronous) {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        for (int t = 1; t <= PAIRS; t++) {
            assertThat(engine.connect("connect sub", "sub", t, settings, 1, "{engine}-s-{thread}", ReconnectPolicy.none()).ok)
                    .isTrue();
            assertThat(engine.subscribe("subscribe", "sub", t, "p2p/{thread}", qos).ok).isTrue();
            assertThat(engine.connect("connect pub", "pub", t, settings, 1, "{engine}-p-{thread}", ReconnectPolicy.none()).ok)
                    .isTrue();
        }
        for (int s = 0; s < SAMPLES; s++) {
            for (int t = 1; t <= PAIRS; t++) {
                assertThat(engine.publish("publish", "pub", t, "p2p/{thread}", qos, PER_SAMPLE, synchronous).ok).isTrue();
            }
        }
        for (int t = 1; t <= PAIRS; t++) {
            engine.disconnect("disconnect pub", "pub", t);
            engine.disconnect("disconnect sub", "sub", t);
        }
        return engine.shutdown();
    }

    @ParameterizedTest(name = "{0} QoS {1} synchronous {2}")
    @CsvSource({"MQTT_3_1_1, 0, false", "MQTT_3_1_1, 1, true", "MQTT_3_1_1, 2, false", "MQTT_5, 0, true",
            "MQTT_5, 1, false", "MQTT_5, 2, true"})
    void aCleanRun_receivesEveryMessageOnce_andSaysNoLoss(ProtocolVersion version, int qos, boolean synchronous) {
        RunSummary summary = pointToPoint(MemoryEngine.settings().protocolVersion(version).build(), qos, synchronous);

        assertThat(summary.count(Count.PUBLISHED)).as(summary.toTable()).isEqualTo(TOTAL);
        assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(TOTAL);
        assertThat(summary.count(Count.ACKNOWLEDGED_IN_WINDOW)).as("no warm-up: the window is the whole run")
                .isEqualTo(TOTAL);
        assertThat(summary.count(Count.RECEIVED_IN_WINDOW)).isEqualTo(TOTAL);
        assertThat(summary.count(Count.RECEIVED_IN_DRAIN)).as("every message arrived before the run end").isZero();
        assertThat(summary.delivery.expected).isEqualTo(TOTAL);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(TOTAL);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.DUPLICATES)).isZero();
        assertThat(summary.count(Count.REORDERED)).isZero();
        assertThat(summary.latencyOf(Latency.PUB_TO_SUB).count).isEqualTo(TOTAL);
        assertThat(summary.latencyOf(Latency.PUBLISH).count).isEqualTo(TOTAL);
        assertThat(summary.latencyOf(Latency.CONNECT).count).isEqualTo(2L * PAIRS);
        assertThat(summary.count(Count.RECEIVED_PER_CLIENT_MIN)).isEqualTo((long) SAMPLES * PER_SAMPLE);
        assertThat(summary.count(Count.DISCONNECTS)).isEqualTo(2L * PAIRS);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(results.resolve("summary-" + summary.runId + "-" + summary.engineId + ".json")).exists();
        assertThat(broker.count(InMemoryBroker.Count.PUBLISHES_RECEIVED)).isEqualTo(TOTAL);
        // And the broker's version, to the setup's question.
        assertThat(broker.count(InMemoryBroker.Count.DELIVERIES)).isEqualTo(TOTAL + 1);
    }

    @Test
    void oneEnginesMergedReport_hasItsSummarysFiguresExactly_inEveryForm() throws Exception {
        RunSummary summary = pointToPoint(MemoryEngine.settings().build(), 1, false);

        MergedReport report = MergedReport.merge(List.of(summary.toJson()), List.of());

        assertThat(report.engines).hasSize(1);
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(report.expected).isEqualTo(TOTAL).isEqualTo(summary.delivery.expected);
        assertThat(report.receivedOfExpected).isEqualTo(TOTAL);
        for (Count c : List.of(Count.CONNECTS_OK, Count.PUBLISHED, Count.ACKNOWLEDGED, Count.RECEIVED, Count.DUPLICATES,
                Count.PUBLISH_FAILED)) {
            assertThat(report.count(c)).as(c.key()).isEqualTo(summary.count(c));
        }
        // Rates travel in the summary's JSON with three decimals.
        assertThat(report.publishRate).isCloseTo(summary.publishRate(), within(0.001));
        assertThat(report.receiveRate).isCloseTo(summary.receiveRate(), within(0.001));
        LatencyStats merged = report.latency.get("pubToSub");
        assertThat(merged.count).isEqualTo(TOTAL);
        for (double p : LatencyStats.PERCENTILES) {
            assertThat(merged.percentile(p)).as("p" + p).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).percentile(p));
        }
        JsonNode json = new ObjectMapper().readTree(report.toJson());
        assertThat(json.path("counts").path("lost").asLong()).isZero();
        assertThat(json.path("latencyMicros").path("pubToSub").path("p99").asLong())
                .isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).percentile(99));
        assertThat(json.path("verdict").asText()).isEqualTo("NO_LOSS");
        assertThat(ReportText.markdown(report)).contains("**Verdict:** NO LOSS").contains("| " + summary.engineId + " |");
        // The connect rate: every accepted connect over the first CONNECT to the last CONNACK, the same on both sides.
        assertThat(report.connectPhase.connects).isEqualTo(summary.count(Count.CONNECTS_OK)).isEqualTo(2L * PAIRS);
        assertThat(report.connectPhase.seconds).isEqualTo(summary.connectPhase.seconds);
        assertThat(report.connectPhase.rate).isEqualTo(report.connectPhase.connects / report.connectPhase.seconds);
        assertThat(json.path("connectPhase").path("connects").asLong()).isEqualTo(2L * PAIRS);
        assertThat(ReportText.table(report)).contains("connect rate: " + report.connectPhase.describe());
    }

    @Test
    void theConnectPhase_runsFromTheFirstConnectSentToTheLastConnackRead() {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        long before = MicroClock.nowMicros();
        for (int t = 1; t <= 3; t++) {
            assertThat(engine.connect("connect", "c", t, settings, 2, "{engine}-c-{thread}-{client}",
                    ReconnectPolicy.none()).ok).isTrue();
        }
        long after = MicroClock.nowMicros();
        for (int t = 1; t <= 3; t++) {
            engine.disconnect("disconnect", "c", t);
        }
        RunSummary summary = engine.shutdown();

        ConnectPhase phase = summary.connectPhase;
        assertThat(phase.connects).as(summary.toTable()).isEqualTo(6).isEqualTo(summary.count(Count.CONNECTS_OK));
        assertThat(phase.firstConnectMicros).isBetween(before, phase.lastConnackMicros);
        assertThat(phase.lastConnackMicros).isLessThanOrEqualTo(after);
        // The threads connect one after the other: the phase holds at least every thread's slowest connect.
        assertThat(phase.lastConnackMicros - phase.firstConnectMicros)
                .isGreaterThanOrEqualTo(summary.latencyOf(Latency.CONNECT).max);
        assertThat(phase.rate).isEqualTo(6 / phase.seconds);
        assertThat(summary.toTable()).contains("connect rate").contains(phase.describe());
    }

    @Test
    void droppedDeliveries_areCountedLostExactly_andTheVerdictIsLoss() {
        broker.drop(Which.every(4), "p2p/#");

        RunSummary summary = pointToPoint(MemoryEngine.settings().build(), 1, true);

        assertThat(broker.count(InMemoryBroker.Count.DROPPED)).isEqualTo(TOTAL / 4);
        assertThat(summary.delivery.expected).as(summary.toTable()).isEqualTo(TOTAL);
        assertThat(summary.delivery.lost()).isEqualTo(TOTAL / 4);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(TOTAL - TOTAL / 4);
        assertThat(summary.verdict()).isEqualTo(Verdict.LOSS);
    }

    @Test
    void duplicatedDeliveries_areCountedAsDuplicates_notAsLoss() {
        broker.duplicate(Which.next(3), "p2p/#");

        RunSummary summary = pointToPoint(MemoryEngine.settings().build(), 1, true);

        assertThat(summary.count(Count.DUPLICATES)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(TOTAL + 3);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.delivery.receivedOfExpected).isEqualTo(TOTAL);
    }

    @Test
    void swappedDeliveries_areCountedAsReordered_notAsLoss() {
        // The 7th, 14th, ... 35th of thread 1's 40 messages: each has a next one in its own sample to overtake it.
        broker.reorder(Which.every(7), "p2p/1");

        RunSummary summary = pointToPoint(MemoryEngine.settings().build(), 1, true);

        assertThat(broker.count(InMemoryBroker.Count.REORDERED)).isEqualTo(5);
        assertThat(summary.count(Count.REORDERED)).as(summary.toTable()).isEqualTo(5);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.DUPLICATES)).isZero();
    }

    @Test
    void aSharedSubscription_deliversEachMessageOnce_spreadOverItsMembers() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, settings, 3, "{engine}-s-{client}", ReconnectPolicy.none());
        assertThat(engine.subscribe("subscribe", "sub", 1, "$share/perf/test/#", 1).ok).isTrue();
        engine.connect("connect pub", "pub", 1, settings, 2, "{engine}-p-{client}", ReconnectPolicy.none());
        for (int s = 0; s < 6; s++) {
            engine.publish("publish", "pub", 1, "test/{client}", 1, 2, false);
        }
        engine.disconnect("disconnect pub", "pub", 1);
        engine.disconnect("disconnect sub", "sub", 1);
        RunSummary summary = engine.shutdown();

        assertThat(summary.delivery.expected).as(summary.toTable()).isEqualTo(12);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(12);
        assertThat(summary.count(Count.DUPLICATES)).isZero();
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.SUBSCRIBING_CLIENTS)).isEqualTo(3);
        assertThat(summary.count(Count.RECEIVED_PER_CLIENT_MIN)).isEqualTo(4);
        assertThat(summary.count(Count.RECEIVED_PER_CLIENT_MAX)).isEqualTo(4);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }
}
