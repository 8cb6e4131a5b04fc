package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.report.ReportText;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.mqttload.testsupport.memory.Which;

/**
 * Owed is owed; nothing else is lost. Every count the declaration marks as deliveries owed to nobody
 * ({@link Count#NOT_OWED_DELIVERIES}) has a run here on the in-memory broker that makes some beside deliveries that
 * were owed: they stay out of expected and lost in the engine's summary, its JSON, the merged report and the reports,
 * and the verdict line says them. SharedSubscriptionIT checks the same against a broker without shared subscriptions.
 */
class NotOwedTest {
    private static final int MESSAGES = 10;

    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    /**
     * A run that makes the count's deliveries, by count: each run's engine is owed MESSAGES deliveries, all delivered,
     * and MESSAGES more are owed to nobody. A count newly declared owed to nobody fails the test until it has one.
     */
    private static final Map<Count, Function<NotOwedTest, RunSummary>> RUNS = Map.of(Count.UNSERVED_SHARED_DELIVERIES,
            t -> t.unservedSharedGroup(0), Count.PUBLISHED_BEFORE_SUBSCRIPTION, NotOwedTest::publishedBeforeSubscription,
            Count.PUBLISHED_WHILE_SESSION_LOST, NotOwedTest::publishedWhileSessionLost);

    static Stream<Count> notOwed() {
        return Count.NOT_OWED_DELIVERIES.stream();
    }

    @Test
    void theDeclarationHasCountsOfDeliveriesOwedToNobody_eachAnEngineCountMergedFromTheLedgers() {
        assertThat(Count.NOT_OWED_DELIVERIES).contains(Count.UNSERVED_SHARED_DELIVERIES);
        for (Count c : Count.NOT_OWED_DELIVERIES) {
            assertThat(c.inSummary()).as(c.key()).isTrue();
            assertThat(c.merge()).as(c.key()).isEqualTo(Count.Merge.FROM_LEDGERS);
            assertThat(c.isError()).as(c.key()).isFalse();
        }
        assertThat(Count.NOT_OWED_DELIVERIES).doesNotContain(Count.EXPECTED, Count.RECEIVED_OF_EXPECTED, Count.LOST);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notOwed")
    void deliveriesOwedToNobody_stayOutOfExpectedAndLost_inTheSummaryItsJsonTheMergeAndTheReports(Count c) {
        assertThat(RUNS).as(c.key() + " is declared owed to nobody: add a run to NotOwedTest that makes some").containsKey(c);
        RunSummary summary = RUNS.get(c).apply(this);
        String said = MESSAGES + " deliveries owed to nobody (" + c.key() + "), not in expected or lost";

        assertThat(summary.count(c)).as(summary.toTable()).isEqualTo(MESSAGES);
        assertThat(summary.count(Count.EXPECTED)).isEqualTo(MESSAGES);
        assertThat(summary.count(Count.RECEIVED_OF_EXPECTED)).isEqualTo(MESSAGES);
        assertThat(summary.count(Count.LOST)).isZero();
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.delivery.bySampler.values()).allSatisfy(v -> assertThat(v[0] - v[1]).isZero());
        assertThat(summary.verdictLine()).contains(said);
        assertThat(summary.toTable()).containsPattern("owed to nobody +" + MESSAGES + " \\(" + c.key() + "\\)");

        String json = summary.toJson();
        EngineSummary read = SummaryJson.readEngineSummary(json);
        assertThat(read.count(c)).isEqualTo(MESSAGES);
        assertThat(read.count(Count.LOST)).isZero();
        assertThat(read.count(Count.EXPECTED)).isEqualTo(MESSAGES);

        MergedReport merged = MergedReport.merge(List.of(json), List.of());
        assertThat(merged.count(c)).as("from the merged ledgers").isEqualTo(MESSAGES);
        assertThat(merged.notOwed()).isEqualTo(MESSAGES);
        assertThat(merged.lost()).isZero();
        assertThat(merged.count(Count.LOST)).isZero();
        assertThat(merged.expected).isEqualTo(MESSAGES);
        assertThat(merged.lossBySampler.values()).allSatisfy(v -> assertThat(v[0] - v[1]).isZero());
        assertThat(merged.figures().counts).containsEntry(c.key(), (long) MESSAGES).containsEntry(Count.LOST.key(), 0L);
        assertThat(merged.verdictLine()).contains(said);
        String line = "owed to nobody, not in expected or lost: " + MESSAGES + " (" + c.key() + ")";
        assertThat(ReportText.table(merged)).contains(line);
        assertThat(ReportText.markdown(merged)).contains(line);
    }

    @Test
    void aLossBesideAnUnservedSharedGroup_isTheOwedSubscribersAlone() {
        RunSummary summary = unservedSharedGroup(3);

        assertThat(summary.count(Count.EXPECTED)).as(summary.toTable()).isEqualTo(MESSAGES);
        assertThat(summary.count(Count.LOST)).isEqualTo(3);
        assertThat(summary.count(Count.UNSERVED_SHARED_DELIVERIES)).isEqualTo(MESSAGES);
        assertThat(summary.verdictLine()).contains("delivery: expected 10, received 7, lost 3; 10 deliveries owed"
                + " to nobody (unservedSharedDeliveries), not in expected or lost");
    }

