package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.RunResult;

/**
 * The shipped session takeover storm against HiveMQ CE, which tells an MQTT 5 client its session was taken over
 * (DISCONNECT 0x8E): the takeovers are counted by that reason, apart from lost connections. At MQTT 3.1.1 the same
 * takeovers reach the client as connections closed without a word, told apart from a lost connection only because
 * the other client of the id is on the same engine (takeoversInferred). Mosquitto 2.0.11 closes even an MQTT 5
 * client's connection without DISCONNECT (ScenarioPlansIT).
 */
class SessionTakeoverIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** The plan's defaults: 2 partitions of 20 devices, 5 samples before the storm and 5 after, a message to each device. */
    private static final int DEVICES = 2 * 20;
    private static final long PUBLISHED = DEVICES * (5 + 5);
    private static EmbeddedHiveMqBroker broker;

    @TempDir
    Path results;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    private RunSummary run(String mqttVersion) {
        Path jmx = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans", "plans",
                "session-takeover-storm.jmx").normalize();
        Map<String, String> properties = new HashMap<>(Map.of("mqtt.host", broker.host(), "mqtt.port",
                String.valueOf(broker.tcpPort()), "mqtt.version", mqttVersion, "mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.runId", "takeover-" + mqttVersion + "-" + System.nanoTime()));
        RunResult run = JMeterTestEngine.run(JMeterTestEngine.load(jmx), TIMEOUT, properties);
        assertThat(run.count()).isPositive();
        return JvmRun.lastSummary();
    }

    @Test
    void mqtt5_everyDeviceTakenOverBy0x8E_andTakingItsSessionBack_noLoss() {
        RunSummary summary = run("MQTT_5");

        // Each id twice: the intruder takes the device's session, the device (FIXED) takes it back, the intruder (NONE)
        // stays out.
        assertThat(summary.count(Count.SESSIONS_TAKEN_OVER)).as(summary.toTable()).isEqualTo(2 * DEVICES);
        assertThat(summary.count(Count.TAKEOVERS_INFERRED)).as("told by 0x8E").isZero();
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER)).isEqualTo(2 * DEVICES);
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER_AGAIN)).isZero();
        assertThat(summary.count(Count.TAKEOVERS_PER_CLIENT_ID_MAX)).isEqualTo(2);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isZero();
        assertThat(summary.count(Count.RECONNECTS)).isEqualTo(DEVICES);
        assertThat(summary.count(Count.SUBSCRIBER_LAPSES_RECORDED)).isEqualTo(DEVICES);
        assertThat(summary.count(Count.PUBLISHED)).isEqualTo(PUBLISHED);
        // The backend pauses through the storm, so every device is back before the next message: only what was still
        // on its way to a device when its session was taken over is owed to nobody.
        assertThat(summary.delivery.expected + summary.count(Count.PUBLISHED_WHILE_SESSION_LOST)).isEqualTo(PUBLISHED);
        assertThat(summary.count(Count.UNDECIDED_AROUND_SUBSCRIPTION)).isZero();
        assertThat(summary.delivery.receivedOfExpected).isEqualTo(summary.delivery.expected);
        assertThat(summary.failures).isEmpty();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void mqtt311_theSameTakeovers_closedWithoutReason_areInferredFromTheOtherClientOfTheId() {
        RunSummary summary = run("MQTT_3_1_1");

        assertThat(summary.count(Count.SESSIONS_TAKEN_OVER)).as(summary.toTable()).isEqualTo(2 * DEVICES);
        assertThat(summary.count(Count.TAKEOVERS_INFERRED)).isEqualTo(2 * DEVICES);
        assertThat(summary.count(Count.TAKEOVERS_PER_CLIENT_ID_MAX)).isEqualTo(2);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isZero();
        assertThat(summary.count(Count.RECONNECTS)).isEqualTo(DEVICES);
        assertThat(summary.delivery.receivedOfExpected).isEqualTo(summary.delivery.expected);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.failures).isEmpty();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }
}
