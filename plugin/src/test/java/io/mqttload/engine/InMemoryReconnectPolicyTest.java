package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.ReconnectPolicy.Kind;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.report.HtmlReport;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.mqttload.traffic.LoadClient;

/**
 * A device's reconnect policy on the in-memory broker: a first connect refused "later" retried or not as the setting
 * says, refusals counted by reason, a lost connection reconnected under each policy with its attempts counted, and a
 * refusal that does not mean "later" never retried.
 */
class InMemoryReconnectPolicyTest {
    @TempDir
    Path results;
    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    private MemoryEngine engine() {
        return new MemoryEngine(broker, results, Map.of());
    }

    private static ConnectionSettings mqtt5() {
        return MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_5).build();
    }

    private static ReconnectPolicy device(Kind kind, int attempts) {
        return new ReconnectPolicy(kind, attempts, 5, 20, 0, 0, true);
    }

    /** What a first connect did: the sample, and the run's summary after it. */
    private static final class Outcome {
        final OperationResult connect;
        final RunSummary summary;

        Outcome(OperationResult connect, RunSummary summary) {
            this.connect = connect;
            this.summary = summary;
        }
    }

    /** Opens {@code clients} devices on a broker that refuses their next {@code times} connects with {@code reason}. */
    private Outcome firstConnect(String reason, int times, int clients, ConnectionSettings settings,
            ReconnectPolicy policy) {
        broker.refuseNextConnects("dev", reason, times);
        MemoryEngine engine = engine();
        OperationResult connect = engine.connect("connect", "dev", 1, settings, clients, "dev-{client}", policy);
        return new Outcome(connect, engine.shutdown());
    }

    @Test
    void aFirstConnectRefusedBusy_isRetriedWhenTheSettingSaysSo_andEachRefusalIsCountedByReason() {
        Outcome o = firstConnect("SERVER_BUSY", 3, 2, mqtt5(), device(Kind.FIXED, 5));
        OperationResult connect = o.connect;
        RunSummary summary = o.summary;

        assertThat(connect.ok).as(connect.message).isTrue();
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_REFUSED)).isEqualTo(3);
        assertThat(summary.count(Count.CONNECTS_OK)).as(summary.toTable()).isEqualTo(2);
        assertThat(summary.count(Count.CONNECTS_FAILED)).isZero();
        assertThat(summary.count(Count.CONNACK_SERVER_BUSY)).isEqualTo(3);
        assertThat(summary.count(Count.CONNECT_RETRIES)).isEqualTo(3);
        assertThat(summary.count(Count.CONNECT_ATTEMPTS)).isEqualTo(2 + 3);
        assertThat(summary.count(Count.CONNECTS_GIVEN_UP)).isZero();
        assertThat(summary.count(Count.RECONNECT_ATTEMPTS_MADE)).isZero();
        assertThat(summary.failures).isEmpty();
        String line = "connect attempts 5: 3 first-connect retries, 0 reconnect attempts; refused 'later': 3 server busy";
        assertThat(summary.toTable()).contains("retries                      " + line);
        MergedReport report = MergedReport.merge(List.of(summary.toJson()), List.of());
        assertThat(ReportText.table(report)).contains("retries: " + line);
        assertThat(ReportText.markdown(report)).contains("Retries: " + line + ".");
        assertThat(HtmlReport.render(report)).contains("<p>Retries: " + line.replace("'", "&#39;") + ".</p>");
    }

    @Test
    void aFirstConnectRefusedBusy_isNotRetriedWhenTheSettingSaysNot_andFailsAsBefore() {
        Outcome o = firstConnect("SERVER_BUSY", 3, 1, mqtt5(),
                new ReconnectPolicy(Kind.FIXED, 5, 5, 20, 0, 0, false));
        OperationResult connect = o.connect;
        RunSummary summary = o.summary;

        assertThat(connect.ok).isFalse();
        assertThat(connect.message).contains("CONNACK refused: SERVER_BUSY");
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_REFUSED)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECTS_FAILED)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.count(Count.CONNACK_SERVER_BUSY)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECT_ATTEMPTS)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECT_RETRIES)).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void aFirstConnectRefusedMoreOftenThanItsAttempts_givesUp_andFailsWithTheLastReason() {
        Outcome o = firstConnect("CONNECTION_RATE_EXCEEDED", 10, 1, mqtt5(), device(Kind.EXPONENTIAL, 2));
        OperationResult connect = o.connect;
        RunSummary summary = o.summary;

        assertThat(connect.ok).isFalse();
        assertThat(summary.count(Count.CONNECT_ATTEMPTS)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.count(Count.CONNECT_RETRIES)).isEqualTo(2);
        assertThat(summary.count(Count.CONNACK_CONNECTION_RATE_EXCEEDED)).isEqualTo(3);
        assertThat(summary.count(Count.CONNECTS_GIVEN_UP)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECTS_FAILED)).isEqualTo(1);
        assertThat(summary.failures).singleElement().satisfies(r -> {
            assertThat(r.kind).isEqualTo(FailureTally.Kind.CONNECT);
            assertThat(r.reason).contains("CONNECTION_RATE_EXCEEDED");
        });
    }

    @Test
    void aRefusalThatDoesNotMeanLater_isNotRetried_evenByADevice() {
        Outcome o = firstConnect("NOT_AUTHORIZED", 100, 1, mqtt5(), device(Kind.FIXED, 5));
        OperationResult connect = o.connect;
        RunSummary summary = o.summary;

        assertThat(connect.ok).isFalse();
        assertThat(connect.message).contains("CONNACK refused: NOT_AUTHORIZED");
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_REFUSED)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECT_ATTEMPTS)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.count(Count.CONNECT_RETRIES)).isZero();
        assertThat(summary.count(Count.CONNECTS_GIVEN_UP)).isZero();
        assertThat(summary.failures).singleElement().satisfies(r -> assertThat(r.reason).contains("NOT_AUTHORIZED"));
    }

    @Test
    void aMqtt311Refusal_serverUnavailable_isRetried_andCountedAsSuch() {
        Outcome o = firstConnect("SERVER_BUSY", 2, 1,
                MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1).build(), device(Kind.IMMEDIATE, 3));
        OperationResult connect = o.connect;
        RunSummary summary = o.summary;

        assertThat(connect.ok).as(connect.message).isTrue();
        assertThat(summary.count(Count.CONNACK_SERVER_UNAVAILABLE)).as(summary.toTable()).isEqualTo(2);
        assertThat(summary.count(Count.CONNECT_RETRIES)).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"IMMEDIATE", "FIXED", "EXPONENTIAL", "FULL_JITTER", "DECORRELATED_JITTER"})
    void aConnectionLostMidRun_reconnectsUnderThePolicy_andItsAttemptsAreCounted(Kind kind) {
        MemoryEngine engine = engine();
        OperationResult connect = engine.connect("connect", "dev", 1, mqtt5(), 1, "dev",
                new ReconnectPolicy(kind, 5, 5, 20, 0, 0, false));
        assertThat(connect.ok).isTrue();

        broker.refuseNextConnects("dev", "SERVER_BUSY", 2);
        broker.disconnect("dev");
        engine.awaitCount(Count.RECONNECTS, 1);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.CONNECTIONS_LOST)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.count(Count.RECONNECT_ATTEMPTS_MADE)).isEqualTo(3);
        assertThat(summary.count(Count.CONNACK_SERVER_BUSY)).isEqualTo(2);
        assertThat(summary.count(Count.CONNECT_ATTEMPTS)).isEqualTo(1 + 3);
        assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).isZero();
        assertThat(summary.count(Count.RECONNECTS)).isEqualTo(1);
    }

    @Test
    void aReconnectRefusedForGood_givesUpAtOnce_namingTheReason() {
        MemoryEngine engine = engine();
        engine.connect("connect", "dev", 1, mqtt5(), 1, "dev", new ReconnectPolicy(Kind.FIXED, 5, 5, 20, 0, 0, false));

        broker.refuseNextConnects("dev", "BAD_USER_NAME_OR_PASSWORD", 100);
        broker.disconnect("dev");
        engine.awaitCount(Count.RECONNECTS_GIVEN_UP, 1);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.RECONNECT_ATTEMPTS_MADE)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.count(Count.RECONNECT_ATTEMPTS_GIVEN_UP)).isEqualTo(1);
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_REFUSED)).isEqualTo(1);
        assertThat(summary.failures).anySatisfy(r -> {
            assertThat(r.kind).isEqualTo(FailureTally.Kind.CONNECT);
            assertThat(r.reason).isEqualTo("reconnect CONNACK refused: BAD_USER_NAME_OR_PASSWORD (in-memory broker)");
        });
    }

    @Test
    void anUnboundedPolicy_retriesUntilTheBrokerAccepts_andEndsWithTheRun() {
        MemoryEngine engine = engine();
        engine.connect("connect", "dev", 1, mqtt5(), 1, "dev",
                new ReconnectPolicy(Kind.IMMEDIATE, ReconnectPolicy.UNBOUNDED, 0, 0, 0, 0, false));

        broker.refuseNextConnects("dev", "QUOTA_EXCEEDED", 1_500);
        broker.disconnect("dev");
        engine.awaitCount(Count.RECONNECTS, 1);
        // Lost again, refused for good "later": the client goes on until the run's end closes it.
        broker.refuseNextConnects("dev", "QUOTA_EXCEEDED", Integer.MAX_VALUE);
        broker.disconnect("dev");
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> engine.context().metrics().sum(Count.CONNACK_QUOTA_EXCEEDED) >= 2_000);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.RECONNECTS)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).isZero();
        assertThat(summary.count(Count.RECONNECT_ATTEMPTS_MADE))
                .isBetween(summary.count(Count.CONNACK_QUOTA_EXCEEDED), summary.count(Count.CONNACK_QUOTA_EXCEEDED) + 2);
    }

    @Test
    void aFirstConnectRetriedWithoutBound_endsWithTheRun() {
        broker.refuseNextConnects("dev", "SERVER_BUSY", Integer.MAX_VALUE);
        MemoryEngine engine = engine();
        RunContext run = engine.context();
        // Driven without a sample: a sample would wait for it, and the run's end is what this is about.
        LoadClient client = new LoadClient(run.connector(), "dev", 0, null, mqtt5(), run.metrics(),
                run.samplerMetrics("connect"), run.ledger(),
                new ReconnectPolicy(Kind.FIXED, ReconnectPolicy.UNBOUNDED, 1, 1, 0, 0, true), 0);
        run.register(client);
        CompletableFuture<Boolean> connected = client.connect();
        await().atMost(Duration.ofSeconds(5)).until(() -> run.metrics().sum(Count.CONNECT_RETRIES) >= 20);
        assertThat(client.isFirstConnectPending()).isTrue();

        RunSummary summary = engine.shutdown();

        assertThat(connected).failsWithin(Duration.ofSeconds(2));
        long refused = broker.count(InMemoryBroker.Count.CONNECTS_REFUSED);
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(1))
                .until(() -> broker.count(InMemoryBroker.Count.CONNECTS_REFUSED) == refused);
        assertThat(summary.count(Count.CONNACK_SERVER_BUSY)).as(summary.toTable()).isGreaterThanOrEqualTo(20);
        assertThat(summary.count(Count.CONNECTS_OK)).isZero();
    }

    @Test
    void theInitialWait_delaysTheFirstConnect_byAtLeastItsShortest() {
        MemoryEngine engine = engine();
        long start = System.nanoTime();
        OperationResult connect = engine.connect("connect", "dev", 1, mqtt5(), 3, "dev-{client}",
                new ReconnectPolicy(Kind.EXPONENTIAL, 3, 5, 20, 50, 80, false));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        RunSummary summary = engine.shutdown();

        assertThat(connect.ok).as(connect.message).isTrue();
        assertThat(tookMillis).isGreaterThanOrEqualTo(50);
        assertThat(summary.count(Count.CONNECTS_OK)).isEqualTo(3);
        assertThat(summary.count(Count.CONNECT_ATTEMPTS)).isEqualTo(3);
    }
}
