package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.report.ReportText;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * Verdicts and counts of runs that go wrong, on the in-memory broker: refused connects and subscriptions, a publish
 * with no client, a lost connection and its reconnect, a persistent session across an outage, and two engines merged
 * (FailureVerdictIT, CutShortVerdictIT and BrokerOutageIT check the same against real brokers and JMeter).
 */
class InMemoryFailureTest {
    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();


    private MemoryEngine engine() {
        return new MemoryEngine(broker, results, Map.of());
    }

    @Test
    void refusedConnects_failTheRunNamingTheReason_andNothingIsPublished() {
        broker.refuseConnects("NOT_AUTHORIZED");
        MemoryEngine engine = engine();
        ConnectionSettings settings = MemoryEngine.settings().build();

        OperationResult connect = engine.connect("connect pub", "pub", 1, settings, 3, "p-{client}",
                ReconnectPolicy.none());
        OperationResult publish = engine.publish("publish", "pub", 1, "t/{client}", 1, 5, true);
        RunSummary summary = engine.shutdown();

        assertThat(connect.code).isEqualTo("CONNECT_FAILED");
        assertThat(connect.message).contains("CONNACK refused: NOT_AUTHORIZED");
        assertThat(publish.ok).isFalse();
        assertThat(summary.count(Count.CONNECTS_FAILED)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.count(Count.PUBLISHED)).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).startsWith("FAILED: no connection succeeded: 3 connect(s) failed");
        assertThat(summary.failures).anySatisfy(r -> {
            assertThat(r.kind).isEqualTo(FailureTally.Kind.CONNECT);
            assertThat(r.count).isEqualTo(3);
            assertThat(r.reason).isEqualTo("CONNACK refused: NOT_AUTHORIZED (in-memory broker)");
        });
        // Every message attempted without a connection: failed, and never sent.
        assertThat(summary.count(Count.PUBLISH_FAILED)).isEqualTo(5);
        assertThat(summary.count(Count.PUBLISH_NOT_SENT)).isEqualTo(5);
        assertThat(summary.failures).extracting(r -> r.kind).containsExactlyInAnyOrder(FailureTally.Kind.CONNECT,
                FailureTally.Kind.PUBLISH);
        assertThat(summary.toTable()).contains("errors by sampler").contains("connect pub");
        MergedReport report = MergedReport.merge(List.of(summary.toJson()), List.of());
        assertThat(report.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(report.toJson()).contains("\"kind\": \"connect\"").contains("\"reason\": \"CONNACK refused");
        assertThat(ReportPoints.of(report, 1_000)).anySatisfy(line -> assertThat(line)
                .startsWith("mqtt_report_errors,").contains("kind=connect"));
        assertThat(ReportText.markdown(report)).contains("| errors by sampler |");
    }

    @Test
    void anUnansweredConnect_endsWithTheClientsTimeout_asATimedOutConnect() {
        broker.ignoreConnects();
        // Not asked for its version: the question would go unanswered too, and wait its own timeout.
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of(RunConfig.BROKER_VERSION_TIMEOUT_MS, "0"));

        OperationResult connect = engine.connect("connect", "c", 1, MemoryEngine.settings().connectTimeoutMs(100).build(),
                2, "c-{client}", ReconnectPolicy.none());
        RunSummary summary = engine.shutdown();

