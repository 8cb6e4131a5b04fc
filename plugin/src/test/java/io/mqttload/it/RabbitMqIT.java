package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RabbitMqBroker;
import io.mqttload.testsupport.RunResult;

/**
 * A second broker family: Debian's RabbitMQ 3.10 with its MQTT plugin, which speaks MQTT 3.1.1 only and answers a
 * QoS 2 PUBLISH with PUBACK. What it can do runs without loss; what it cannot do gives FAILED with the reason named
 * and the true counts, never a cheerful or a false verdict.
 */
class RabbitMqIT {
    private static RabbitMqBroker broker;

    @TempDir
    Path results;

    @BeforeAll
    static void startBroker() {
        RabbitMqBroker.requireInstalled();
        broker = RabbitMqBroker.builder().start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    private RunSummary run(String name, String version, String filter, String topic, int qos) {
        HashTree plan = PlanBuilder.testPlan(name)
                .config(connection("127.0.0.1", broker.mqttPort(), version))
                // One thread: every subscription is granted before the first message is published.
                .threadGroup("t", 1, 1)
                .add(connect("sub", 2, "{engine}-{run}-s{client}"))
                .add(subscribe("sub", filter, 1))
                .add(connect("pub", 2, "{engine}-{run}-p{client}"))
                .add(publish("pub", topic, qos, 100, "SYNC"))
                .build();
        RunResult result = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "3000",
                "mqttload.closeTimeoutMs", "3000"));
        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary).as(result.describe()).isNotNull();
        return summary;
    }

    @ParameterizedTest(name = "QoS {0}")
    @ValueSource(ints = {0, 1})
    void mqtt311_deliversEveryMessage(int qos) {
        RunSummary summary = run("rabbit-qos" + qos, "MQTT_3_1_1", "r" + qos + "/#", "r" + qos + "/{client}", qos);

        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.NO_LOSS);
        // 2 publishers x 50 messages (round-robin), each owed to both subscribers of r<qos>/#.
        assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(100);
        assertThat(summary.delivery.expected).isEqualTo(200);
        assertThat(summary.delivery.receivedOfExpected).isEqualTo(200);
        assertThat(summary.failures).isEmpty();
    }

    @Test
    void mqtt5_failsWithTheReasonNamed() {
        RunSummary summary = run("rabbit-v5", "MQTT_5", "v5/#", "v5/{client}", 1);

        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.count(Count.CONNECTS_OK)).isZero();
        assertThat(summary.count(Count.CONNECTS_FAILED)).isEqualTo(4);
        assertThat(summary.verdictLine()).startsWith("FAILED: no connection succeeded: 4 connect(s) failed")
                .contains("the broker may speak only MQTT 3.1.1");
        assertThat(summary.count(Count.PUBLISHED)).isZero();
    }

    @Test
    void qos2_failsWithTheProtocolViolationAndTheTrueCounts() {
        RunSummary summary = run("rabbit-qos2", "MQTT_3_1_1", "q2/#", "q2/{client}", 2);

        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("the broker broke the MQTT protocol")
                .contains("PUBACK must not be received for a QoS 2 PUBLISH");
        assertThat(summary.failures).anySatisfy(r -> {
            assertThat(r.kind).isEqualTo(FailureTally.Kind.PROTOCOL_VIOLATION);
            assertThat(r.reason).contains("PUBACK must not be received for a QoS 2 PUBLISH");
            assertThat(r.sampler).isEqualTo("connect pub");
        });
        // What left the clients is booked as published; none of it was acknowledged, all of it is failed.
        long sent = summary.count(Count.PUBLISHED);
        assertThat(sent).as(summary.toTable()).isPositive();
        assertThat(summary.count(Count.ACKNOWLEDGED)).isZero();
        assertThat(summary.count(Count.PUBLISH_FAILED)).isEqualTo(100);
        assertThat(summary.count(Count.PUBLISH_FAILED) - summary.count(Count.PUBLISH_NOT_SENT)).isEqualTo(sent);
        // The broker delivered what it took: this run's messages, delivered without acknowledgement, not foreign ones.
        assertThat(summary.delivery.expected).isZero();
        assertThat(summary.delivery.deliveredUnacknowledged).isPositive()
                .isEqualTo(summary.count(Count.RECEIVED) - summary.count(Count.DUPLICATES));
        assertThat(summary.delivery.receivedFromUnknownStreams).isZero();
        assertThat(summary.verdictLine()).contains(summary.delivery.deliveredUnacknowledged
                + " message(s) delivered that the broker never acknowledged");
    }

    @Test
    void sharedSubscriptionItCannotServe_saysTheGroupReceivedNothing() {
        RunSummary summary = run("rabbit-share", "MQTT_3_1_1", "$share/perf/sh/#", "sh/{client}", 1);

        // RabbitMQ 3.10 grants $share/perf/sh/# as a plain filter: no shared subscriptions, not loss.
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(100);
        assertThat(summary.count(Count.SHARED_GROUPS_UNSERVED)).isEqualTo(1);
        assertThat(summary.count(Count.UNSERVED_SHARED_DELIVERIES)).isEqualTo(100);
        assertThat(summary.count(Count.LOST)).isZero();
        assertThat(summary.verdictLine()).contains("the broker probably does not support shared subscriptions")
                .contains("shared group $share/perf/sh/# received none of the 100 messages its filter matches, though"
                        + " the broker granted the filter at MQTT 3.1.1");
    }
}
