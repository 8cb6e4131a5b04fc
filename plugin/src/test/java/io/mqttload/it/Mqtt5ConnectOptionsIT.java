package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RecordConnects;
import io.mqttload.testsupport.RunResult;
import io.mqttload.testsupport.TcpProxy;

/**
 * The MQTT Connection's will message and MQTT 5 connect properties against both real brokers: what the CONNECT
 * carries (seen by a HiveMQ CE extension), what the brokers do with it (a will published when a connection is cut,
 * after its delay; fewer unacknowledged messages in flight; a message larger than the client's maximum packet size not
 * delivered), enhanced authentication accepted or refused with its reason code, and every bad value named.
 */
class Mqtt5ConnectOptionsIT {
    private static final String AUTH_METHOD = "mqttload-token";
    private static final String AUTH_DATA = "s3cret";
    private static final RecordConnects RECORDER = new RecordConnects(AUTH_METHOD,
            AUTH_DATA.getBytes(StandardCharsets.UTF_8));
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);
    /** Longest wait for anything a broker does at once. */
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private static EmbeddedHiveMqBroker hivemq;
    private static MosquittoBroker mosquitto;

    @TempDir
    static Path results;

    @BeforeAll
    static void startBrokers() {
        hivemq = EmbeddedHiveMqBroker.builder().withExtension(RECORDER).start();
        if (MosquittoBroker.isInstalled()) {
            // Few queued messages per client, so that what the receive maximum keeps out of flight shows as loss.
            mosquitto = MosquittoBroker.builder().withSetting("max_queued_messages 5").start();
        }
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

    private static int port(String broker) {
        if (broker.equals("hivemq")) {
            return hivemq.tcpPort();
        }
        MosquittoBroker.requireInstalled();
        return mosquitto.tcpPort();
    }

    private static RunResult run(HashTree plan) {
        return JMeterTestEngine.run(plan, RUN_TIMEOUT, properties());
    }

    private static Map<String, String> properties() {
        // The broker is not asked its version: the will tests count the load's own connections through a proxy.
        return Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0",
                "mqttload.drainTimeoutMs", "3000", "mqttload.brokerVersionTimeoutMs", "0");
    }

    // ---- will message ----

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"hivemq, MQTT_5", "hivemq, MQTT_3_1_1", "mosquitto, MQTT_5", "mosquitto, MQTT_3_1_1"})
    void will_isPublishedWhenTheConnectionIsCut(String broker, String version) throws Exception {
        String topic = "will/" + broker + "/" + version;
        MqttConnectionConfig config = with(with(with(with(connection("127.0.0.1", 0, version), "willTopic", topic),
                "willPayload", "gone ✓"), "willQos", "1"), "willRetain", "false");
        WillArrival will = cutAndAwaitWill(broker, config, "w-" + broker + "-" + version, topic, Duration.ofSeconds(0));

        assertThat(will.message.getPayloadAsBytes()).asString(StandardCharsets.UTF_8).isEqualTo("gone ✓");
        assertThat(will.message.getQos()).isEqualTo(MqttQos.AT_LEAST_ONCE);
        assertThat(will.message.isRetain()).isFalse();
        assertThat(will.afterCut).as("no will delay").isLessThan(PROMPTLY);
        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary.count(Count.CONNECTIONS_LOST)).as("the suite saw the cut too").isEqualTo(1);
    }

    /**
     * The brokers differ when the session ends with the connection (session expiry 0): HiveMQ CE publishes the will
     * at the earlier of the delay and the session's end, so at once; Mosquitto 2.0.11 waits for the delay anyway. With
     * a session that outlives the connection both wait. Both check pending wills once a second, so a delayed will
     * comes up to about a second after its delay.
     */
    @ParameterizedTest(name = "{0}, session expiry {1} s")
    @CsvSource({"hivemq, 60, true", "mosquitto, 60, true", "hivemq, 0, false", "mosquitto, 0, true"})
    void willDelay_isHonoured(String broker, int sessionExpirySeconds, boolean delayed) throws Exception {
        Duration delay = Duration.ofSeconds(3);
        String topic = "will-delay/" + broker + "/" + sessionExpirySeconds;
        MqttConnectionConfig config = with(with(with(with(connection("127.0.0.1", 0, "MQTT_5"), "willTopic", topic),
                "willPayload", "late"), "willDelaySeconds", Long.toString(delay.getSeconds())), "sessionExpirySeconds",
                Integer.toString(sessionExpirySeconds));
        WillArrival will = cutAndAwaitWill(broker, config, "w-delay-" + broker + "-" + sessionExpirySeconds, topic, delay);

        assertThat(will.message.getPayloadAsBytes()).asString(StandardCharsets.UTF_8).isEqualTo("late");
        if (delayed) {
            // Timed from just before the cut; the broker starts counting when it sees the connection gone, later still.
            assertThat(will.afterCut).as("not before the delay").isGreaterThanOrEqualTo(delay.minusMillis(50));
            assertThat(will.afterCut).as("the delay and the broker's once-a-second check").isLessThan(delay.plusSeconds(3));
        } else {
            assertThat(will.afterCut).as("at once: the session ended first").isLessThan(delay.minusSeconds(1));
        }
    }

    private static final class WillArrival {
        final Mqtt5Publish message;
        final Duration afterCut;

        WillArrival(Mqtt5Publish message, Duration afterCut) {
            this.message = message;
            this.afterCut = afterCut;
        }
    }

    /**
     * Runs one client with {@code config}'s will through a proxy that the test cuts once the client has published
     * (so its CONNECT was accepted), and returns the will as a subscriber of its own saw it. The client publishes at
     * QoS 0 (nothing left waiting for an acknowledgement) until the cut fails its sample, which stops the run; it does
     * not reconnect, which would cancel a delayed will.
     */
    private static WillArrival cutAndAwaitWill(String broker, MqttConnectionConfig config, String clientId, String topic,
            Duration delay) throws Exception {
        int brokerPort = port(broker);
        BlockingQueue<Mqtt5Publish> wills = new LinkedBlockingQueue<>();
        Mqtt5AsyncClient observer = Mqtt5Client.builder().identifier("will-observer-" + broker)
                .serverHost("127.0.0.1").serverPort(brokerPort).buildAsync();
        observer.publishes(MqttGlobalPublishFilter.ALL, wills::add);
        observer.connect().get(10, TimeUnit.SECONDS);
        observer.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send().get(10, TimeUnit.SECONDS);
        try (TcpProxy proxy = TcpProxy.to("127.0.0.1", brokerPort)) {
            config.setProperty("port", Integer.toString(proxy.port()));
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace",
                    "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "50");
            MqttConnectSampler connectOnce = with(connect("dying", 1, clientId), "reconnectAttempts", "0");
            HashTree plan = PlanBuilder.testPlan("will").config(config)
                    .threadGroup("t", 1, PlanBuilder.FOREVER).duration(Duration.ofSeconds(30))
                    .onSampleError(AbstractThreadGroup.ON_SAMPLE_ERROR_STOPTEST)
                    .add(onceOnly(), connectOnce)
                    .add(publish("dying", "alive/" + clientId, 0, 1, "SYNC"), pace)
                    .build();
            CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> run(plan));
            await("the client connected and published").atMost(Duration.ofSeconds(20))
                    .until(() -> run.isDone() || JvmRun.running()
                            .map(r -> r.context().metrics().sum(Count.ACKNOWLEDGED) > 0).orElse(false));
            assertThat(run).as("the run must still be going").isNotDone();
            assertThat(wills).as("no will while the client is connected").isEmpty();
            long cut = System.nanoTime();
            proxy.cut();
            Mqtt5Publish will = wills.poll(delay.plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
            Duration afterCut = Duration.ofNanos(System.nanoTime() - cut);
            RunResult result = run.get(RUN_TIMEOUT.getSeconds(), TimeUnit.SECONDS);
            assertThat(will).as("the will within %s of the cut; run: %s", delay.plus(PROMPTLY), result.describe())
                    .isNotNull();
            assertThat(proxy.accepted()).as("one connection, no reconnect").isEqualTo(1);
            assertThat(result.failures()).as(result.describe()).isNotEmpty()
                    .allSatisfy(f -> assertThat(f.getSampleLabel()).isEqualTo("publish dying"));
            return new WillArrival(will, afterCut);
        } finally {
            observer.disconnect().get(10, TimeUnit.SECONDS);
        }
    }

    // ---- what the CONNECT carries, seen by the broker ----

    @Test
    void connectProperties_reachTheBroker() {
        MqttConnectionConfig config = connection("127.0.0.1", hivemq.tcpPort(), "MQTT_5");
        Map<String, String> fields = Map.of("receiveMaximum", "7", "maximumPacketSize", "4096", "topicAliasMaximum", "3",
                "userProperties", "team = load\nrun=42\nrun=43\nnote=", "willTopic", "props/will", "willPayload", "bye",
                "willQos", "2", "willRetain", "true", "willDelaySeconds", "9", "authMethod", AUTH_METHOD);
        fields.forEach(config::setProperty);
        config.setProperty("authData", "czNjcmV0");
        config.setProperty("authDataEncoding", "BASE64");
        RunResult result = run(PlanBuilder.testPlan("connect-properties").config(config).threadGroup("t", 1, 1)
                .add(connect("c", 1, "mqttload-props")).build());

        assertThat(result.failures()).as(result.describe()).isEmpty();
        RecordConnects.Connect sent = RECORDER.connect("mqttload-props");
        assertThat(sent).as("the broker saw the CONNECT").isNotNull();
        assertThat(sent.receiveMaximum).isEqualTo(7);
        assertThat(sent.maximumPacketSize).isEqualTo(4096);
        assertThat(sent.topicAliasMaximum).isEqualTo(3);
        assertThat(sent.userProperties).containsExactly("team=load", "run=42", "run=43", "note=");
        assertThat(sent.willTopic).isEqualTo("props/will");
        assertThat(sent.willPayload).isEqualTo("bye");
        assertThat(sent.willQos).isEqualTo(2);
        assertThat(sent.willRetain).isTrue();
        assertThat(sent.willDelaySeconds).isEqualTo(9);
        assertThat(sent.authMethod).isEqualTo(AUTH_METHOD);
        assertThat(sent.authData).asString(StandardCharsets.UTF_8).isEqualTo(AUTH_DATA);
    }

    @Test
    void nothingSet_sendsMqtt5sDefaults() {
        RunResult result = run(PlanBuilder.testPlan("defaults").config(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_5"))
                .threadGroup("t", 1, 1).add(connect("c", 1, "mqttload-defaults")).build());

        assertThat(result.failures()).as(result.describe()).isEmpty();
        RecordConnects.Connect sent = RECORDER.connect("mqttload-defaults");
        assertThat(sent).as("the broker saw the CONNECT").isNotNull();
        assertThat(sent.receiveMaximum).isEqualTo(65_535);
        assertThat(sent.maximumPacketSize).isEqualTo(268_435_460);
        assertThat(sent.topicAliasMaximum).isZero();
        assertThat(sent.userProperties).isEmpty();
        assertThat(sent.willTopic).isNull();
        assertThat(sent.authMethod).isNull();
    }

    // ---- what the brokers do with it ----

    /**
     * A slow subscriber (20 ms a message) gets a burst of 50 QoS 1 messages. Mosquitto keeps at most the client's
     * receive maximum in flight and queues 5 more (max_queued_messages 5); the rest is dropped, which the suite
     * reports as lost. With a receive maximum of 100 the whole burst is in flight and nothing is lost.
     */
    @ParameterizedTest(name = "receiveMaximum {0}")
    @CsvSource({"1, true", "100, false"})
    void receiveMaximum_boundsWhatMosquittoSendsBeforeAnAcknowledgement(String receiveMaximum, boolean loses) {
        HashTree plan = PlanBuilder.testPlan("receive-maximum")
                .config(with(connection("127.0.0.1", port("mosquitto"), "MQTT_5"), "receiveMaximum", receiveMaximum))
                .threadGroup("t", 1, 1)
                .add(with(connect("sub", 1, "{engine}-rm-sub"), "consumeDelayMs", "20"))
                .add(subscribe("sub", "rm/#", 1))
                .add(connect("pub", 1, "{engine}-rm-pub"))
                .add(publish("pub", "rm/1", 1, 50, "ASYNC"))
                .build();
        RunResult result = run(plan);
        RunSummary summary = JvmRun.lastSummary();

        assertThat(result.failures()).as(result.describe()).isEmpty();
        assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(50);
        if (loses) {
            // How many the consumer acknowledged while the burst came in is how fast the publisher ran beside it (a
            // slow burst on a busy machine leaves less to drop): the receive maximum shows as some loss, with at least
            // the one in flight and the five queued received.
            assertThat(summary.delivery.lost()).as(summary.toTable()).isPositive();
            assertThat(summary.count(Count.RECEIVED)).as("1 in flight, 5 queued, and what the consumer acknowledged"
                    + " meanwhile").isBetween(6L, 49L);
        } else {
            assertThat(summary.delivery.lost()).as(summary.toTable()).isZero();
            assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        }
    }

    /**
     * Two subscribers of the same topics, one with a maximum packet size of 1024 bytes: the brokers do not send it
     * the 2 KB messages (MQTT 5 §3.1.2.11.4) and the suite counts them as lost for that Subscribe sampler only.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hivemq", "mosquitto"})
    void maximumPacketSize_keepsLargerMessagesFromTheClient(String broker) {
        int brokerPort = port(broker);
        MqttConnectionConfig small = with(connection("127.0.0.1", brokerPort, "MQTT_5"), "maximumPacketSize", "1024");
        HashTree plan = PlanBuilder.testPlan("maximum-packet-size")
                .config(connection("127.0.0.1", brokerPort, "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("big", 1, "{engine}-mps-b-" + broker.charAt(0)))
                .add(subscribe("big", "mps/#", 1))
                .add(connect("small", 1, "{engine}-mps-s-" + broker.charAt(0)), small)
                .add(subscribe("small", "mps/#", 1))
                .add(connect("pub", 1, "{engine}-mps-p-" + broker.charAt(0)))
                .add(with(publish("pub", "mps/large", 1, 10, "SYNC"), "payloadSize", "2048"))
                .add(with(publish("pub", "mps/small", 1, 10, "SYNC"), "payloadSize", "100"))
                .build();
        RunResult result = run(plan);
        RunSummary summary = JvmRun.lastSummary();

        assertThat(result.failures()).as(result.describe()).isEmpty();
        assertThat(summary.delivery.bySampler.get("subscribe big")).as(summary.toTable()).startsWith(20, 20);
        assertThat(summary.delivery.bySampler.get("subscribe small")).as(summary.toTable()).startsWith(20, 10);
        assertThat(summary.delivery.lost()).isEqualTo(10);
        assertThat(summary.verdict()).isEqualTo(Verdict.LOSS);
    }

    // ---- enhanced authentication ----

    @Test
    void enhancedAuth_mosquittoWithoutAPlugin_refusesWithBadAuthenticationMethod() {
        MqttConnectionConfig config = with(with(connection("127.0.0.1", port("mosquitto"), "MQTT_5"), "authMethod",
                AUTH_METHOD), "authData", AUTH_DATA);
        RunResult result = run(PlanBuilder.testPlan("auth").config(config).threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-auth-m")).build());
        RunSummary summary = JvmRun.lastSummary();

        SampleResult refused = result.byLabel("connect c").get(0);
        assertThat(refused.isSuccessful()).isFalse();
        assertThat(refused.getResponseCode()).isEqualTo("CONNECT_FAILED");
        assertThat(refused.getResponseMessage()).contains("CONNACK refused: BAD_AUTHENTICATION_METHOD (0x8c)")
                .doesNotContain(AUTH_DATA);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("no connection succeeded")
                .contains("BAD_AUTHENTICATION_METHOD (0x8c)");
    }

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource({
        "mqttload-token, s3cret, ''",
        "mqttload-token, wrong, CONNACK refused: NOT_AUTHORIZED (0x87): wrong authentication data",
        "SCRAM-SHA-256, s3cret, CONNACK refused: BAD_AUTHENTICATION_METHOD (0x8c): not this broker's method"})
    void enhancedAuth_hiveMqExtension_decidesOnMethodAndData(String method, String data, String refusal) {
        MqttConnectionConfig config = with(with(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_5"), "authMethod",
                method), "authData", data);
        RunResult result = run(PlanBuilder.testPlan("auth").config(config).threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-auth-h")).build());

        if (refusal.isEmpty()) {
            assertThat(result.failures()).as(result.describe()).isEmpty();
            assertThat(JvmRun.lastSummary().count(Count.CONNECTS_OK)).isEqualTo(1);
        } else {
            assertThat(result.failures()).as(result.describe()).singleElement()
                    .satisfies(f -> assertThat(f.getResponseMessage()).contains(refusal));
        }
    }

    // ---- bad values ----

    /**
     * One of each kind of refusal, as JMeter shows it: a value its declaration refuses (every such value:
     * SettingsDeclarationTest), a rule no single setting sees and an MQTT 5 option with MQTT 3.1.1 (every one:
     * ConnectOptionsTest).
     */
    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("MQTT_5", "receiveMaximum", "0", "receiveMaximum = '0': must be between 1 and 65535"),
                Arguments.of("MQTT_5", "willPayload", "bye", "willPayload = 'bye': a will message needs a willTopic"),
                Arguments.of("MQTT_3_1_1", "receiveMaximum", "10", "receiveMaximum = '10': an MQTT 5 option"));
    }

    @ParameterizedTest(name = "{0} {1} = {2}")
    @MethodSource("badValues")
    void badValue_failsTheFirstConnectNamingFieldAndValue(String version, String field, String value, String message) {
        MqttConnectionConfig config = with(connection("127.0.0.1", hivemq.tcpPort(), version), field, value);
        RunResult result = run(PlanBuilder.testPlan("bad").config(config).threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-bad")).build());

        assertThat(result.failures()).as(result.describe()).singleElement().satisfies(f -> {
            assertThat(f.getResponseCode()).isEqualTo("INVALID_SETTING");
            assertThat(f.getResponseMessage()).startsWith(message);
        });
        assertThat(JvmRun.lastSummary().verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void willDelay_withMqtt311_isRefusedButAWillIsNot() {
        MqttConnectionConfig delayed = with(with(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_3_1_1"), "willTopic",
                "w"), "willDelaySeconds", "5");
        RunResult refused = run(PlanBuilder.testPlan("bad").config(delayed).threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-bad-delay")).build());
        assertThat(refused.failures()).singleElement().satisfies(f -> assertThat(f.getResponseMessage())
                .startsWith("willDelaySeconds = '5': an MQTT 5 option, which MQTT 3.1.1 does not have"));

        MqttConnectionConfig plain = with(connection("127.0.0.1", hivemq.tcpPort(), "MQTT_3_1_1"), "willTopic", "w");
        RunResult accepted = run(PlanBuilder.testPlan("will-3").config(plain).threadGroup("t", 1, 1)
                .add(connect("c", 1, "mqttload-will-311")).build());
        assertThat(accepted.failures()).as(accepted.describe()).isEmpty();
        RecordConnects.Connect sent = RECORDER.connect("mqttload-will-311");
        assertThat(sent).as("the broker saw the CONNECT").isNotNull();
        assertThat(sent.willTopic).isEqualTo("w");
        assertThat(sent.willQos).isZero();
    }
}
