package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.mqttload.testsupport.memory.Which;

/**
 * What a subscriber is owed across an outage, on the in-memory broker: with a clean session (or one the broker forgot)
 * what was published while it held no subscription is owed to nobody, decided per message from what it had received
 * before the loss and when it subscribed again; with a session the broker kept everything stays owed, and what the
 * broker did not deliver of it is loss against its promise. The runs tolerate lost connections (the outage is the
 * point here): their verdict is the delivery's.
 */
class InMemorySessionLapseTest {
    private static final ReconnectPolicy RECONNECTS = new ReconnectPolicy(200, 5, 10);

    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    private MemoryEngine engine() {
        return new MemoryEngine(broker, results, Map.of(RunConfig.FAILURE_TOLERANCE_PERCENT, "100"));
    }

    /** A subscriber at 3.1.1 and one at MQTT 5, each with the session {@code settings} give its version. */
    private static void subscribers(MemoryEngine engine, ConnectionSettings v311, ConnectionSettings v5) {
        subscribers(engine, v311, v5, RECONNECTS);
    }

    private static void subscribers(MemoryEngine engine, ConnectionSettings v311, ConnectionSettings v5,
            ReconnectPolicy reconnects) {
        engine.connect("connect sub 3", "sub3", 1, v311, 1, "sub-311", reconnects);
        assertThat(engine.subscribe("subscribe 3", "sub3", 1, "lapse/#", 1).ok).isTrue();
        engine.connect("connect sub 5", "sub5", 1, v5, 1, "sub-5", reconnects);
        assertThat(engine.subscribe("subscribe 5", "sub5", 1, "lapse/#", 1).ok).isTrue();
    }

    private static void publish(MemoryEngine engine, int messages) {
        assertThat(engine.publish("publish", "pub", 1, "lapse/x", 1, messages, true).ok).isTrue();
    }

    /** Both subscribers away while {@code messages} are published, every connect refused meanwhile; then back. */
    private void away(MemoryEngine engine, int messages, Count backWhen, long backAt) {
        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("sub-311");
        broker.disconnect("sub-5");
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(engine, messages);
        MemoryEngine.letTheClockMoveOn(5_000);
        broker.acceptConnects();
        engine.awaitCount(backWhen, backAt);
        MemoryEngine.letTheClockMoveOn(5_000);
    }

    @Test
    void cleanSessions_whatWasPublishedWhileTheyHeldNoSubscription_isOwedToNobody_andTheRunHasNoLoss() {
        MemoryEngine engine = engine();
        ConnectionSettings clean = MemoryEngine.settings().build();
        subscribers(engine, MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1).build(), clean);
        engine.connect("connect pub", "pub", 1, clean, 1, "pub", ReconnectPolicy.none());
        publish(engine, 10);

