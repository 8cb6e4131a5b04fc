package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * Point-to-point through real JMeter plans against both real brokers: every message published is
 * received exactly once, at every QoS, on MQTT 3.1.1 and 5, in both publish modes. The figures the engine derives
 * from these (latency counts, per-client minimum, the summary file) are InMemoryRunTest's.
 */
class PointToPointIT {
    private static final int PAIRS = 4;
    private static final int SAMPLES = 25;
    private static final int PER_SAMPLE = 20;

    private static EmbeddedHiveMqBroker hivemq;
    private static MosquittoBroker mosquitto;

    @TempDir
    static Path results;

    @BeforeAll
    static void startBrokers() {
        hivemq = EmbeddedHiveMqBroker.start();
        MosquittoBroker.requireInstalled();
        mosquitto = MosquittoBroker.builder().withSetting("max_queued_messages 100000").start();
    }

    @AfterAll
    static void stopBrokers() {
        if (hivemq != null) {
            hivemq.close();
        }
        if (mosquitto != null) {
            mosquitto.close();
        }
    }

    /**
     * Each broker at each QoS, on both protocol versions, each version at each QoS: six of the twelve combinations.
     * What the engine makes of each QoS and version, and of each publish mode, is InMemoryRunTest's; here the broker
     * and the HiveMQ client deliver.
     */
    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of("hivemq", "MQTT_3_1_1", 0, "ASYNC"), Arguments.of("hivemq", "MQTT_5", 1, "SYNC"),
                Arguments.of("hivemq", "MQTT_3_1_1", 2, "ASYNC"), Arguments.of("mosquitto", "MQTT_5", 0, "ASYNC"),
                Arguments.of("mosquitto", "MQTT_3_1_1", 1, "SYNC"), Arguments.of("mosquitto", "MQTT_5", 2, "ASYNC"));
    }

    @ParameterizedTest(name = "{0} {1} QoS {2} {3}")
    @MethodSource("cases")
    void everyMessage_arrivesExactlyOnce(String broker, String version, int qos, String mode) {
        int port = broker.equals("hivemq") ? hivemq.tcpPort() : mosquitto.tcpPort();
        HashTree plan = PlanBuilder.testPlan("p2p")
                .config(connection("127.0.0.1", port, version))
                .threadGroup("pairs", PAIRS, 1)
                .add(connect("sub", 1, "{engine}-s-{thread}"))
                .add(subscribe("sub", "p2p/{thread}", qos))
                .add(connect("pub", 1, "{engine}-p-{thread}"))
                .add(loop(SAMPLES), publish("pub", "p2p/{thread}", qos, PER_SAMPLE, mode))
                .add(disconnect("pub"))
                .add(disconnect("sub"))
                .build();

        // The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out the
        // question (3 s) at its end (RunReportIT checks the question).
        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(120), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.brokerVersionTimeoutMs", "0"));
        RunSummary summary = JvmRun.lastSummary();

        long total = (long) PAIRS * SAMPLES * PER_SAMPLE;
        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(run.byLabel("publish pub")).hasSize(PAIRS * SAMPLES);
        assertThat(summary.count(Count.PUBLISHED)).isEqualTo(total);
        assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(total);
        assertThat(summary.delivery.expected).isEqualTo(total);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(total);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.DUPLICATES)).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }
}