    @Test
    void anUnservedSharedGroupOnOneEngine_publishersOnAnother_isOwedNothingInTheMerge() {
        ConnectionSettings settings = MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1).build();
        broker.shareFiltersAsPlainFilters();
        MemoryEngine subscribers = twoEngineRun(1);
        MemoryEngine publishers = twoEngineRun(2);
        sharedGroupAndPlainSubscriber(subscribers, settings);
        publishers.connect("connect pub", "pub", 1, settings, 1, "{engine}-pub", ReconnectPolicy.none());
        assertThat(publishers.publish("publish", "pub", 1, "test/a", 1, MESSAGES, true).ok).isTrue();
        subscribers.awaitCount(Count.RECEIVED, MESSAGES);

        String published = publishers.shutdown().toJson();
        String subscribed = subscribers.shutdown().toJson();
        MergedReport merged = MergedReport.merge(List.of(published, subscribed), List.of());

        assertThat(merged.expected).as(ReportText.table(merged)).isEqualTo(MESSAGES);
        assertThat(merged.lost()).isZero();
        assertThat(merged.count(Count.UNSERVED_SHARED_DELIVERIES)).isEqualTo(MESSAGES);
        assertThat(merged.count(Count.SHARED_GROUPS_UNSERVED)).isEqualTo(1);
        assertThat(merged.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(merged.verdictLine()).startsWith("FAILED: the broker probably does not support shared subscriptions")
                .contains("10 deliveries owed to nobody (unservedSharedDeliveries)");
    }

    private MemoryEngine twoEngineRun(int number) {
        return new MemoryEngine(broker, results, Map.of("mqttload.engineId", "engine-" + number,
                "mqttload.engineNumber", Integer.toString(number), "mqttload.engines", "2"));
    }

    /**
     * A broker without shared subscriptions (MQTT 3.1.1): a shared group it granted and never served, and an ordinary
     * subscriber on the same topics, whose first {@code dropped} deliveries the broker drops; MESSAGES messages
     * published.
     */
    private RunSummary unservedSharedGroup(int dropped) {
        broker.shareFiltersAsPlainFilters();
        if (dropped > 0) {
            broker.drop(Which.next(dropped), "test/#");
        }
        ConnectionSettings settings = MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1).build();
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        sharedGroupAndPlainSubscriber(engine, settings);
        engine.connect("connect pub", "pub", 1, settings, 1, "{engine}-pub", ReconnectPolicy.none());
        assertThat(engine.publish("publish", "pub", 1, "test/a", 1, MESSAGES, true).ok).isTrue();
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.SHARED_GROUPS_UNSERVED)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).startsWith("FAILED: the broker probably does not support shared subscriptions")
                .contains("shared group $share/perf/test/# received none of the 10 messages its filter matches, though"
                        + " the broker granted the filter at MQTT 3.1.1");
        return summary;
    }

    /** MESSAGES published before the one subscriber to test/# subscribed, and MESSAGES after. */
    private RunSummary publishedBeforeSubscription() {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect pub", "pub", 1, settings, 1, "{engine}-pub", ReconnectPolicy.none());
        assertThat(engine.publish("publish", "pub", 1, "test/a", 1, MESSAGES, true).ok).isTrue();
        MemoryEngine.letTheClockMoveOn(5_000);
        engine.connect("connect plain", "plain", 1, settings, 1, "{engine}-p", ReconnectPolicy.none());
        assertThat(engine.subscribe("subscribe plain", "plain", 1, "test/#", 1).ok).isTrue();
        MemoryEngine.letTheClockMoveOn(5_000);
        assertThat(engine.publish("publish", "pub", 1, "test/a", 1, MESSAGES, true).ok).isTrue();
        engine.awaitCount(Count.RECEIVED, MESSAGES);
        return engine.shutdown();
    }

    /**
     * MESSAGES published while the one subscriber to test/# was away from a broker that kept no session for it (a clean
     * session), and MESSAGES after it had subscribed again.
     */
    private RunSummary publishedWhileSessionLost() {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect plain", "plain", 1, settings, 1, "{engine}-p", new ReconnectPolicy(200, 5, 10));
        assertThat(engine.subscribe("subscribe plain", "plain", 1, "test/#", 1).ok).isTrue();
        engine.connect("connect pub", "pub", 1, settings, 1, "{engine}-pub", ReconnectPolicy.none());
        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect("engine-p");
        MemoryEngine.letTheClockMoveOn(5_000);
        assertThat(engine.publish("publish", "pub", 1, "test/a", 1, MESSAGES, true).ok).isTrue();
        MemoryEngine.letTheClockMoveOn(5_000);
        broker.acceptConnects();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 1);
        MemoryEngine.letTheClockMoveOn(5_000);
        assertThat(engine.publish("publish", "pub", 1, "test/a", 1, MESSAGES, true).ok).isTrue();
        engine.awaitCount(Count.RECEIVED, MESSAGES);
        return engine.shutdown();
    }

    /** Two members of the group $share/perf/test/# and an ordinary subscriber to test/#. */
    private static void sharedGroupAndPlainSubscriber(MemoryEngine engine, ConnectionSettings settings) {
        engine.connect("connect shared", "shared", 1, settings, 2, "{engine}-s-{client}", ReconnectPolicy.none());
        assertThat(engine.subscribe("subscribe shared", "shared", 1, "$share/perf/test/#", 1).ok).isTrue();
        engine.connect("connect plain", "plain", 1, settings, 1, "{engine}-p", ReconnectPolicy.none());
        assertThat(engine.subscribe("subscribe plain", "plain", 1, "test/#", 1).ok).isTrue();
    }
}
