package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.ReconnectPolicy.Kind;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.report.AllCounts;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * The session takeover storm on the in-memory broker: a second group of clients (thread 2) connects with the first
 * group's client ids (thread 1, the same template without {thread}) while the first is connected. Each takeover the
 * broker makes is counted once, by the MQTT 5 reason 0x8E (at MQTT 3.1.1 inferred from the other client of the id on
 * the engine), apart from lost connections; the originals that fight back
 * (their reconnect policy brings them back with the same id) make a ping-pong whose length is counted per client id.
 * The broker's own count of connections it closed is the independent count every figure is held against.
 */
class InMemorySessionTakeoverTest {
    private static final int CLIENTS = 5;
    private static final String IDS = "dev-{client}";

    @TempDir
    Path results;
    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    private MemoryEngine engine() {
        return new MemoryEngine(broker, results, Map.of());
    }

    private static ConnectionSettings settings(ProtocolVersion version) {
        return MemoryEngine.settings().protocolVersion(version).build();
    }

    /** A device that comes back at once (a few ms later), as often as it is thrown out. */
    private static ReconnectPolicy fightsBack() {
        return new ReconnectPolicy(Kind.FIXED, ReconnectPolicy.UNBOUNDED, 5, 5, 0, 0, false);
    }

    private static void storm(MemoryEngine engine, ProtocolVersion version, ReconnectPolicy originals,
            ReconnectPolicy intruders) {
        assertThat(engine.connect("originals", "devices", 1, settings(version), CLIENTS, IDS, originals).ok).isTrue();
        assertThat(engine.connect("intruders", "devices", 2, settings(version), CLIENTS, IDS, intruders).ok).isTrue();
    }

