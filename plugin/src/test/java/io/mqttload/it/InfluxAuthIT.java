package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.report.influx.InfluxWriter;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.LogCapture;
import io.mqttload.testsupport.RecordingHttpServer;

/**
 * Authentication and retention policy of the InfluxDB writer against a real InfluxDB 1.6 with HTTP
 * authentication on. TOKEN is checked against a JDK HTTP server on loopback that records each request
 * instead: InfluxDB 1.6 does not know {@code Authorization: Token} (1.8, 2.x and 3.x do), and 2.x and 3.x
 * cannot run here, so the test pins down exactly what they would receive. Neither the password nor the
 * token may appear in a log message or in the writer's last error, which the run summary prints.
 */
class InfluxAuthIT {
    private static final String ADMIN = "admin";
    private static final String PASSWORD = "Pa55-right-7f3a";
    private static final String WRONG_PASSWORD = "Pa55-wrong-c9d1";
    private static final String TOKEN = "tok-5e0b9a2c4d81";
    private static final int POINTS = 50;
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void basicWithTheRightPassword_everyPointArrives() throws Exception {
        try (InfluxDbServer influx = InfluxDbServer.startWithAuth(ADMIN, PASSWORD)) {
            assertThat(influx.queryAs(null, null, "", "SHOW DATABASES")).as("auth is on").contains("error");
            assertThat(influx.query("", "CREATE DATABASE mqtt")).doesNotContain("error");
            InfluxWriter writer = new InfluxWriter(influx.url(), "mqtt", "", InfluxWriter.Auth.BASIC,
                    ADMIN + ":" + PASSWORD, 1000);

            writeAll(writer, lines("basic", POINTS));

            assertThat(writer.written()).as("last error: %s", writer.lastError()).isEqualTo(POINTS);
            assertThat(writer.dropped()).isZero();
            assertThat(influx.query("mqtt", "SELECT count(\"n\") FROM auth_it")).contains("," + POINTS + "]");
        }
    }

    @Test
    void basicWithAWrongPassword_nothingArrivesAndThePointsAreDroppedNamingHttp401() throws Exception {
        try (InfluxDbServer influx = InfluxDbServer.startWithAuth(ADMIN, PASSWORD); LogCapture log = LogCapture.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqtt")).doesNotContain("error");
            InfluxWriter writer = new InfluxWriter(influx.url(), "mqtt", "", InfluxWriter.Auth.BASIC,
                    ADMIN + ":" + WRONG_PASSWORD, 1000);

            writeAll(writer, lines("wrong", POINTS));

            assertThat(writer.dropped()).isEqualTo(POINTS);
            assertThat(writer.written()).isZero();
            assertThat(writer.lastError()).startsWith("HTTP 401");
            assertThat(influx.query("mqtt", "SELECT count(\"n\") FROM auth_it")).doesNotContain("series");
            assertThat(log.messagesAtLeast(Level.WARN)).anyMatch(m -> m.contains("HTTP 401"));
            assertNoSecret(writer, log, WRONG_PASSWORD, base64(ADMIN + ":" + WRONG_PASSWORD));
        }
    }

    @Test
    void namedRetentionPolicy_pointsLandInItAndNotInTheDefault() throws Exception {
        try (InfluxDbServer influx = InfluxDbServer.startWithAuth(ADMIN, PASSWORD)) {
            assertThat(influx.query("", "CREATE DATABASE mqtt")).doesNotContain("error");
            assertThat(influx.query("", "CREATE RETENTION POLICY \"short\" ON mqtt DURATION 1h REPLICATION 1"))
                    .doesNotContain("error");
            InfluxWriter writer = new InfluxWriter(influx.url(), "mqtt", "short", InfluxWriter.Auth.BASIC,
                    ADMIN + ":" + PASSWORD, 1000);

            writeAll(writer, lines("rp", POINTS));

            assertThat(writer.written()).as("last error: %s", writer.lastError()).isEqualTo(POINTS);
            assertThat(influx.query("mqtt", "SELECT count(\"n\") FROM \"mqtt\".\"short\".auth_it"))
                    .contains("," + POINTS + "]");
            assertThat(influx.query("mqtt", "SELECT count(\"n\") FROM auth_it")).as("default retention policy")
                    .doesNotContain("series");
        }
    }

