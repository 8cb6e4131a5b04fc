package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import ch.qos.logback.classic.Level;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PayloadFormatIndicator;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttPublishSampler;
import io.mqttload.jmeter.MqttSubscribeSampler;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.LogCapture;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RecordSubscriptions;
import io.mqttload.testsupport.RunResult;

/**
 * MQTT 5 publish properties, subscription options and request/response against both MQTT 5 brokers: what the
 * broker forwards, what it keeps back (no local, retain handling), and what the ledger and the verdict make of it.
 * Requests no one answers fail the run by the verdict's rule alone: InMemoryFailureTest; replies sorted into answers,
 * duplicates and foreign ones: ReceiverTest.
 */
class Mqtt5MessageOptionsIT {
    private static final int REQUESTS = 40;
    /** Every SUBSCRIBE the HiveMQ broker took, by client: each test's clients have ids of their own. */
    private static final RecordSubscriptions RECORDED = new RecordSubscriptions();
    /** One broker of each for the class: each test uses topics and client ids of its own. */
    private static EmbeddedHiveMqBroker hivemq;
    private static MosquittoBroker mosquitto;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBrokers() {
        MosquittoBroker.requireInstalled();
        hivemq = EmbeddedHiveMqBroker.builder().withExtension(RECORDED).start();
        mosquitto = MosquittoBroker.builder().start();
    }

