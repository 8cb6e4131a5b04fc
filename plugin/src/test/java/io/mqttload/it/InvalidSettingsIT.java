package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.outage;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttBrokerMonitor;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.measure.Count;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.LogCapture;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RefuseClosedTopics;
import io.mqttload.testsupport.RunResult;
import io.mqttload.testsupport.TestCertificates;

/**
 * Every invalid input a user can type fails the sample it belongs to, at once, with a message that
 * names the field and the value, and the run goes on to its end: through JMeter for each element's fields (text,
 * ${__P()} expanded, checked at test start or at the first sample), and against real brokers, DNS and key stores.
 * The rules themselves (port range, QoS, topic wildcards, payload size, filters, key store templates) are
 * ValidationTest's.
 */
class InvalidSettingsIT {
    private static EmbeddedHiveMqBroker broker;

    @TempDir
    static Path dir;

    /** Refuses subscriptions under {@code closed/} (no other test here subscribes there): one broker start for all. */
    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.builder().withExtension(new RefuseClosedTopics()).start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static MqttConnectionConfig validConnection() {
        return with(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"), "connectTimeoutMs", "60000");
    }

    /**
     * A wrong setting fails at once: well before the connect timeout (60 s here) or any other wait could be what
     * ended the run, so passing this bound shows the input was refused, not timed out. The margin is a busy
     * machine's: a fork's first JMeter run took 5.8 s to refuse a setting at load 11.
     */
    private static final Duration AT_ONCE = Duration.ofSeconds(20);

    /**
     * The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out the
     * question (3 s) at its end (RunReportIT checks the question).
     */
    private static Map<String, String> properties() {
        return Map.of("mqttload.resultsDir", dir.toString(), "mqttload.progressSeconds", "0",
                "mqttload.brokerVersionTimeoutMs", "0");
    }

    /**
     * Runs the samplers in one thread and returns the first failed sample, after checking that the run
     * ended at once and that nothing (plugin, client library or JMeter) logged a stack trace meanwhile.
     */
    private static SampleResult firstFailure(MqttConnectionConfig config, TestElement... samplers) {
        PlanBuilder.ThreadGroupBuilder group = PlanBuilder.testPlan("invalid").config(config).threadGroup("t", 1, 1);
        for (TestElement s : samplers) {
            group.add(s);
        }
        HashTree plan = group.build();
        RunResult run;
        List<String> stackTraces;
        try (LogCapture log = LogCapture.start()) {
            run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
            stackTraces = log.withStackTraces();
        }
        List<SampleResult> failures = run.failures();
        assertThat(failures).as("expected a failed sample; the run was: " + run.describe()).isNotEmpty();
        assertThat(run.elapsed()).as(run.describe()).isLessThan(AT_ONCE);
        assertThat(stackTraces).as("log events with a stack trace").isEmpty();
        return failures.get(0);
    }

    private static void assertFails(SampleResult sample, String code, String... fragments) {
        assertThat(sample.getResponseCode()).as(sample.getResponseMessage()).isEqualTo(code);
        for (String f : fragments) {
            assertThat(sample.getResponseMessage()).contains(f);
        }
        assertThat(sample.getResponseMessage()).doesNotContain("\tat ").doesNotContain("Exception:");
    }

    @Test
    void notANumber() {
        assertFails(firstFailure(validConnection(), with(connect("c", 1, "{client}"), "clientCount", "abc")),
                "INVALID_SETTING", "clientCount = 'abc'", "not a whole number");
    }

    @Test
    void notANumber_fromAJMeterProperty_isNamedWithTheValueItExpandedTo() {
        // Fields with ${...} are checked at their first sample, not at test start: the message must show the expanded value.
        assertFails(firstFailure(validConnection(), with(connect("c", 1, "{client}"), "clientCount",
                "${__P(mqttload.test.clients,abc)}")), "INVALID_SETTING", "clientCount = 'abc'", "not a whole number");
        assertFails(firstFailure(with(validConnection(), "port", "${__P(mqttload.test.port,18x3)}"),
                connect("c", 1, "{client}")), "INVALID_SETTING", "port = '18x3'");
    }

    @Test
    void anInvalidSettingKnownAtTestStart_isLoggedBeforeTheFirstSample() {
        SampleResult failure;
        List<ILoggingEvent> events;
        try (LogCapture log = LogCapture.start()) {
            failure = firstFailure(validConnection(), connect("default", 1, "{engine}-ts-{client}"),
                    with(publish("default", "t/1", 1, 1, "SYNC"), "qos", "3"));
            events = log.events();
        }
        assertFails(failure, "INVALID_SETTING", "qos = '3'");
        ILoggingEvent reported = events.stream()
                .filter(e -> e.getLevel() == Level.ERROR && e.getFormattedMessage().contains("qos = '3'"))
                .findFirst().orElseThrow(() -> new AssertionError("no ERROR naming qos = '3' in " + events));
        // The element is named, so a plan with many publish samplers shows which one to fix.
        assertThat(reported.getFormattedMessage()).contains("'publish default'");
        assertThat(reported.getTimeStamp()).as("logged at test start, before the sample ran")
                .isLessThanOrEqualTo(failure.getStartTime());
    }

    @Test
    void anInvalidBrokerMonitorSetting_failsTheFirstSampleAndEndsTheRunAtOnce() {
        MqttBrokerMonitor monitor = PlanBuilder.testBean(new MqttBrokerMonitor(), "broker monitor");
        monitor.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
        monitor.setProperty("engineFilter", "[");
        HashTree plan = PlanBuilder.testPlan("invalid-monitor").config(validConnection()).config(monitor)
                .threadGroup("t", 1, 1).add(connect("default", 1, "{engine}-bm-{client}"))
                .add(loop(1_000), publish("default", "t/1", 1, 1, "SYNC")).build();

        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());

        assertThat(run.failures()).as(run.describe()).isNotEmpty();
        assertFails(run.failures().get(0), "INVALID_SETTING", "engineFilter = '['", "broker monitor");
        assertThat(run.elapsed()).as(run.describe()).isLessThan(AT_ONCE);
        assertThat(JvmRun.lastSummary().verdict()).isEqualTo(Verdict.FAILED);
        assertThat(JvmRun.lastSummary().count(Count.INVALID_SETTINGS)).isEqualTo(1);
    }