        assertThat(connect.code).isEqualTo("CONNECT_FAILED");
        assertThat(connect.message).contains("connected 0 of 2").contains("Timeout while waiting for CONNACK");
        assertThat(summary.count(Count.CONNECTS_FAILED)).isEqualTo(2);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_UNANSWERED)).isEqualTo(2);
    }

    @Test
    void aRefusedSubscription_failsTheRunWithItsReason_andTheGrantedFilterIsStillChecked() {
        broker.refuseSubscribe("closed/#", "NOT_AUTHORIZED");
        MemoryEngine engine = engine();
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, settings, 2, "s-{client}", ReconnectPolicy.none());
        OperationResult subscribe = engine.subscribe("subscribe", "sub", 1, "open/#, closed/#", 1);
        engine.connect("connect pub", "pub", 1, settings, 1, "p-{client}", ReconnectPolicy.none());
        engine.publish("publish", "pub", 1, "open/a", 1, 20, true);
        RunSummary summary = engine.shutdown();

        assertThat(subscribe.ok).isFalse();
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("2 of 2 subscriptions failed (most often: 2 x SUBACK refused:");
        assertThat(summary.failures).singleElement().satisfies(r -> {
            assertThat(r.kind).isEqualTo(FailureTally.Kind.SUBSCRIBE);
            assertThat(r.count).isEqualTo(2);
        });
        assertThat(summary.delivery.expected).isEqualTo(40);
        assertThat(summary.delivery.receivedOfExpected).isEqualTo(40);
    }

    @Test
    void messagesSentWhileTheBrokerSetsASubscriptionUp_makeTheLossUncertainNotPlain() {
        // Not asked for its version: that question's own SUBSCRIBE would be held too.
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of(RunConfig.BROKER_VERSION_TIMEOUT_MS, "0"));
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, settings, 1, "s", ReconnectPolicy.none());
        engine.connect("connect pub", "pub", 2, settings, 1, "p", ReconnectPolicy.none());
        broker.holdSubscriptions();

        CompletableFuture<OperationResult> subscribe = CompletableFuture.supplyAsync(
                () -> engine.subscribe("subscribe", "sub", 1, "race/#", 1));
        await().atMost(Duration.ofSeconds(2)).until(() -> broker.count(InMemoryBroker.Count.SUBSCRIBES_HELD) == 1);
        // Sent after the SUBSCRIBE was asked for, before the broker set it up: owed by the broker to no one, and the
        // ledger cannot tell (they were sent inside the subscription's window), so they are undecided, not owed.
        OperationResult publish = engine.publish("publish", "pub", 2, "race/x", 1, 10, true);
        broker.releaseSubscriptions();
        OperationResult subscribed = subscribe.join();
        RunSummary summary = engine.shutdown();

        assertThat(publish.ok).isTrue();
        assertThat(subscribed.ok).isTrue();
        assertThat(summary.count(Count.ACKNOWLEDGED)).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.count(Count.RECEIVED)).isZero();
        assertThat(summary.delivery.expected).isZero();
        assertThat(summary.delivery.undecidedAroundSubscription).isEqualTo(10);
        assertThat(summary.delivery.publishedBeforeSubscription).isZero();
        assertThat(summary.delivery.lateSubscriptions).isEqualTo(1);
        assertThat(summary.verdict()).isEqualTo(Verdict.LOSS_UNCERTAIN);
        assertThat(summary.verdictLine()).contains("1 subscription(s) were made after matching messages had been"
                + " published");
    }

    @Test
    void requestsNoOneAnswers_failTheRunWithTheUnansweredCount() {
        MemoryEngine engine = engine();
        engine.connect("connect req", "req", 1, MemoryEngine.settings().build(), 1, "rq", ReconnectPolicy.none());
        engine.subscribe("subscribe", "req", 1, "reply/{thread}", 1);
        assertThat(engine.request("request", "req", 1, "nobody/{thread}", "reply/{thread}", 5).ok).isTrue();
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.REQUESTS_PUBLISHED)).as(summary.toTable()).isEqualTo(5);
        assertThat(summary.count(Count.REPLIES_RECEIVED)).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("5 of 5 request(s) got no reply");
    }

    @Test
    void aPublishInAGroupWithNoClient_isAFailedSample_andTheRunFails() {
        MemoryEngine engine = engine();
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect subs", "subs", 1, settings, 1, "s", ReconnectPolicy.none());
        engine.subscribe("subscribe", "subs", 1, "ug/#", 1);
        engine.connect("connect pubs", "pubs", 1, settings, 1, "p", ReconnectPolicy.none());
        for (int i = 0; i < 10; i++) {
            engine.publish("publish ok", "pubs", 1, "ug/ok", 1, 1, true);
            assertThat(engine.publish("publish lost", "default", 1, "ug/lost", 1, 1, true).code)
                    .isEqualTo("NOT_CONNECTED");
        }
        RunSummary summary = engine.shutdown();

        assertThat(summary.delivery.expected).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.SAMPLES_FAILED)).isEqualTo(10);
        assertThat(Count.errors(summary::count)).isEqualTo(10);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).startsWith("FAILED: 10 sample(s) failed (most often: 10 x NOT_CONNECTED")
                .contains("in 'publish lost'");
        assertThat(summary.failures).singleElement().satisfies(r -> assertThat(r.kind).isEqualTo(FailureTally.Kind.SAMPLE));
    }

    @Test
    void aConnectionTheBrokerDrops_isCountedLost_reconnectsWithoutItsSession_andFailsTheRunSayingWhy() {
        MemoryEngine engine = engine();
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, settings, 1, "sub", new ReconnectPolicy(50, 10, 20));
        engine.subscribe("subscribe", "sub", 1, "away/#", 1);
        engine.connect("connect pub", "pub", 1, settings, 1, "pub", ReconnectPolicy.none());
        engine.publish("publish", "pub", 1, "away/x", 1, 5, true);

        // Away while five are published: a clean session keeps nothing for it, and the client subscribes again.
        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("sub");
        engine.publish("publish", "pub", 1, "away/x", 1, 5, true);
        broker.acceptConnects();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 1);
        engine.publish("publish", "pub", 1, "away/x", 1, 5, true);
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.QUEUED_OFFLINE)).isZero();
        assertThat(summary.count(Count.RECEIVED)).as(summary.toTable()).isEqualTo(10);
        // The five sent while it was away were owed to nobody: the engine subscribed again and recorded the lapse.
        assertThat(summary.delivery.expected).isEqualTo(10);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.delivery.publishedWhileSessionLost).isEqualTo(5);
        assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).isEqualTo(1);
        assertThat(summary.count(Count.SUBSCRIBER_LAPSES_RECORDED)).isEqualTo(1);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isEqualTo(1);
        assertThat(summary.count(Count.RECONNECTS)).isEqualTo(1);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("established connection(s) lost")
                .contains("5 deliveries owed to nobody (publishedWhileSessionLost)")
                .doesNotContain("reconnected to a broker that had kept no session for them");
        assertThat(summary.failures).anySatisfy(r -> assertThat(r.kind).isEqualTo(FailureTally.Kind.CONNECTION_LOST));
    }

    @Test
    void aPublisherWhoseConnectionIsGone_failsItsSampleSayingSo_andTheRunFails() {
        MemoryEngine engine = engine();
        engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "gone", ReconnectPolicy.none());
        engine.publish("publish", "pub", 1, "gone/x", 1, 3, true);

        broker.disconnect("gone");
        OperationResult publish = engine.publish("publish", "pub", 1, "gone/x", 1, 3, true);
        RunSummary summary = engine.shutdown();

        assertThat(publish.ok).isFalse();
        assertThat(publish.message).contains("not connected");
        assertThat(summary.count(Count.ACKNOWLEDGED)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isEqualTo(1);
        assertThat(summary.count(Count.RECONNECTS)).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void aPersistentSession_getsTheQos1MessagesQueuedWhileItWasAway() {
        MemoryEngine engine = engine();
        ConnectionSettings persistent = MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1)
                .cleanStart(false).build();
        engine.connect("connect sub", "sub", 1, persistent, 1, "keeper", new ReconnectPolicy(50, 10, 20));
        engine.subscribe("subscribe", "sub", 1, "kept/#", 1);
        engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "pub", ReconnectPolicy.none());

        // Away until the publishes are done: every reconnect is refused meanwhile.
        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("keeper");
        engine.publish("publish", "pub", 1, "kept/x", 1, 10, true);
        broker.acceptConnects();
        engine.awaitCount(Count.RECONNECTS, 1);
        RunSummary summary = engine.shutdown();

        assertThat(broker.count(InMemoryBroker.Count.QUEUED_OFFLINE)).isEqualTo(10);
        assertThat(summary.count(Count.RECEIVED)).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).isZero();
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isEqualTo(1);
    }

    @Test
    void twoEnginesMerged_addUpTheirFigures() {
        List<String> summaries = List.of(pair("engine-1", 1, 12), pair("engine-2", 2, 30));

        MergedReport report = MergedReport.merge(summaries, List.of());

        assertThat(report.count(Count.PUBLISHED)).isEqualTo(42);
        assertThat(report.count(Count.RECEIVED)).isEqualTo(42);
        assertThat(report.count(Count.EXPECTED)).isEqualTo(42);
        assertThat(report.lost()).isZero();
        assertThat(report.count(Count.CONNECTS_OK)).isEqualTo(4);
        assertThat(report.engines).hasSize(2);
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    /** One engine of a two-engine run: a publisher and a subscriber of its own; returns its summary's JSON. */
    private String pair(String engineId, int number, int messages) {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of("mqttload.engineId", engineId,
                "mqttload.engineNumber", Integer.toString(number), "mqttload.engines", "2"));
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, settings, 1, "{engine}-s", ReconnectPolicy.none());
        engine.subscribe("subscribe", "sub", 1, "merge/{engine}", 1);
        engine.connect("connect pub", "pub", 1, settings, 1, "{engine}-p", ReconnectPolicy.none());
        engine.publish("publish", "pub", 1, "merge/{engine}", 1, messages, false);
        engine.disconnect("disconnect", "pub", 1);
        engine.disconnect("disconnect", "sub", 1);
        return engine.shutdown().toJson();
    }
}
