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

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlainShareFilters;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * EMQ's fan-in: publishers on test/{client}, subscribers sharing $share/perf/test/#. Each message
 * must reach exactly one member of the group.
 */
class SharedSubscriptionIT {
    private static final int PUBLISHERS = 20;
    private static final int SUBSCRIBERS = 5;
    private static final int SAMPLES = 30;

    /** A HiveMQ CE, and one that takes share filters as ordinary ones: each param's run ends with its clients gone. */
    private static EmbeddedHiveMqBroker hivemq;
    private static EmbeddedHiveMqBroker plainShare;

    @TempDir
    Path results;

    @BeforeAll
    static void startBrokers() {
        hivemq = EmbeddedHiveMqBroker.start();
        plainShare = EmbeddedHiveMqBroker.builder().withExtension(new PlainShareFilters()).start();
    }

    @AfterAll
    static void stopBrokers() {
        if (plainShare != null) {
            plainShare.close();
        }
        if (hivemq != null) {
            hivemq.close();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"hivemq, MQTT_5", "hivemq, MQTT_3_1_1", "mosquitto, MQTT_5", "mosquitto, MQTT_3_1_1"})
    void sharedGroup_splitsMessages_eachDeliveredOnce(String broker, String version) throws Exception {
        if (broker.equals("mosquitto")) {
            MosquittoBroker.requireInstalled();
        }
        // A Mosquitto of its own (it starts in a moment); the class's HiveMQ otherwise.
        try (MosquittoBroker mosquitto = broker.equals("mosquitto")
                ? MosquittoBroker.builder().withSetting("max_queued_messages 100000").start() : null) {
            int port = mosquitto != null ? mosquitto.tcpPort() : hivemq.tcpPort();
            HashTree plan = PlanBuilder.testPlan("fan-in")
                    .config(connection("127.0.0.1", port, version))
                    .threadGroup("fan-in", 1, 1)
                    .add(connect("sub", SUBSCRIBERS, "{engine}-s-{client}"))
                    .add(subscribe("sub", "$share/perf/test/#", 1))
                    .add(connect("pub", PUBLISHERS, "{engine}-p-{client}"))
                    .add(loop(SAMPLES), publish("pub", "test/{client}", 1, PUBLISHERS, "ASYNC"))
                    .add(disconnect("pub"))
                    .add(disconnect("sub"))
                    .build();

            // The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out
            // the question (3 s) at its end (RunReportIT checks the question).
            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0", "mqttload.brokerVersionTimeoutMs", "0"));
            RunSummary summary = JvmRun.lastSummary();

            long total = (long) PUBLISHERS * SAMPLES;
            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.delivery.expected).isEqualTo(total);
            assertThat(summary.count(Count.RECEIVED)).isEqualTo(total);
            assertThat(summary.count(Count.DUPLICATES)).isZero();
            assertThat(summary.delivery.lost()).isZero();
            assertThat(summary.count(Count.SUBSCRIBING_CLIENTS)).isEqualTo(SUBSCRIBERS);
            // How a broker spreads a group's messages is its own policy: Mosquitto round-robins over the
            // members, HiveMQ CE keeps feeding a member while it keeps up (here one member took all 600).
            if (broker.equals("mosquitto")) {
                assertThat(summary.count(Count.RECEIVED_PER_CLIENT_MIN)).as("every member got a share").isPositive();
                assertThat(summary.count(Count.RECEIVED_PER_CLIENT_MAX)).as("no member got everything").isLessThan(total);
            }
            assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"MQTT_3_1_1, MQTT 3.1.1", "MQTT_5, MQTT 5"})
    void brokerThatGrantsTheShareFilterAsAnOrdinaryOne_failsSayingItProbablyHasNoSharedSubscriptions_notLoss(
            String version, String versionName) throws Exception {
        HashTree plan = PlanBuilder.testPlan("no-shared-subscriptions")
                .config(connection("127.0.0.1", plainShare.tcpPort(), version))
                .threadGroup("fan-in", 1, 1)
                .add(connect("sub", 2, "{engine}-s-{client}"))
                .add(subscribe("sub", "$share/perf/test/#", 1))
                .add(connect("pub", 2, "{engine}-p-{client}"))
                .add(loop(5), publish("pub", "test/{client}", 1, 2, "SYNC"))
                // No Disconnect sampler: its drain would wait its full timeout for the group's first message,
                // which never comes; the run end closes the clients after a short drain.
                .build();

        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "1000",
                "mqttload.brokerVersionTimeoutMs", "0"));
        RunSummary summary = JvmRun.lastSummary();

        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(summary.count(Count.SUBSCRIBE_OK)).as("the broker granted the filter").isEqualTo(2);
        // Owed to nobody, not lost: a dashboard or script reading lost must not see 100 % loss.
        assertThat(summary.count(Count.UNSERVED_SHARED_DELIVERIES)).isEqualTo(10);
        assertThat(summary.delivery.expected).isZero();
        assertThat(summary.count(Count.LOST)).isZero();
        assertThat(summary.count(Count.RECEIVED)).isZero();
        assertThat(summary.count(Count.SHARED_GROUPS_UNSERVED)).isEqualTo(1);
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        // The verdict line's wording is DeliveryCheckTest's and NotOwedTest's; the version is the connection's.
        assertThat(summary.verdictLine()).startsWith("FAILED: the broker probably does not support shared"
                + " subscriptions").contains("the broker granted the filter at " + versionName + ":");
    }
}
