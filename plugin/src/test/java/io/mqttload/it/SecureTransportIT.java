package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.core.EngineRuntime;
import io.mqttload.core.RunSummary;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;
import io.mqttload.testsupport.TestCertificates;

/** TLS with a certificate made by the test, host name verification, mutual TLS, WebSocket and secure WebSocket. */
class SecureTransportIT {
    private static final int MESSAGES = 200;

    @TempDir
    static Path dir;

    private static TestCertificates certs;

    @BeforeAll
    static void makeCertificates() {
        certs = TestCertificates.generate(dir.resolve("certs"));
    }

    private static MqttConnectionConfig tls(int port) {
        MqttConnectionConfig c = connection("localhost", port, "MQTT_5");
        c.setProperty("transport", "TLS");
        c.setProperty("trustStorePath", certs.trustStore().toString());
        c.setProperty("trustStorePassword", TestCertificates.PASSWORD);
        return c;
    }

    private static RunResult pubSub(MqttConnectionConfig config) {
        HashTree plan = PlanBuilder.testPlan("transport")
                .config(config)
                .threadGroup("t", 1, 1)
                .add(connect("sub", 1, "{engine}-s"))
                .add(subscribe("sub", "secure/#", 1))
                .add(connect("pub", 2, "{engine}-p-{client}"))
                .add(loop(MESSAGES / 10), publish("pub", "secure/{client}", 1, 10, "ASYNC"))
                .add(disconnect("pub"))
                .add(disconnect("sub"))
                .build();
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60),
                Map.of("mqttload.resultsDir", dir.toString(), "mqttload.progressSeconds", "0"));
    }

    private static RunResult connectOnly(MqttConnectionConfig config) {
        HashTree plan = PlanBuilder.testPlan("connect").config(config).threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-c")).build();
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60),
                Map.of("mqttload.resultsDir", dir.toString(), "mqttload.progressSeconds", "0"));
    }

    private static void assertAllDelivered(RunResult run) {
        RunSummary summary = EngineRuntime.lastSummary();
        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(summary.delivery.expected).isEqualTo(MESSAGES);
        assertThat(summary.count("received")).isEqualTo(MESSAGES);
        assertThat(summary.verdict()).isEqualTo(RunSummary.Verdict.NO_LOSS);
    }

    @Test
    void tls_withTheTestsOwnCertificate_deliversEveryMessage() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder().withTls(certs).start()) {
            assertAllDelivered(pubSub(tls(broker.tlsPort())));
        }
    }

    @Test
    void tls_certificateForAnotherHost_failsUnlessVerificationIsTurnedOff() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder()
                .withTls(certs.serverWrongHostKeyStoreJks()).start()) {
            RunResult verified = connectOnly(tls(broker.tlsPort()));
            assertThat(verified.failures()).hasSize(1);
            assertThat(verified.failures().get(0).getResponseMessage()).contains("TLS handshake failed");

            RunResult unverified = connectOnly(with(tls(broker.tlsPort()), "verifyHostname", "false"));
            assertThat(unverified.failures()).as(unverified.describe()).isEmpty();
        }
    }

    @Test
    void mutualTls_requiresTheClientCertificate() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder().withTls(certs)
                .withClientCertificates(certs, EmbeddedHiveMqBroker.ClientAuthentication.REQUIRED).start()) {
            RunResult without = connectOnly(tls(broker.tlsPort()));
            assertThat(without.failures()).as(without.describe()).hasSize(1);

            MqttConnectionConfig withCertificate = tls(broker.tlsPort());
            withCertificate.setProperty("keyStorePath", certs.clientKeyStore().toString());
            withCertificate.setProperty("keyStorePassword", TestCertificates.PASSWORD);
            assertAllDelivered(pubSub(withCertificate));
        }
    }

    @Test
    void webSocket_onHiveMq_deliversEveryMessage() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder().withWebSocket().start()) {
            MqttConnectionConfig ws = connection("127.0.0.1", broker.webSocketPort(), "MQTT_5");
            ws.setProperty("transport", "WEBSOCKET");
            ws.setProperty("webSocketPath", EmbeddedHiveMqBroker.WEBSOCKET_PATH);
            assertAllDelivered(pubSub(ws));
        }
    }

    @Test
    void secureWebSocket_onHiveMq_deliversEveryMessage() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder().withWebSocket().withTls(certs).start()) {
            MqttConnectionConfig wss = tls(broker.secureWebSocketPort());
            wss.setProperty("transport", "SECURE_WEBSOCKET");
            wss.setProperty("webSocketPath", EmbeddedHiveMqBroker.WEBSOCKET_PATH);
            assertAllDelivered(pubSub(wss));
        }
    }

    @Test
    void webSocket_onMosquitto_deliversEveryMessage() {
        MosquittoBroker.assumeInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().withWebSocket().start()) {
            MqttConnectionConfig ws = connection("127.0.0.1", broker.webSocketPort(), "MQTT_3_1_1");
            ws.setProperty("transport", "WEBSOCKET");
            ws.setProperty("webSocketPath", "/mqtt");
            assertAllDelivered(pubSub(ws));
        }
    }
}
