package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.EngineSummary;
import io.mqttload.measure.Latency;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RecordClientCertificates;
import io.mqttload.testsupport.RunResult;
import io.mqttload.testsupport.TestCertificates;

/**
 * A certificate per client, from a key store path or alias with placeholders, against a broker that requires client
 * certificates and checks them against its CA; and the connect latency by phase, over TLS and without.
 */
class ClientCertificatesIT {
    @TempDir
    static Path dir;

    private static final RecordClientCertificates RECORD = new RecordClientCertificates();
    private static TestCertificates certs;
    /**
     * One broker for the class: its TLS listener requires a client certificate signed by the test CA, and it records
     * which one each client showed (forgotten before each test, whose clients have the ids of the others); its TCP
     * listener has no TLS.
     */
    private static EmbeddedHiveMqBroker broker;

    @BeforeAll
    static void startBroker() {
        certs = TestCertificates.generate(dir.resolve("certs"));
        broker = EmbeddedHiveMqBroker.builder().withTls(certs)
                .withClientCertificates(certs, EmbeddedHiveMqBroker.ClientAuthentication.REQUIRED)
                .withExtension(RECORD).start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @BeforeEach
    void forgetTheCertificatesSeen() {
        RECORD.clear();
    }

    private static MqttConnectionConfig tls(int port) {
        MqttConnectionConfig c = connection("localhost", port, "MQTT_5");
        c.setProperty("transport", "TLS");
        c.setProperty("trustStorePath", certs.trustStore().toString());
        c.setProperty("trustStorePassword", TestCertificates.PASSWORD);
        c.setProperty("keyStorePassword", TestCertificates.PASSWORD);
        return c;
    }

    /** {@code threads} threads open {@code clients} clients each, ids {@code <engine>-<thread>-<client>}, and close them. */
    private static RunResult connectAll(MqttConnectionConfig config, int threads, int clients) {
        HashTree plan = PlanBuilder.testPlan("client-certificates").config(config).threadGroup("t", threads, 1)
                .add(connect("c", clients, "{engine}-{thread}-{client}"))
                .add(disconnect("c"))
                .build();
        // The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out the
        // question (3 s) at its end (RunReportIT checks the question).
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir", dir.toString(),
                "mqttload.progressSeconds", "0", "mqttload.brokerVersionTimeoutMs", "0"));
    }

    /** The client id's {@code <thread>-<client>} suffix. */
    private static String device(String clientId) {
        String[] parts = clientId.split("-");
        return parts[parts.length - 2] + "-" + parts[parts.length - 1];
    }

    @Test
    void keyStorePathWithPlaceholders_eachClientPresentsTheCertificateOfItsOwnFile() {
        Path devices = dir.resolve("devices");
        certs.writeClientKeyStores(devices, "device-1", 3);
        certs.writeClientKeyStores(devices, "device-2", 3);
        MqttConnectionConfig config = tls(broker.tlsPort());
        config.setProperty("keyStorePath", devices.resolve("device-{thread}-{client}.p12").toString());
        RunResult run = connectAll(config, 2, 3);

        assertThat(run.failures()).as(run.describe()).isEmpty();
        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary.count(Count.CONNECTS_OK)).isEqualTo(6);
        assertThat(summary.setup().steps.get(0).settings).containsEntry("TLS", "a certificate per client");
        Map<String, String> subjects = RECORD.subjects();
        assertThat(subjects).hasSize(6);
        assertThat(new HashSet<>(subjects.values())).hasSize(6);
        subjects.forEach((id, subject) -> assertThat(subject).as(id).isEqualTo("CN=device-" + device(id)));
    }

    @Test
    void keyStoreAliasWithPlaceholders_eachClientPresentsItsEntryOfOneSharedFile() {
        Path shared = certs.writeClientKeyStore(dir.resolve("shared.p12"),
                List.of("device-1-0", "device-1-1", "device-2-0", "device-2-1"), true);
        MqttConnectionConfig config = tls(broker.tlsPort());
        config.setProperty("keyStorePath", shared.toString());
        config.setProperty("keyStoreAlias", "device-{thread}-{client}");
        RunResult run = connectAll(config, 2, 2);

        assertThat(run.failures()).as(run.describe()).isEmpty();
        Map<String, String> subjects = RECORD.subjects();
        assertThat(subjects).hasSize(4);
        assertThat(new HashSet<>(subjects.values())).hasSize(4);
        subjects.forEach((id, subject) -> assertThat(subject).as(id).isEqualTo("CN=device-" + device(id)));
    }

    @Test
    void aClientWhoseCertificateTheBrokerDoesNotTrust_isRefusedWhileTheOthersConnect() {
        Path devices = dir.resolve("mixed");
        certs.writeClientKeyStores(devices, "device-1", 4);
        // Client 2's certificate is signed by a CA the broker does not know.
        certs.writeClientKeyStore(devices.resolve("device-1-2.p12"), List.of("device-1-2"), false);
        MqttConnectionConfig config = tls(broker.tlsPort());
        config.setProperty("keyStorePath", devices.resolve("device-{thread}-{client}.p12").toString());
        RunResult run = connectAll(config, 1, 4);

        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary.count(Count.CONNECTS_OK)).as(run.describe()).isEqualTo(3);
        assertThat(summary.count(Count.CONNECTS_FAILED)).as(run.describe()).isEqualTo(1);
        SampleResult connect = run.samples().get(0);
        assertThat(connect.isSuccessful()).isFalse();
        assertThat(connect.getResponseMessage()).contains("connected 3 of 4", "-1-2: TLS handshake failed",
                "certificate_unknown").doesNotContain("MQTT_3_1_1").doesNotContain("\n");
        assertThat(RECORD.subjects().values()).containsExactlyInAnyOrder("CN=device-1-0", "CN=device-1-1",
                "CN=device-1-3");
    }

    @Test
    void overTls_theConnectPhasesAreMeasuredAndAddUpToTheConnect() {
        Path devices = dir.resolve("phases");
        certs.writeClientKeyStores(devices, "device-1", 1);
        MqttConnectionConfig config = tls(broker.tlsPort());
        config.setProperty("keyStorePath", devices.resolve("device-{thread}-{client}.p12").toString());
        RunResult run = connectAll(config, 1, 1);

        assertThat(run.failures()).as(run.describe()).isEmpty();
        RunSummary summary = JvmRun.lastSummary();
        LatencyStats whole = summary.latencyOf(Latency.CONNECT);
        long sum = 0;
        for (Latency phase : List.of(Latency.CONNECT_TCP, Latency.CONNECT_TLS,
                Latency.CONNECT_CONNACK)) {
            LatencyStats s = summary.latencyOf(phase);
            assertThat(s.count).as(phase.key()).isEqualTo(1);
            assertThat(s.min).as(phase.key()).isPositive();
            assertThat(s.max).as(phase.key()).isLessThanOrEqualTo(whole.max);
            sum += s.max;
            assertThat(summary.figures().latencyMicros).containsKey(phase.key());
        }
        // One connect: each histogram holds one value, to HdrHistogram's three significant digits.
        assertThat((double) sum).isCloseTo(whole.max, offset(resolution(whole.max)));
        assertThat(summary.toTable()).contains("connect: TCP", "connect: TLS handshake", "connect: CONNACK");
    }

    /** Three phases and the whole, each within a thousandth of its value (three significant digits), and a microsecond. */
    private static double resolution(long micros) {
        return 4 * (micros / 1000.0 + 1);
    }

    @Test
    void withoutTls_theTlsPhaseIsAbsent() {
        RunResult run = connectAll(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"), 1, 3);

        assertThat(run.failures()).as(run.describe()).isEmpty();
        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary.latencyOf(Latency.CONNECT).count).isEqualTo(3);
        assertThat(summary.latencyOf(Latency.CONNECT_TCP).count).isEqualTo(3);
        assertThat(summary.latencyOf(Latency.CONNECT_CONNACK).count).isEqualTo(3);
        assertThat(summary.latencyOf(Latency.CONNECT_TLS).count).isZero();
        EngineSummary figures = summary.figures();
        assertThat(figures.latencyMicros).containsKeys("connectTcp", "connectConnack").doesNotContainKey("connectTls");
        assertThat(summary.toTable()).contains("connect: TCP").doesNotContain("TLS handshake");
    }
}
