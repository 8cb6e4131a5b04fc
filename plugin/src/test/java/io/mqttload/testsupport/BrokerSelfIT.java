package io.mqttload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerSelfIT {
    @Test
    void hiveMq_listensOnEveryListener_andTwoBrokersInARowWork(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.generate(dir);
        for (int round = 0; round < 2; round++) {
            int tcp;
            try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder()
                    .withWebSocket()
                    .withTls(certificates)
                    .start()) {
                tcp = broker.tcpPort();
                assertThat(FreePorts.isListening(broker.tcpPort())).isTrue();
                assertThat(FreePorts.isListening(broker.webSocketPort())).isTrue();
                handshake(certificates, broker.tlsPort(), "localhost", null);
            }
            assertThat(FreePorts.isListening(tcp)).isFalse();
        }
    }

    @Test
    void hiveMq_withTheWrongHostCertificate_failsHostnameVerification(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.generate(dir);
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder()
                .withTls(certificates.serverWrongHostKeyStoreJks())
                .start()) {
            assertThatThrownBy(() -> handshake(certificates, broker.tlsPort(), "localhost", null))
                    .isInstanceOf(SSLHandshakeException.class);
        }
    }

    @Test
    void hiveMq_requiringClientCertificates_acceptsTheTestClient(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.generate(dir);
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder()
                .withTls(certificates)
                .withClientCertificates(certificates, EmbeddedHiveMqBroker.ClientAuthentication.REQUIRED)
                .withConfig("<mqtt><queued-messages><max-queue-size>100000</max-queue-size></queued-messages></mqtt>")
                .start()) {
            SSLSession session = handshake(certificates, broker.tlsPort(), "127.0.0.1", certificates.clientKeyStore());
            assertThat(session.getLocalCertificates()).isNotEmpty();
        }
    }

    @Test
    void mosquitto_startsStopsAndRestartsOnTheSamePorts() {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder()
                .withWebSocket()
                .withSetting("max_queued_messages 100000")
                .withSetting("max_inflight_messages 0")
                .withSetting("set_tcp_nodelay true")
                .start()) {
            long firstPid = broker.pid();
            assertThat(FreePorts.isListening(broker.tcpPort())).isTrue();
            assertThat(FreePorts.isListening(broker.webSocketPort())).isTrue();

            broker.stop();
            assertThat(broker.isRunning()).isFalse();
            await().atMost(Duration.ofSeconds(5)).until(() -> !FreePorts.isListening(broker.tcpPort()));

            broker.start();
            assertThat(broker.pid()).isNotEqualTo(firstPid);
            assertThat(FreePorts.isListening(broker.tcpPort())).isTrue();
        }
    }

    private static SSLSession handshake(TestCertificates certificates, int port, String host, Path clientKeyStore)
            throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(certificates.trustStore()));
        KeyManager[] keyManagers = null;
        if (clientKeyStore != null) {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(clientKeyStore), TestCertificates.PASSWORD.toCharArray());
            keyManagers = kmf.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers, tmf.getTrustManagers(), null);
        try (Socket plain = new Socket(FreePorts.LOOPBACK, port);
                SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true)) {
            socket.setSoTimeout(10_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return socket.getSession();
        }
    }

    private static KeyStore load(Path pkcs12) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(pkcs12)) {
            store.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        return store;
    }
}