    @AfterAll
    static void stopBrokers() {
        if (mosquitto != null) {
            mosquitto.close();
        }
        if (hivemq != null) {
            hivemq.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hivemq", "mosquitto"})
    void requestResponse_everyRequestGetsItsReply_andTheRoundTripIsItsOwnLatency(String brokerName) throws Exception {
        // A shared group: each request reaches one responder, so each gets one reply.
        MqttSubscribeSampler responders = with(subscribe("resp", "$share/responders/req/#", 1), "answerRequests", "true");
        MqttPublishSampler requests = with(with(publish("req", "req/{thread}/{client}", 1, REQUESTS, "ASYNC"),
                "responseTopic", "reply/{thread}/{client}"), "correlationData", "order-7");
        HashTree plan = PlanBuilder.testPlan("request/response")
                .config(connection("127.0.0.1", port(brokerName), "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("resp", 2, "{engine}-rs{client}"))
                .add(responders)
                .add(connect("req", 2, "{engine}-rq{client}"))
                .add(subscribe("req", "reply/{thread}/{client}", 1))
                .add(requests)
                .add(disconnect("req"))
                .add(disconnect("resp"))
                .build();

        RunResult run = run(plan);
        RunSummary summary = JvmRun.lastSummary();

        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(summary.count(Count.REQUESTS_PUBLISHED)).isEqualTo(REQUESTS);
        assertThat(summary.count(Count.REPLIES_SENT)).isEqualTo(REQUESTS);
        assertThat(summary.count(Count.REPLIES_RECEIVED)).isEqualTo(REQUESTS);
        assertThat(summary.latencyOf(Latency.ROUND_TRIP).count).isEqualTo(REQUESTS);
        assertThat(summary.latencyOf(Latency.ROUND_TRIP).min).as("a round trip is at least the request's own way").isPositive();
        // Replies stay outside the delivery ledger: the requests alone are owed to the responders.
        assertThat(summary.delivery.expected).isEqualTo(REQUESTS);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(REQUESTS);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.toTable()).contains("round trip (reply)")
                .contains("request/response: " + REQUESTS + " request(s), " + REQUESTS + " repl(ies) sent, " + REQUESTS
                        + " answered, 0 failed, 0 request(s) unanswered, 0 duplicate and 0 foreign repl(ies)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hivemq", "mosquitto"})
    void publishProperties_reachSubscribersAsSent(String brokerName) throws Exception {
        ConcurrentLinkedQueue<Mqtt5Publish> seen = new ConcurrentLinkedQueue<>();
        Mqtt5AsyncClient observer = MqttClient.builder().useMqttVersion5().identifier("observer")
                .serverHost("127.0.0.1").serverPort(port(brokerName)).buildAsync();
        observer.connect().get(10, TimeUnit.SECONDS);
        observer.publishes(MqttGlobalPublishFilter.ALL, seen::add);
        observer.subscribeWith().topicFilter("props/#").qos(MqttQos.AT_LEAST_ONCE).send().get(10, TimeUnit.SECONDS);
        MqttPublishSampler withProperties = publish("pub", "props/{thread}", 1, 3, "SYNC");
        with(withProperties, "messageExpirySeconds", "600");
        with(withProperties, "contentType", "application/octet-stream");
        with(withProperties, "payloadFormat", "UNSPECIFIED");
        with(withProperties, "correlationData", "batch-42");
        with(withProperties, "userProperties", "site=plant-3\nline = 7");
        HashTree plan = PlanBuilder.testPlan("publish properties")
                .config(connection("127.0.0.1", port(brokerName), "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("pub", 1, "{engine}-pp"))
                .add(withProperties)
                .add(disconnect("pub"))
                .build();
        try {
            RunResult run = run(plan);
            assertThat(run.failures()).as(run.describe()).isEmpty();
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 3);
        } finally {
            observer.disconnect().get(10, TimeUnit.SECONDS);
        }

        for (Mqtt5Publish p : seen) {
            assertThat(p.getMessageExpiryInterval().orElse(-1)).as("remaining expiry").isBetween(590L, 600L);
            assertThat(p.getContentType()).hasValueSatisfying(t -> assertThat(t.toString())
                    .isEqualTo("application/octet-stream"));
            assertThat(p.getPayloadFormatIndicator()).contains(Mqtt5PayloadFormatIndicator.UNSPECIFIED);
            assertThat(p.getCorrelationData()).hasValueSatisfying(c -> assertThat(StandardCharsets.UTF_8.decode(c)
                    .toString()).isEqualTo("batch-42"));
            assertThat(p.getUserProperties().asList()).extracting(u -> u.getName() + "=" + u.getValue())
                    .containsExactly("site=plant-3", "line=7");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hivemq", "mosquitto"})
    void noLocal_keepsAClientsOwnMessagesFromIt_andTheLedgerOwesThemOnlyToTheOthers(String brokerName) throws Exception {
        HashTree plan = PlanBuilder.testPlan("no local")
                .config(connection("127.0.0.1", port(brokerName), "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("other", 1, "{engine}-nlo"))
                .add(subscribe("other", "own/#", 1))
                .add(connect("self", 1, "{engine}-nls"))
                .add(with(subscribe("self", "own/{thread}", 1), "noLocal", "true"))
                .add(publish("self", "own/{thread}", 1, 20, "SYNC"))
                .add(disconnect("self"))
                .add(disconnect("other"))
                .build();

        RunResult run = run(plan);
        RunSummary summary = JvmRun.lastSummary();

        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(summary.count(Count.RECEIVED)).as("only the other client gets them").isEqualTo(20);
        assertThat(summary.delivery.expected).isEqualTo(20);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hivemq", "mosquitto"})
    void retainHandling_doNotSend_keepsTheRetainedMessageFromANewSubscription(String brokerName) throws Exception {
        HashTree plan = PlanBuilder.testPlan("retain handling")
                .config(connection("127.0.0.1", port(brokerName), "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("pub", 1, "{engine}-rhp"))
                .add(with(publish("pub", "kept/{thread}", 1, 1, "SYNC"), "retain", "true"))
                .add(connect("send", 1, "{engine}-rhs"))
                .add(subscribe("send", "kept/#", 1))
                .add(connect("never", 1, "{engine}-rhn"))
                .add(with(subscribe("never", "kept/#", 1), "retainHandling", "DO_NOT_SEND"))
                .add(with(disconnect("send"), "drainTimeoutMs", "3000"))
                .add(with(disconnect("never"), "drainTimeoutMs", "0"))
                .add(disconnect("pub"))
                .build();

        run(plan);
        RunSummary summary = JvmRun.lastSummary();

        assertThat(summary.delivery.bySampler.get("subscribe send")[1]).isEqualTo(1);
        assertThat(summary.delivery.bySampler.get("subscribe never")[1]).isZero();
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(1);
    }

    @Test
    void subscriptionOptions_reachTheBroker_asSet() throws Exception {
        MqttSubscribeSampler options = subscribe("s", "opt/{thread}", 1);
        with(options, "noLocal", "true");
        with(options, "retainAsPublished", "true");
        with(options, "retainHandling", "SEND_IF_NEW");
        HashTree plan = PlanBuilder.testPlan("subscription options")
                .config(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("s", 1, "opt-set"))
                .add(options)
                .add(connect("d", 1, "opt-default"))
                .add(subscribe("d", "opt/{thread}", 0))
                .add(disconnect("s"))
                .add(disconnect("d"))
                .build();

        RunResult run = run(plan);

        assertThat(run.failures()).as(run.describe()).isEmpty();
        // The client numbers each client's SUBSCRIBEs itself, from 1: an identifier is sent, not one we choose.
        assertThat(RECORDED.of("opt-set")).containsExactly(
                "opt/1 qos=1 noLocal=true retainAsPublished=true retainHandling=SEND_IF_NEW_SUBSCRIPTION id=1");
        assertThat(RECORDED.of("opt-default")).containsExactly(
                "opt/1 qos=0 noLocal=false retainAsPublished=false retainHandling=SEND id=1");
    }

    @Test
    void mqtt5Options_onAnMqtt311Connection_failTheFirstSample_namingTheField() throws Exception {
        HashTree plan = PlanBuilder.testPlan("3.1.1")
                .config(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_3_1_1"))
                .threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-v3"))
                .add(with(subscribe("c", "v3/#", 1), "noLocal", "true"))
                .add(with(publish("c", "v3/{thread}", 1, 1, "SYNC"), "messageExpirySeconds", "30"))
                .add(disconnect("c"))
                .build();

        RunResult run = run(plan);

        List<SampleResult> subscribe = run.byLabel("subscribe c");
        assertThat(subscribe).singleElement().satisfies(s -> {
            assertThat(s.isSuccessful()).isFalse();
            assertThat(s.getResponseMessage()).contains("noLocal = 'true'").contains("MQTT 5");
        });
        assertThat(run.byLabel("publish c")).singleElement().satisfies(s -> {
            assertThat(s.isSuccessful()).isFalse();
            assertThat(s.getResponseMessage()).contains("messageExpirySeconds = '30'").contains("MQTT 3.1.1");
        });
        assertThat(JvmRun.lastSummary().verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void sessionExpiry_onAnMqtt311Connection_isSaidOnceToHaveNoEffect() throws Exception {
        try (LogCapture log = LogCapture.start()) {
            HashTree plan = PlanBuilder.testPlan("3.1.1 expiry")
                    .config(with(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_3_1_1"), "sessionExpirySeconds", "3600"))
                    .threadGroup("t", 3, 1)
                    .add(connect("c", 1, "{engine}-x3-{thread}"))
                    .add(disconnect("c"))
                    .build();

            RunResult run = run(plan);

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(log.messagesAtLeast(Level.WARN)).filteredOn(m -> m.contains("sessionExpirySeconds = 3600 has no"
                    + " effect with MQTT 3.1.1")).hasSize(1);
        }
    }

    private static int port(String brokerName) {
        return brokerName.equals("hivemq") ? hivemq.tcpPort() : mosquitto.tcpPort();
    }

    private RunResult run(HashTree plan) {
        // The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out the
        // question (3 s) at its end (RunReportIT checks the question).
        return JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir", dir.toString(),
                "mqttload.progressSeconds", "0", "mqttload.brokerVersionTimeoutMs", "0"));
    }
}