    /**
     * The true/false fields that every plan uses, as a plan sets them: text, possibly from ${__P(...)}.
     * verifyHostname, used with TLS only, is checked against a TLS broker in SecureTransportIT.
     */
    static Stream<Arguments> flags() {
        return Stream.of(
                Arguments.of("cleanStart", (Supplier<SampleResult>) () -> firstFailure(
                        with(validConnection(), "cleanStart", "ture"), connect("c", 1, "{engine}-f-{client}"))),
                Arguments.of("clientIdsWithin23", (Supplier<SampleResult>) () -> firstFailure(validConnection(),
                        with(connect("c", 1, "{engine}-f-{client}"), "clientIdsWithin23", "ture"))),
                Arguments.of("retain", (Supplier<SampleResult>) () -> firstFailure(validConnection(),
                        connect("default", 1, "{engine}-f-{client}"),
                        with(publish("default", "flags/1", 1, 1, "SYNC"), "retain", "ture"))),
                Arguments.of("measureLatency", (Supplier<SampleResult>) () -> firstFailure(validConnection(),
                        connect("default", 1, "{engine}-f-{client}"),
                        with(publish("default", "flags/1", 1, 1, "SYNC"), "measureLatency", "ture"))));
    }

    /**
     * docs/architecture.md: "JMeter's own conversion turns 'abc' into 0 silently, ours names the field and
     * the value". A mistyped flag ("ture", or a ${__P(...)} default with a typo) must not silently become
     * false: for verifyHostname that turns host-name verification off (see SecureTransportIT).
     */
    @ParameterizedTest(name = "{0} = ture")
    @MethodSource("flags")
    void aFlagThatIsNeitherTrueNorFalse_failsNamingFieldAndValue(String field, Supplier<SampleResult> run) {
        assertFails(run.get(), "INVALID_SETTING", field + " = 'ture'", "true or false");
    }