        away(engine, 10, Count.SUBSCRIBER_LAPSES_RECORDED, 2);
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 40);
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.QUEUED_OFFLINE)).isZero();
        assertThat(summary.count(Count.ACKNOWLEDGED)).as(summary.toTable()).isEqualTo(30);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(40);
        assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).isEqualTo(2);
        assertThat(summary.count(Count.SUBSCRIBER_LAPSES_RECORDED)).isEqualTo(2);
        // Each subscriber: 20 owed and received, the 10 of its lapse owed to nobody, nothing left to doubt.
        assertThat(summary.delivery.publishedWhileSessionLost).isEqualTo(20);
        assertThat(summary.delivery.undecidedAroundSubscription).isZero();
        assertThat(summary.delivery.expected).isEqualTo(40);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.delivery.bySampler).containsOnlyKeys("subscribe 3", "subscribe 5")
                .allSatisfy((label, v) -> assertThat(v[0]).as(label).isEqualTo(20).isEqualTo(v[1]));
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.verdictLine()).contains("20 deliveries owed to nobody (publishedWhileSessionLost)");

        // The lapses travel in the ledger: the merged report decides the same from the summary's JSON.
        EngineSummary read = SummaryJson.readEngineSummary(summary.toJson());
        MergedReport merged = MergedReport.of(java.util.List.of(read), java.util.List.of());
        assertThat(merged.count(Count.PUBLISHED_WHILE_SESSION_LOST)).isEqualTo(20);
        assertThat(merged.lost()).isZero();
        assertThat(merged.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void aBrokerRestartedWhilePublishersGoOn_leavesNoLoss_everyMissingMessageOwedToNobodyOrUndecided() {
        MemoryEngine engine = engine();
        // Clean sessions, and persistent ones the restart forgets: the broker answers session present 0 to both. The
        // subscribers come back later than the publisher, which publishes to topics nobody holds meanwhile.
        subscribers(engine, MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1).cleanStart(false).build(),
                MemoryEngine.settings().build(), new ReconnectPolicy(20, 50, 50));
        engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "pub", RECONNECTS);
        AtomicBoolean publishing = new AtomicBoolean(true);
        CompletableFuture<Void> publisher = CompletableFuture.runAsync(() -> {
            while (publishing.get()) {
                // A sample while the publisher is away fails: its messages were never acknowledged, so never owed.
                engine.publish("publish", "pub", 1, "lapse/x", 1, 5, true);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> engine.context().metrics().sum(Count.RECEIVED) >= 100);

        broker.restart();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 2);
        long receivedThen = engine.context().metrics().sum(Count.RECEIVED);
        await().atMost(Duration.ofSeconds(5)).until(() -> engine.context().metrics().sum(Count.RECEIVED) >= receivedThen + 100);
        publishing.set(false);
        publisher.join();
        RunSummary summary = engine.shutdown();

        long acknowledged = summary.count(Count.ACKNOWLEDGED);
        assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).as(summary.toTable()).isEqualTo(2);
        assertThat(summary.delivery.lost()).isZero();
        // Every acknowledged message, for each of the two subscribers: delivered, owed to nobody, or undecided.
        assertThat(summary.delivery.receivedOfExpected + summary.delivery.publishedWhileSessionLost
                + summary.delivery.undecidedAroundSubscription).isEqualTo(2 * acknowledged);
        assertThat(summary.delivery.publishedWhileSessionLost + summary.delivery.undecidedAroundSubscription).isPositive();
        assertThat(summary.verdict()).isIn(Verdict.NO_LOSS, Verdict.LOSS_UNCERTAIN);
        if (summary.delivery.undecidedAroundSubscription == 0) {
            assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        }
    }

    /** Persistent subscribers (3.1.1 clean session off, MQTT 5 session expiry an hour), and ten messages published. */
    private MemoryEngine keptSessionsAfterTen() {
        MemoryEngine engine = engine();
        subscribers(engine, MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1).cleanStart(false).build(),
                MemoryEngine.settings().cleanStart(false).sessionExpirySeconds(3_600).build());
        engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "pub", ReconnectPolicy.none());
        publish(engine, 10);
        return engine;
    }

    @Test
    void keptSessions_getEverythingPublishedWhileAway_andNothingIsOwedToNobody() {
        MemoryEngine engine = keptSessionsAfterTen();

        away(engine, 10, Count.RECONNECTS, 2);
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 60);
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.QUEUED_OFFLINE)).as(summary.toTable()).isEqualTo(20);
        assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).isZero();
        assertThat(summary.delivery.expected).isEqualTo(60);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.delivery.publishedWhileSessionLost).isZero();
        assertThat(summary.delivery.undecidedAroundSubscription).isZero();
        assertThat(summary.delivery.lostFromKeptSessions).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void keptSessions_whoseQueuedMessagesTheBrokerDrops_reportLossAgainstItsPromise() {
        MemoryEngine engine = keptSessionsAfterTen();

        // The broker queues the ten for each session, and drops three of what it hands over at their return.
        broker.drop(Which.next(3), "lapse/#");
        away(engine, 10, Count.RECONNECTS, 2);
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 57);
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.DROPPED)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.delivery.expected).isEqualTo(60);
        assertThat(summary.delivery.lost()).isEqualTo(3);
        assertThat(summary.delivery.lostFromKeptSessions).isEqualTo(3);
        assertThat(summary.delivery.publishedWhileSessionLost).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.LOSS);
        assertThat(summary.verdictLine()).contains("3 of them (lostFromKeptSessions) acknowledged to the publisher and"
                + " not delivered to a session the broker kept");
    }

    @Test
    void aLapseWithItsPublisherOnAnotherEngine_travelsInTheLedger_andTheMergeDecidesItWithTheEnginesClocks() {
        MemoryEngine subscribing = new MemoryEngine(broker, results, Map.of(RunConfig.FAILURE_TOLERANCE_PERCENT, "100",
                "mqttload.engineId", "engine-1", "mqttload.engineNumber", "1", "mqttload.engines", "2"));
        MemoryEngine publishing = new MemoryEngine(broker, results, Map.of(RunConfig.FAILURE_TOLERANCE_PERCENT, "100",
                "mqttload.engineId", "engine-2", "mqttload.engineNumber", "2", "mqttload.engines", "2"));
        subscribing.connect("connect sub", "sub", 1, MemoryEngine.settings().build(), 1, "sub-5", RECONNECTS);
        assertThat(subscribing.subscribe("subscribe", "sub", 1, "lapse/#", 1).ok).isTrue();
        publishing.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "pub", ReconnectPolicy.none());
        publish(publishing, 10);
        subscribing.awaitCount(Count.RECEIVED, 10);

        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("sub-5");
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(publishing, 10);
        MemoryEngine.letTheClockMoveOn(5_000);
        broker.acceptConnects();
        subscribing.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 1);
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(publishing, 10);
        subscribing.awaitCount(Count.RECEIVED, 20);
        String published = publishing.shutdown().toJson();
        String subscribed = subscribing.shutdown().toJson();
        MergedReport merged = MergedReport.merge(java.util.List.of(published, subscribed), java.util.List.of());

        // The subscribing engine cannot read the other engine's streams: the merge places the lapse against their
        // send times, with the clock difference the engines measured through the broker.
        assertThat(merged.count(Count.PUBLISHED_WHILE_SESSION_LOST)).as(merged.verdictLine()).isEqualTo(10);
        assertThat(merged.count(Count.UNDECIDED_AROUND_SUBSCRIPTION)).isZero();
        assertThat(merged.lost()).isZero();
        assertThat(merged.expected).isEqualTo(20);
        assertThat(merged.count(Count.SUBSCRIBER_LAPSES_RECORDED)).isEqualTo(1);
        assertThat(merged.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void aSubscribeAgainCutShortByAnotherLoss_isNoFailure_andTheLapseRunsFromTheFirstLoss() {
        MemoryEngine engine = cleanSubscriberAfterTen("sub-cut");

        // Back without its session, the subscriber subscribes again; the broker holds the SUBSCRIBE, and the
        // connection is lost again before the SUBACK, as when a takeover or a network drop cuts it short.
        broker.holdSubscriptions();
        broker.disconnect("sub-cut");
        engine.awaitCount(Count.SUBSCRIBER_SESSIONS_LOST, 1);
        // At least: the engine's own control clients (the broker's version question) may subscribe meanwhile too.
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(InMemoryBroker.Count.SUBSCRIBES_HELD) >= 1);
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(engine, 10);
        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("sub-cut");
        broker.releaseSubscriptions();
        engine.awaitCount(Count.RESUBSCRIBES_CUT_SHORT, 1);
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(engine, 10);
        MemoryEngine.letTheClockMoveOn(5_000);
        broker.acceptConnects();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 1);
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 20);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.SUBSCRIBE_FAILED)).as(summary.toTable()).isZero();
        assertThat(summary.count(Count.RESUBSCRIBES_CUT_SHORT)).isEqualTo(1);
        assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).isEqualTo(2);
        assertThat(summary.count(Count.SUBSCRIBER_LAPSES_RECORDED)).isEqualTo(1);
        // The 20 published while it held no subscription, across both losses, are owed to nobody.
        assertThat(summary.delivery.publishedWhileSessionLost).isEqualTo(20);
        assertThat(summary.delivery.expected).isEqualTo(20);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    /** A clean-session subscriber {@code clientId} and its publisher, ten messages delivered. */
    private MemoryEngine cleanSubscriberAfterTen(String clientId) {
        MemoryEngine engine = engine();
        ConnectionSettings clean = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, clean, 1, clientId, RECONNECTS);
        assertThat(engine.subscribe("subscribe", "sub", 1, "lapse/#", 1).ok).isTrue();
        engine.connect("connect pub", "pub", 1, clean, 1, "pub", ReconnectPolicy.none());
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 10);
        return engine;
    }

    /** Back without its session, the subscriber's new SUBSCRIBE has left and waits at the broker, not set up. */
    private void subscribeAgainHeld(MemoryEngine engine) {
        broker.holdSubscriptions();
        broker.acceptConnects();
        engine.awaitCount(Count.SUBSCRIBER_SESSIONS_LOST, 1);
        // At least: the engine's own control clients (the broker's version question) may subscribe meanwhile too.
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(InMemoryBroker.Count.SUBSCRIBES_HELD) >= 1);
        MemoryEngine.letTheClockMoveOn(5_000);
    }

    @Test
    void theAedesCase_tenPublishedJustBeforeTheBrokerHeldTheNewSubscription_areOwedToNobody_andTheRunHasNoLoss() {
        // aedes killed and restarted under load: 10 PUBLISHes reached it 7 ms before the subscriber's new subscription.
        MemoryEngine engine = cleanSubscriberAfterTen("sub-w");
        broker.disconnect("sub-w");
        subscribeAgainHeld(engine);
        publish(engine, 10);
        broker.releaseSubscriptions();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 1);
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 20);
        RunSummary summary = engine.shutdown();

        // Sent after the SUBSCRIBE left and before its SUBACK came, by the times alone undecided: 21, the first back,
        // reached the broker after them, when the subscription held, so they were routed before it.
        assertThat(summary.delivery.publishedWhileSessionLost).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.delivery.undecidedAroundSubscription).isZero();
        assertThat(summary.delivery.expected).isEqualTo(20);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.verdictLine()).contains("10 deliveries owed to nobody (publishedWhileSessionLost)");
    }

    @Test
    void aLapsesMessages_areDecidedEachByItsPlace_beforeTheSubscribe_routedBeforeOrAfterTheSubscription_afterTheSuback() {
        MemoryEngine engine = cleanSubscriberAfterTen("sub-w");
        // 11-20: published while the subscriber is away, before its new SUBSCRIBE.
        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("sub-w");
        MemoryEngine.letTheClockMoveOn(5_000);
        publish(engine, 10);
        // 21-30: after the SUBSCRIBE left, before the broker set the subscription up.
        subscribeAgainHeld(engine);
        publish(engine, 10);
        // 31-40: set up, its SUBACK not yet sent; the broker drops 34 and 35.
        broker.setUpHeldSubscriptions();
        publish(engine, 3);
        broker.drop(Which.next(2), "lapse/#");
        publish(engine, 7);
        engine.awaitCount(Count.RECEIVED, 18);
        // 41-50: after the SUBACK; the broker drops 41.
        broker.releaseSubscriptions();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 1);
        broker.drop(Which.next(1), "lapse/#");
        publish(engine, 10);
        engine.awaitCount(Count.RECEIVED, 27);
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.DROPPED)).as(summary.toTable()).isEqualTo(3);
        // Owed to nobody: 11-20 by the times, 21-30 by the order (31 came back after them). Owed: 1-10, 31-40 (34
        // and 35 reached the broker after 31, when the subscription held) and 41-50 (sent after the SUBACK).
        assertThat(summary.delivery.publishedWhileSessionLost).isEqualTo(20);
        assertThat(summary.delivery.undecidedAroundSubscription).isZero();
        assertThat(summary.delivery.expected).isEqualTo(30);
        assertThat(summary.delivery.lost()).isEqualTo(3);
        assertThat(summary.delivery.lostFromKeptSessions).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.LOSS);
        assertThat(summary.verdictLine()).contains("3 of 30 expected deliveries missing")
                .contains("20 deliveries owed to nobody (publishedWhileSessionLost)");
    }
}
