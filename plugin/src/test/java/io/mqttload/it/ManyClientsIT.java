package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * One JMeter thread drives 1,500 publishers round-robin, as the ScalAgent bench drives 1,000; each
 * publisher sends on two of its parameter topics ({msg/1500} is 0 for the first pass, 1 for the second).
 */
class ManyClientsIT {
    private static final int CLIENTS = 1500;

    @TempDir
    Path results;

    @Test
    void oneThread_opensFifteenHundredClients_andEveryOnePublishes() {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 100000").start()) {
            HashTree plan = PlanBuilder.testPlan("many clients")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .threadGroup("devices", 1, 1)
                    .add(connect("sub", 1, "{engine}-cc"))
                    .add(subscribe("sub", "System1/#", 1))
                    .add(with(connect("pub", CLIENTS, "{engine}-{client}"), "connectRate", "2000"))
                    .add(publish("pub", "System1/Subsystem{client/100}/Device{client%100}/Parameter{msg/1500}", 1,
                            CLIENTS * 2, "ASYNC"))
                    .add(disconnect("pub"))
                    .add(disconnect("sub"))
                    .build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(120),
                    Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0"));
            RunSummary summary = JvmRun.lastSummary();

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.count(Count.CONNECTS_OK)).isEqualTo(CLIENTS + 1);
            assertThat(summary.latencyOf(Latency.CONNECT).count).isEqualTo(CLIENTS + 1);
            assertThat(summary.delivery.publishStreams).as("each client published on two topics")
                    .isEqualTo(CLIENTS * 2);
            assertThat(summary.count(Count.RECEIVED)).isEqualTo(CLIENTS * 2);
            assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        }
    }
}
