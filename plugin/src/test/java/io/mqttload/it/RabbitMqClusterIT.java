package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.NodeFigures;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RabbitMqBroker;
import io.mqttload.testsupport.RunResult;

/**
 * A clustered broker as seed 001 runs RabbitMQ: two Debian rabbitmq-server nodes joined into one cluster, clients
 * assigned to the nodes in turn. Messages published on one node reach subscribers on the other; every node's
 * figures and every node pair's deliveries come out exact.
 */
class RabbitMqClusterIT {
    private static final int PER_SAMPLE = 100;
    private static RabbitMqBroker first;
    private static RabbitMqBroker second;

    @TempDir
    Path results;

    @BeforeAll
    static void startCluster() {
        RabbitMqBroker.requireInstalled();
        first = RabbitMqBroker.builder().start();
        second = RabbitMqBroker.builder().joining(first).start();
    }

    @AfterAll
    static void stopCluster() {
        // The member first: it uses the seed's epmd.
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @Test
    void twoClusteredNodes_crossNodeDeliveriesExact_noLoss() {
        assertThat(first.rabbitmqctl("cluster_status")).contains(first.nodeName()).contains(second.nodeName());
        HashTree plan = PlanBuilder.testPlan("rabbit-cluster")
                .config(with(connection("127.0.0.1", first.mqttPort(), "MQTT_3_1_1"), "nodes",
                        "r1=127.0.0.1:" + first.mqttPort() + ", r2=127.0.0.1:" + second.mqttPort()))
                .threadGroup("t", 1, 1)
                .add(connect("sub", 2, "{engine}-{run}-s{client}"))
                .add(subscribe("sub", "rc/#", 1))
                .add(connect("pub", 2, "{engine}-{run}-p{client}"))
                .add(publish("pub", "rc/{client}", 1, PER_SAMPLE, "SYNC"))
                .build();

        RunResult result = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "5000",
                "mqttload.closeTimeoutMs", "3000"));
        RunSummary summary = JvmRun.lastSummary();

        assertThat(result.failures()).as(result.describe()).isEmpty();
        assertThat(summary.nodes).extracting(n -> n.name).containsExactlyInAnyOrder("r1", "r2");
        for (NodeFigures n : summary.nodes) {
            assertThat(n.count(Count.CONNECTS_OK)).as(n.name).isEqualTo(2);
            assertThat(n.count(Count.PUBLISHED)).as(n.name).isEqualTo(PER_SAMPLE / 2);
            assertThat(n.count(Count.RECEIVED)).as(n.name + ": half from its own node, half through the cluster").isEqualTo(PER_SAMPLE);
            assertThat(n.expected).as(n.name).isEqualTo(PER_SAMPLE);
            assertThat(n.pubToSubFrom).as(n.name).containsOnlyKeys("r1", "r2");
            n.pubToSubFrom.values().forEach(s -> assertThat(s.count).isEqualTo(PER_SAMPLE / 2));
        }
        assertThat(summary.delivery.expected).isEqualTo(2 * PER_SAMPLE);
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.NO_LOSS);
    }
}