    @Test
    void reconnectRulesNoSingleSettingSees_failNamingFieldAndValue() {
        assertFails(firstFailure(validConnection(), with(with(connect("c", 1, "{client}"), "reconnectDelayMs", "2000"),
                "reconnectMaxDelayMs", "1000")), "INVALID_SETTING", "reconnectMaxDelayMs = '1000'",
                "must be between 2000 (reconnectDelayMs)");
        assertFails(firstFailure(validConnection(), with(with(connect("c", 1, "{client}"), "initialWaitMinMs", "5000"),
                "initialWaitMaxMs", "100")), "INVALID_SETTING", "initialWaitMaxMs = '100'",
                "must be between 5000 (initialWaitMinMs)");
        assertFails(firstFailure(validConnection(), with(connect("c", 1, "{client}"), "reconnectPolicy", "SOMETIMES")),
                "INVALID_SETTING", "reconnectPolicy = 'SOMETIMES'", "must be NONE, IMMEDIATE, FIXED");
    }

    @Test
    void theOutagesBadValues_failNamingFieldAndValue() {
        assertFails(firstFailure(validConnection(), with(outage("default", "DROP", 100, 1_000, 0), "outage",
                "SOMETIMES")), "INVALID_SETTING", "outage = 'SOMETIMES'", "must be DROP");
        assertFails(firstFailure(validConnection(), with(outage("default", "DROP", 100, 1_000, 0), "clientPercent",
                "0")), "INVALID_SETTING", "clientPercent = '0'");
        assertFails(firstFailure(validConnection(), with(outage("default", "BROKER_RESTART", 100, 1_000, 0),
                "recoveryBoundMs", "abc")), "INVALID_SETTING", "recoveryBoundMs = 'abc'", "not a whole number");
    }

    @Test
    void qos3_onSubscribe() {
        assertFails(firstFailure(validConnection(), connect("default", 1, "{engine}-q-{client}"),
                with(subscribe("default", "t/#", 1), "qos", "3")), "INVALID_SETTING", "qos = '3'");
    }

    @Test
    void publishOrSubscribeBeforeAnyConnect() {
        assertFails(firstFailure(validConnection(), publish("default", "t", 1, 1, "SYNC")), "NOT_CONNECTED",
                "MQTT Connect");
        assertFails(firstFailure(validConnection(), subscribe("default", "t", 1)), "NOT_CONNECTED", "MQTT Connect");
    }

    @Test
    void unknownHost() {
        MqttConnectionConfig config = with(validConnection(), "host", "no-such-host.invalid");
        assertFails(firstFailure(config, connect("c", 1, "{client}")), "CONNECT_FAILED", "unknown host",
                "no-such-host.invalid");
    }

    @Test
    void unreadableKeyStoreAndWrongKeyStorePassword() {
        TestCertificates certs = TestCertificates.generate(dir.resolve("certs"));
        MqttConnectionConfig missing = with(with(validConnection(), "transport", "TLS"), "keyStorePath",
                "/nonexistent/client.p12");
        assertFails(firstFailure(missing, connect("c", 1, "{client}")), "INVALID_SETTING",
                "keyStorePath = '/nonexistent/client.p12'");

        MqttConnectionConfig wrongPassword = with(with(with(validConnection(), "transport", "TLS"), "keyStorePath",
                certs.clientKeyStore().toString()), "keyStorePassword", "not-the-password");
        assertFails(firstFailure(wrongPassword, connect("c", 1, "{client}")), "INVALID_SETTING", "keyStorePassword",
                "wrong password");

        // The same for the trust store; a password is never echoed, the store's path is.
        MqttConnectionConfig wrongTrustPassword = with(with(with(validConnection(), "transport", "TLS"),
                "trustStorePath", certs.trustStore().toString()), "trustStorePassword", "not-the-password");
        SampleResult trust = firstFailure(wrongTrustPassword, connect("c", 1, "{client}"));
        assertFails(trust, "INVALID_SETTING", "trustStorePassword", "wrong password", certs.trustStore().toString());
        assertThat(trust.getResponseMessage()).doesNotContain("not-the-password");
    }