    @Test
    void withoutReconnects_eachOriginalIsTakenOverOnce_countedBy0x8E_notAsALostConnection() {
        MemoryEngine engine = engine();
        storm(engine, ProtocolVersion.MQTT_5, ReconnectPolicy.none(), ReconnectPolicy.none());
        engine.awaitCount(Count.SESSIONS_TAKEN_OVER, CLIENTS);
        broker.awaitIdle();
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.CONNECTIONS_CLOSED_BY_BROKER)).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.SESSIONS_TAKEN_OVER)).as(summary.toTable()).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.TAKEOVERS_INFERRED)).isZero();
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER)).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER_AGAIN)).isZero();
        assertThat(summary.count(Count.TAKEOVERS_PER_CLIENT_ID_MAX)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isZero();
        assertThat(summary.count(Count.RECONNECTS)).isZero();
        assertThat(summary.count(Count.CONNECTS_OK)).isEqualTo(2 * CLIENTS);
        assertThat(summary.failures).isEmpty();
        // Shown in the reports from the declaration, under its key.
        MergedReport report = MergedReport.merge(List.of(summary.toJson()), List.of());
        assertThat(report.count(Count.SESSIONS_TAKEN_OVER)).isEqualTo(CLIENTS);
        assertThat(AllCounts.rows(report)).filteredOn(r -> r.key.equals("sessionsTakenOver")).singleElement()
                .satisfies(r -> assertThat(r.value).isEqualTo(Integer.toString(CLIENTS)));
    }

    @Test
    void atMqtt311_aTakeoverHasNoReason_andIsInferredFromTheOtherClientOfTheSameIdOnThisEngine() {
        MemoryEngine engine = engine();
        storm(engine, ProtocolVersion.MQTT_3_1_1, ReconnectPolicy.none(), ReconnectPolicy.none());
        engine.awaitCount(Count.SESSIONS_TAKEN_OVER, CLIENTS);
        broker.awaitIdle();
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.CONNECTIONS_CLOSED_BY_BROKER)).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.SESSIONS_TAKEN_OVER)).as(summary.toTable()).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.TAKEOVERS_INFERRED)).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.TAKEOVERS_PER_CLIENT_ID_MAX)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isZero();
        assertThat(summary.failures).isEmpty();
    }

    @Test
    void atMqtt311_aTakeoverByAClientOfAnotherEngine_cannotBeToldFromALostConnection() {
        MemoryEngine engine = engine();
        MemoryEngine elsewhere = new MemoryEngine(broker, results, Map.of("mqttload.engineId", "engine-2",
                "mqttload.engineNumber", "2"));
        ConnectionSettings v311 = settings(ProtocolVersion.MQTT_3_1_1);
        assertThat(engine.connect("originals", "devices", 1, v311, CLIENTS, IDS, ReconnectPolicy.none()).ok).isTrue();
        assertThat(elsewhere.connect("intruders", "devices", 1, v311, CLIENTS, IDS, ReconnectPolicy.none()).ok)
                .isTrue();
        engine.awaitCount(Count.CONNECTIONS_LOST, CLIENTS);
        broker.awaitIdle();
        RunSummary summary = engine.shutdown();
        elsewhere.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.CONNECTIONS_CLOSED_BY_BROKER)).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).as(summary.toTable()).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.SESSIONS_TAKEN_OVER)).isZero();
        // The connection was just closed: nothing tells it from a broker or a network that went away.
        assertThat(summary.failures).allSatisfy(r -> assertThat(r.kind).isEqualTo(FailureTally.Kind.CONNECTION_LOST))
                .extracting(r -> r.count).containsOnly(1L).hasSize(CLIENTS);
    }

    @Test
    void originalsThatFightBack_takeTheirSessionsBack_once_fromIntrudersThatDoNot() {
        MemoryEngine engine = engine();
        storm(engine, ProtocolVersion.MQTT_5, fightsBack(), ReconnectPolicy.none());
        // Each id: the intruder takes the original's session, the original comes back and takes it from the intruder.
        engine.awaitCount(Count.SESSIONS_TAKEN_OVER, 2 * CLIENTS);
        engine.awaitCount(Count.RECONNECTS, CLIENTS);
        broker.awaitIdle();
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.CONNECTIONS_CLOSED_BY_BROKER)).isEqualTo(2 * CLIENTS);
        assertThat(summary.count(Count.SESSIONS_TAKEN_OVER)).as(summary.toTable()).isEqualTo(2 * CLIENTS);
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER)).isEqualTo(2 * CLIENTS);
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER_AGAIN)).isZero();
        assertThat(summary.count(Count.TAKEOVERS_PER_CLIENT_ID_MAX)).isEqualTo(2);
        assertThat(summary.count(Count.RECONNECTS)).isEqualTo(CLIENTS);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isZero();
        assertThat(summary.failures).isEmpty();
    }

    @Test
    void twoGroupsThatBothFightBack_pingPong_andEveryTakeoverIsCountedOnce() {
        MemoryEngine engine = engine();
        storm(engine, ProtocolVersion.MQTT_5, fightsBack(), fightsBack());
        // Every client of both groups thrown out at least twice: each id has gone back and forth at least 4 times.
        await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                .until(() -> engine.context().metrics().sum(Count.CLIENTS_TAKEN_OVER_AGAIN) == 2 * CLIENTS);
        RunSummary summary = engine.shutdown();
        broker.awaitIdle();

        long takeovers = summary.count(Count.SESSIONS_TAKEN_OVER);
        assertThat(takeovers).as(summary.toTable()).isEqualTo(broker.count(
                InMemoryBroker.Count.CONNECTIONS_CLOSED_BY_BROKER));
        assertThat(takeovers).isGreaterThanOrEqualTo(4 * CLIENTS);
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER)).isEqualTo(2 * CLIENTS);
        assertThat(summary.count(Count.CLIENTS_TAKEN_OVER_AGAIN)).isEqualTo(2 * CLIENTS);
        assertThat(summary.count(Count.TAKEOVERS_PER_CLIENT_ID_MAX)).isGreaterThanOrEqualTo(4)
                .isLessThanOrEqualTo(takeovers - 4 * (CLIENTS - 1));
        // Each takeover but an id's first is a reconnect's; a reconnect made as the run's end closed the other client of
        // its id takes nothing over (at most one per id).
        assertThat(takeovers).isBetween(summary.count(Count.RECONNECTS), summary.count(Count.RECONNECTS) + CLIENTS);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isZero();
    }
}
