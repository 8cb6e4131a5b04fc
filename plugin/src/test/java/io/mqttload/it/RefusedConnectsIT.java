package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.MqttTap;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * A storm's refusals that mean "later", counted by reason: Mosquitto 2.0.11 at {@code max_connections} closes the
 * socket without a CONNACK (tried: no reason to count), so a proxy in front of it answers the first connects itself
 * with MQTT 5 CONNACK 0x89 (server busy) and 0x9F (connection rate exceeded); the devices retry under their policy,
 * first connects included, and all end connected to the real broker.
 */
class RefusedConnectsIT {
    private static final int CLIENTS = 20;
    private static final int BUSY = 12;
    private static final int RATE = 8;

    @TempDir
    Path results;

    @Test
    void refusalsThatMeanLater_areCountedByReason_andRetriedClientsEndConnected() {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().start();
                MqttTap tap = MqttTap.to(broker.host(), broker.tcpPort())) {
            tap.answerConnects(n -> n <= BUSY ? 0x89 : n <= BUSY + RATE ? 0x9F : 0);
            HashTree plan = PlanBuilder.testPlan("refused")
                    .config(connection("127.0.0.1", tap.port(), "MQTT_5"))
                    .threadGroup("t", 1, 1)
                    .add(with(with(with(with(with(connect("devices", CLIENTS, "{engine}-refused-{client}"),
                            "reconnectPolicy", "FIXED"), "reconnectAttempts", "10"), "reconnectDelayMs", "100"),
                            "reconnectMaxDelayMs", "100"), "retryFirstConnect", "true"))
                    .build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0", "mqttload.closeTimeoutMs", "2000",
                    "mqttload.brokerVersionTimeoutMs", "0"));
            RunSummary summary = JvmRun.lastSummary();

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.count(Count.CONNACK_SERVER_BUSY)).as(summary.toTable()).isEqualTo(BUSY);
            assertThat(summary.count(Count.CONNACK_CONNECTION_RATE_EXCEEDED)).isEqualTo(RATE);
            // Each refused first connect retried once under the policy, 100 ms later, and taken by Mosquitto.
            assertThat(summary.count(Count.CONNECT_ATTEMPTS)).isEqualTo(CLIENTS + BUSY + RATE);
            assertThat(summary.count(Count.CONNECT_RETRIES)).isEqualTo(BUSY + RATE);
            assertThat(summary.count(Count.CONNECTS_OK)).isEqualTo(CLIENTS);
            assertThat(summary.count(Count.CONNECTS_FAILED)).isZero();
        }
    }
}