    @Test
    void perClientKeyStore_missingFileOrAlias_failsThatClientsConnectNamingFieldValueAndClient() {
        TestCertificates certs = TestCertificates.generate(dir.resolve("certs"));
        Path devices = dir.resolve("devices");
        certs.writeClientKeyStores(devices, "device", 1);
        MqttConnectionConfig missingFile = with(with(with(validConnection(), "transport", "TLS"), "keyStorePath",
                devices.resolve("device-{client}.p12").toString()), "keyStorePassword", TestCertificates.PASSWORD);
        // Client 0 has its file and goes on to the TLS handshake (which fails on this plain TCP port); client 1 has none.
        SampleResult file = firstFailure(missingFile, connect("c", 2, "{engine}-dev-{client}"));
        assertFails(file, "CONNECT_FAILED", "keyStorePath = '" + devices.resolve("device-1.p12") + "'",
                "file does not exist or is not readable", "-dev-1)");

        MqttConnectionConfig missingAlias = with(with(with(with(validConnection(), "transport", "TLS"), "keyStorePath",
                certs.clientKeyStore().toString()), "keyStorePassword", TestCertificates.PASSWORD), "keyStoreAlias",
                "device-{client}");
        SampleResult alias = firstFailure(missingAlias, connect("c", 1, "{engine}-dev-{client}"));
        assertFails(alias, "CONNECT_FAILED", "keyStoreAlias = 'device-0'", "no key entry of that name in "
                + certs.clientKeyStore(), "-dev-0)");
    }

    @Test
    void subscriptionRefusedByTheBroker_failsWithTheFilterAndTheReasonCode() {
        SampleResult v5 = firstFailure(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"),
                connect("default", 1, "{engine}-r5"), subscribe("default", "open/x, closed/#", 1));
        assertFails(v5, "SUBSCRIBE_FAILED", "SUBACK refused closed/# -> NOT_AUTHORIZED (0x87): closed to tests");
        assertThat(v5.getResponseMessage()).doesNotContain("open/x ->");

        SampleResult v3 = firstFailure(connection("127.0.0.1", broker.tcpPort(), "MQTT_3_1_1"),
                connect("default", 1, "{engine}-r3"), subscribe("default", "closed/#", 1));
        assertFails(v3, "SUBSCRIBE_FAILED", "SUBACK refused closed/# -> FAILURE (0x80)");
    }

    @Test
    void wrongBrokerPassword() throws Exception {
        MosquittoBroker.requireInstalled();
        Path passwords = dir.resolve("passwords");
        Process p = new ProcessBuilder("mosquitto_passwd", "-b", "-c", passwords.toString(), "alice", "secret")
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        // Started as root, Mosquitto drops to its own user before it reads the file.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-r--r--"));
        try (MosquittoBroker secured = MosquittoBroker.builder().withSetting("allow_anonymous false")
                .withSetting("password_file " + passwords).start()) {
            for (String version : new String[] {"MQTT_5", "MQTT_3_1_1"}) {
                MqttConnectionConfig config = with(with(connection("127.0.0.1", secured.tcpPort(), version), "username",
                        "alice"), "password", "wrong");
                SampleResult failure = firstFailure(config, connect("c", 1, "{engine}-{client}"));
                assertFails(failure, "CONNECT_FAILED", "CONNACK refused");
                assertThat(failure.getResponseMessage()).containsAnyOf("NOT_AUTHORIZED", "BAD_USER_NAME_OR_PASSWORD");
            }
        }
    }
}