    @Test
    void token_isSentAsTokenHeaderToWriteWithDatabaseRetentionPolicyAndMillisecondPrecision() throws Exception {
        try (RecordingHttpServer server = RecordingHttpServer.start(204)) {
            InfluxWriter writer = new InfluxWriter(server.url(), "mqtt metrics", "short", InfluxWriter.Auth.TOKEN,
                    TOKEN, 1000);
            List<String> lines = lines("token", 3);

            writeAll(writer, lines);

            assertThat(writer.written()).as("last error: %s", writer.lastError()).isEqualTo(3);
            assertThat(server.requests).isNotEmpty().allSatisfy(r -> {
                assertThat(r.method).isEqualTo("POST");
                assertThat(r.path).isEqualTo("/write");
                assertThat(r.authorization).isEqualTo("Token " + TOKEN);
                assertThat(r.query).isEqualTo(Map.of("db", "mqtt metrics", "rp", "short", "precision", "ms"));
            });
            assertThat(server.bodies()).isEqualTo(String.join("", lines));
        }
    }

    @Test
    void unauthorizedToken_isSentOnceNotRetried_andTheTokenIsNeitherLoggedNorInTheLastError() {
        try (RecordingHttpServer server = RecordingHttpServer.start(401); LogCapture log = LogCapture.start()) {
            InfluxWriter writer = new InfluxWriter(server.url(), "mqtt", "", InfluxWriter.Auth.TOKEN, TOKEN, 1000);

            writeAll(writer, lines("token", 1));

            // Retried, the point would be dropped only after the fourth request.
            assertThat(server.requests).hasSize(1);
            assertThat(writer.dropped()).isEqualTo(1);
            assertThat(writer.lastError()).startsWith("HTTP 401");
            assertThat(log.messagesAtLeast(Level.WARN)).anyMatch(m -> m.contains("HTTP 401"));
            assertNoSecret(writer, log, TOKEN);
        }
    }

    @Test
    void tooManyRequests_isRetriedAndThenWritten() {
        try (RecordingHttpServer server = RecordingHttpServer.start(429, 204)) {
            InfluxWriter writer = new InfluxWriter(server.url(), "mqtt", "", InfluxWriter.Auth.NONE, "", 1000);

            writeAll(writer, lines("limited", 1));

            assertThat(server.requests).hasSize(2);
            assertThat(writer.written()).isEqualTo(1);
            assertThat(writer.dropped()).isZero();
        }
    }

    @Test
    void credentialsInTheUrl_areRefusedWithoutEchoingThem() {
        assertThatThrownBy(() -> new InfluxWriter("http://" + ADMIN + ":" + PASSWORD + "@127.0.0.1:8086", "mqtt", "",
                InfluxWriter.Auth.NONE, "", 1000))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("http://***@127.0.0.1:8086").hasMessageContaining("authentication BASIC")
                .hasMessageNotContaining(PASSWORD);
    }

    private static List<String> lines(String kind, int count) {
        long now = System.currentTimeMillis();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add("auth_it,kind=" + kind + " n=" + i + "i " + (now + i) + "\n");
        }
        return lines;
    }

    /** Offers the lines, waits until each is written or dropped, and closes the writer within a bound. */
    private static void writeAll(InfluxWriter writer, List<String> lines) {
        lines.forEach(line -> assertThat(writer.offer(line)).isTrue());
        await("every point written or dropped").atMost(BOUND)
                .until(() -> writer.written() + writer.dropped() == lines.size());
        long start = System.nanoTime();
        writer.close(BOUND.toMillis());
        // Nothing left: the close returns without waiting for its bound, however slow this machine.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close with nothing left").isLessThan(BOUND.dividedBy(2));
    }

    private static String base64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertNoSecret(InfluxWriter writer, LogCapture log, String... secrets) {
        List<String> texts = new ArrayList<>();
        texts.add(writer.lastError());
        for (ILoggingEvent e : log.events()) {
            texts.add(e.getFormattedMessage());
            if (e.getThrowableProxy() != null) {
                texts.add(e.getThrowableProxy().getMessage());
            }
        }
        for (String secret : secrets) {
            assertThat(texts).as("log messages and last error").noneMatch(t -> t != null && t.contains(secret));
        }
    }
}
