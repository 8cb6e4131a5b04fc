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

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
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
    /** TCP, TLS, WebSocket and secure WebSocket listeners with the test CA's certificate for localhost. */
    private static EmbeddedHiveMqBroker trusted;
    /** A TLS listener whose certificate names another host. */
    private static EmbeddedHiveMqBroker wrongHost;

    /** Two brokers for the class: each test connects clients of its own, and the runs end with their disconnects. */
    @BeforeAll
    static void startBrokers() {
        certs = TestCertificates.generate(dir.resolve("certs"));
        trusted = EmbeddedHiveMqBroker.builder().withWebSocket().withTls(certs).start();
        wrongHost = EmbeddedHiveMqBroker.builder().withTls(certs.serverWrongHostKeyStoreJks()).start();
    }

    @AfterAll
    static void stopBrokers() {
        if (wrongHost != null) {
            wrongHost.close();
        }
        if (trusted != null) {
            trusted.close();
        }
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
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
    }

    private static RunResult connectOnly(MqttConnectionConfig config) {
        HashTree plan = PlanBuilder.testPlan("connect").config(config).threadGroup("t", 1, 1)
                .add(connect("c", 1, "{engine}-c")).build();
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
    }

    /**
     * The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out the
     * question (3 s) at its end (RunReportIT checks the question).
     */
    private static Map<String, String> properties() {
        return Map.of("mqttload.resultsDir", dir.toString(), "mqttload.progressSeconds", "0",
                "mqttload.brokerVersionTimeoutMs", "0");
    }

    private static void assertAllDelivered(RunResult run) {
        RunSummary summary = JvmRun.lastSummary();
        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(summary.delivery.expected).isEqualTo(MESSAGES);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(MESSAGES);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void tls_withTheTestsOwnCertificate_deliversEveryMessage() {
        assertAllDelivered(pubSub(tls(trusted.tlsPort())));
    }

    /** The one sample of a connect-only run, which must have failed as a TLS handshake, with a one-line reason. */
    private static SampleResult failedHandshake(RunResult run) {
        assertThat(run.samples()).as(run.describe()).hasSize(1);
        SampleResult connect = run.samples().get(0);
        assertThat(connect.isSuccessful()).as(run.describe()).isFalse();
        assertThat(connect.getResponseCode()).isEqualTo("CONNECT_FAILED");
        assertThat(connect.getResponseMessage()).contains("TLS handshake failed").doesNotContain("\tat ")
                .doesNotContain("\n");
        return connect;
    }

    @Test
    void tls_certificateForAnotherHost_failsUnlessVerificationIsTurnedOff() {
        SampleResult verified = failedHandshake(connectOnly(tls(wrongHost.tlsPort())));
        // The reason names the host the certificate did not match, which is what the user has to fix.
        assertThat(verified.getResponseMessage()).contains("localhost");

        RunResult unverified = connectOnly(with(tls(wrongHost.tlsPort()), "verifyHostname", "false"));
        assertThat(unverified.failures()).as(unverified.describe()).isEmpty();
    }

    @Test
    void tls_hostnameVerificationOff_stillRefusesACertificateFromAnUntrustedCa() {
        // No trust store: the JVM's default CAs, which do not include the test CA.
        MqttConnectionConfig noTrustStore = connection("localhost", wrongHost.tlsPort(), "MQTT_5");
        noTrustStore.setProperty("transport", "TLS");
        noTrustStore.setProperty("verifyHostname", "false");
        RunResult run = connectOnly(noTrustStore);
        assertThat(run.failures()).as("turning host names off must not turn the chain check off: " + run.describe())
                .hasSize(1);
        assertThat(run.failures().get(0).getResponseCode()).isEqualTo("CONNECT_FAILED");
    }

    @Test
    void tls_certificateFromAnUntrustedCa_isReportedAsATlsHandshakeFailure() {
        // The most common TLS mistake: a broker with a private CA and no trust store configured.
        MqttConnectionConfig noTrustStore = connection("localhost", trusted.tlsPort(), "MQTT_5");
        noTrustStore.setProperty("transport", "TLS");
        SampleResult failure = failedHandshake(connectOnly(noTrustStore));
        assertThat(failure.getResponseMessage()).contains("certification path");
    }

    @Test
    void tls_verifyHostnameMistyped_doesNotTurnVerificationOff() {
        // "ture" is what ${__P(verify,ture)} gives a plan; only an explicit "false" may turn verification off.
        RunResult run = connectOnly(with(tls(wrongHost.tlsPort()), "verifyHostname", "ture"));
        assertThat(run.failures()).as("a connect to a certificate for another host succeeded: " + run.describe())
                .hasSize(1);
        assertThat(run.failures().get(0).getResponseMessage()).satisfiesAnyOf(
                m -> assertThat(m).contains("verifyHostname = 'ture'"),
                m -> assertThat(m).contains("TLS handshake failed"));
    }

    @Test
    void mutualTls_requiresTheClientCertificate() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder().withTls(certs)
                .withClientCertificates(certs, EmbeddedHiveMqBroker.ClientAuthentication.REQUIRED).start()) {
            failedHandshake(connectOnly(tls(broker.tlsPort())));

            MqttConnectionConfig withCertificate = tls(broker.tlsPort());
            withCertificate.setProperty("keyStorePath", certs.clientKeyStore().toString());
            withCertificate.setProperty("keyStorePassword", TestCertificates.PASSWORD);
            assertAllDelivered(pubSub(withCertificate));
        }
    }

    @Test
    void webSocket_onHiveMq_deliversEveryMessage() {
        MqttConnectionConfig ws = connection("127.0.0.1", trusted.webSocketPort(), "MQTT_5");
        ws.setProperty("transport", "WEBSOCKET");
        ws.setProperty("webSocketPath", EmbeddedHiveMqBroker.WEBSOCKET_PATH);
        assertAllDelivered(pubSub(ws));
    }

    @Test
    void secureWebSocket_onHiveMq_deliversEveryMessage() {
        MqttConnectionConfig wss = tls(trusted.secureWebSocketPort());
        wss.setProperty("transport", "SECURE_WEBSOCKET");
        wss.setProperty("webSocketPath", EmbeddedHiveMqBroker.WEBSOCKET_PATH);
        assertAllDelivered(pubSub(wss));
    }

    @Test
    void webSocket_onMosquitto_deliversEveryMessage() {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = startMosquittoWithWebSocket()) {
            MqttConnectionConfig ws = connection("127.0.0.1", broker.webSocketPort(), "MQTT_3_1_1");
            ws.setProperty("transport", "WEBSOCKET");
            ws.setProperty("webSocketPath", "/mqtt");
            assertAllDelivered(pubSub(ws));
        }
    }

    /** Debian's mosquitto 2.0 has WebSocket support; a build without it refuses the listener, and the test is skipped. */
    private static MosquittoBroker startMosquittoWithWebSocket() {
        try {
            return MosquittoBroker.builder().withWebSocket().start();
        } catch (IllegalStateException e) {
            Assumptions.assumeFalse(String.valueOf(e.getMessage()).contains("Websockets support not available"),
                    "this mosquitto was built without WebSocket support: " + e.getMessage());
            throw e;
        }
    }
}
