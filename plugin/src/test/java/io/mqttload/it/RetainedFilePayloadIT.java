package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttPublishSampler;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * A retained message whose payload is a file reaches a subscriber that arrives after it was
 * published, with the file's size; the ledger knows the subscription came late and still counts it.
 */
class RetainedFilePayloadIT {
    private static final int FILE_SIZE = 300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hivemq", "mosquitto"})
    void retainedFilePayload_reachesALateSubscriber(String brokerName) throws Exception {
        if (brokerName.equals("mosquitto")) {
            MosquittoBroker.requireInstalled();
        }
        Path file = dir.resolve("payload.bin");
        byte[] content = new byte[FILE_SIZE];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }
        Files.write(file, content);
        try (AutoCloseable broker = brokerName.equals("hivemq") ? EmbeddedHiveMqBroker.start()
                : MosquittoBroker.builder().start()) {
            int port = broker instanceof EmbeddedHiveMqBroker ? ((EmbeddedHiveMqBroker) broker).tcpPort()
                    : ((MosquittoBroker) broker).tcpPort();
            MqttPublishSampler retained = with(with(with(publish("pub", "retained/{engine}", 1, 1, "SYNC"), "retain",
                    "true"), "payloadType", "FILE"), "payloadFile", file.toString());
            HashTree plan = PlanBuilder.testPlan("retained")
                    .config(connection("127.0.0.1", port, "MQTT_5"))
                    .threadGroup("t", 1, 1)
                    .add(connect("pub", 1, "{engine}-rp"))
                    .add(retained)
                    .add(disconnect("pub"))
                    .add(connect("sub", 1, "{engine}-rs"))
                    .add(subscribe("sub", "retained/#", 1))
                    .add(disconnect("sub"))
                    .build();

            // The broker is not asked its version: HiveMQ CE announces no name or version, so the run would wait out
            // the question (3 s) at its end (RunReportIT checks the question).
            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir",
                    dir.toString(), "mqttload.progressSeconds", "0", "mqttload.brokerVersionTimeoutMs", "0"));
            RunSummary summary = JvmRun.lastSummary();

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(run.byLabel("publish pub").get(0).getSentBytes()).isEqualTo(FILE_SIZE);
            assertThat(summary.count(Count.RECEIVED)).isEqualTo(1);
            assertThat(summary.count(Count.RECEIVED_BYTES)).isEqualTo(FILE_SIZE);
            assertThat(summary.latencyOf(Latency.PUB_TO_SUB).count).as("the header rode in the file's first 16 bytes").isEqualTo(1);
            assertThat(summary.delivery.lateSubscriptions).isEqualTo(1);
            assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        }
    }
}
