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

import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.ReconnectPolicy.Kind;
import io.mqttload.delivery.Verdict;
import io.mqttload.live.LiveFeed;
import io.mqttload.live.LiveText;
import io.mqttload.measure.Count;
import io.mqttload.report.HtmlReport;
import io.mqttload.report.ReportText;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.report.prometheus.PrometheusMetrics;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RecoveryFigures;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

/**
 * An outage the plan declared, on the in-memory broker: clients the MQTT Outage sampler drops, or a broker restart it
 * expects, are judged on recovery (every client back, within the plan's bound), not failed as lost connections; the
 * same drop undeclared keeps today's FAILED. No failure tolerance: the declaration alone excuses the losses.
 */
class InMemoryOutageTest {
    /** A fixed delay: each dropped client's first reconnect attempt comes 50 ms after its loss, and succeeds. */
    private static final ReconnectPolicy FIXED = new ReconnectPolicy(Kind.FIXED, 20, 50, 50, 0, 0, false);

    @TempDir
    Path results;
    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    /** 100 subscribers and a publisher, 10 messages delivered to each subscriber. */
    private MemoryEngine fleet(ReconnectPolicy reconnects) {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        assertThat(engine.connect("connect subs", "subs", 1, MemoryEngine.settings().build(), 100, "sub-{client}",
                reconnects).ok).isTrue();
        assertThat(engine.subscribe("subscribe", "subs", 1, "fleet/#", 1).ok).isTrue();
        engine.connect("connect pub", "pub", 2, MemoryEngine.settings().build(), 1, "pub", ReconnectPolicy.none());
        assertThat(engine.publish("publish", "pub", 2, "fleet/x", 1, 10, true).ok).isTrue();
        engine.awaitCount(Count.RECEIVED, 1_000);
        return engine;
    }

    @Test
    void hundredClientsDropped_backUnderAFixedDelay_areARecovery_notAFailure() {
        MemoryEngine engine = fleet(FIXED);

        OperationResult outage = engine.outage("outage", "subs", 1, "DROP", 100, 10_000, 5_000);
        assertThat(outage.message).isEqualTo("dropped 100 of the group's 100 client(s); 100 connected again within 5000 ms");
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 100);
        assertThat(engine.publish("publish", "pub", 2, "fleet/x", 1, 10, true).ok).isTrue();
        engine.awaitCount(Count.RECEIVED, 2_000);
        // The live panel's line, from the engine's next interval.
        LiveFeed feed = LiveFeed.attach(engine.runtime());
        await().atMost(Duration.ofSeconds(5)).until(() -> feed.latest() != null);
        assertThat(LiveText.counts(feed.latest())).contains("outage       1 declared   100 client(s) offline   100 back"
                + "   100 reconnect attempts");
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.OUTAGES_DECLARED)).as(summary.toTable()).isEqualTo(1);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isEqualTo(100);
        assertThat(summary.count(Count.OUTAGE_CLIENTS)).isEqualTo(100);
        assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(100);
        assertThat(summary.count(Count.RECOVERY_ATTEMPTS_MEDIAN)).isEqualTo(1);
        assertThat(summary.count(Count.RECOVERY_ATTEMPTS_MAX)).isEqualTo(1);
        // Clean sessions: the in-memory broker kept none.
        assertThat(summary.count(Count.OUTAGE_SESSIONS_KEPT)).isZero();
        assertThat(summary.count(Count.OUTAGE_SESSIONS_LOST)).isEqualTo(100);
        // Each came back after its 50 ms delay at least; the shares in order, the last at the end of the outage.
        assertThat(summary.count(Count.RECOVERY_P50_MILLIS)).isGreaterThanOrEqualTo(50);
        assertThat(List.of(summary.count(Count.RECOVERY_P50_MILLIS), summary.count(Count.RECOVERY_P90_MILLIS),
                summary.count(Count.RECOVERY_P99_MILLIS), summary.count(Count.RECOVERY_P100_MILLIS))).isSorted();
        assertThat(summary.count(Count.OUTAGE_END_MILLIS) - summary.count(Count.OUTAGE_START_MILLIS))
                .isEqualTo(summary.count(Count.RECOVERY_P100_MILLIS));
        assertThat(summary.count(Count.RECOVERY_BOUND_MILLIS)).isEqualTo(10_000);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.verdictLine()).contains("; declared outage: 100 of 100 client(s) back, recovered in "
                + summary.count(Count.RECOVERY_P100_MILLIS) + " ms (bound 10000 ms;", ", sessions kept 0, lost 100;"
                + " lost against the broker's promise 0");

        // The figures travel in the summary's JSON and merge as declared.
        EngineSummary read = SummaryJson.readEngineSummary(summary.toJson());
        MergedReport merged = MergedReport.of(List.of(read), List.of());
        assertThat(merged.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(100);
        assertThat(merged.count(Count.RECOVERY_P100_MILLIS)).isEqualTo(summary.count(Count.RECOVERY_P100_MILLIS));
        assertThat(merged.verdict()).isEqualTo(Verdict.NO_LOSS);
        String recovery = "1 outage(s) declared, 100 client(s) taken offline, 100 back; outage from ";
        assertThat(merged.recovery()).startsWith(recovery).contains("attempts per client median 1, max 1",
                "sessions kept 0, lost 100", "messages owed 2000, delivered 2000, lost against the promise 0");
        assertThat(ReportText.table(merged)).contains("recovery: " + recovery);
        assertThat(ReportText.markdown(merged)).contains("Recovery: " + recovery);
        assertThat(HtmlReport.render(merged)).contains("<p>Recovery: " + recovery);
        // InfluxDB's run report point and the engine's Prometheus figures read the declaration too.
        assertThat(ReportPoints.of(merged, 1L).get(0)).contains(",outageClientsBack=100i,",
                ",recoveryP100Millis=" + summary.count(Count.RECOVERY_P100_MILLIS) + "i,");
        PrometheusMetrics prometheus = new PrometheusMetrics(engine.context().metrics(), engine.runtime().config());
        prometheus.onRunEnd(summary);
        MetricSnapshot back = prometheus.collect().stream()
                .filter(m -> m.getMetadata().getName().endsWith(PrometheusMetrics.name(Count.OUTAGE_CLIENTS_BACK)))
                .findFirst().orElseThrow();
        assertThat(((GaugeSnapshot) back).getDataPoints().get(0).getValue()).isEqualTo(100.0);
    }

    @Test
    void persistentSubscribersDroppedWhileTheBrokerRefusesThem_getTheirBacklog_countedAndTimed() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect subs", "subs", 1, MemoryEngine.settings().cleanStart(false).sessionExpirySeconds(3_600)
                .build(), 10, "kept-{client}", FIXED);
        assertThat(engine.subscribe("subscribe", "subs", 1, "kept/#", 1).ok).isTrue();
        engine.connect("connect pub", "pub", 2, MemoryEngine.settings().build(), 1, "pub", ReconnectPolicy.none());

        // Away until the ten are published: every reconnect attempt meanwhile is refused "later".
        broker.refuseConnects("SERVER_UNAVAILABLE");
        assertThat(engine.outage("outage", "subs", 1, "DROP", 100, 10_000, 0).ok).isTrue();
        engine.awaitCount(Count.CONNECTIONS_LOST, 10);
        assertThat(engine.publish("publish", "pub", 2, "kept/x", 1, 10, true).ok).isTrue();
        broker.acceptConnects();
        engine.awaitCount(Count.RECEIVED, 100);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.count(Count.OUTAGE_SESSIONS_KEPT)).isEqualTo(10);
        assertThat(summary.count(Count.BACKLOG_RECEIVED)).isEqualTo(100);
        assertThat(summary.count(Count.BACKLOG_DRAIN_MILLIS)).isPositive();
        // Each refused attempt is one of its client's; the reasons are the counts the reconnect policy keeps.
        assertThat(summary.count(Count.RECOVERY_ATTEMPTS_MAX)).isGreaterThanOrEqualTo(1);
        assertThat(summary.count(Count.CONNACK_SERVER_UNAVAILABLE)).isEqualTo(summary.count(Count.RECONNECT_ATTEMPTS_MADE)
                - summary.count(Count.RECONNECTS));
        assertThat(summary.delivery.expected).isEqualTo(100);
        assertThat(summary.delivery.lostFromKeptSessions).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(RecoveryFigures.line(summary::count)).contains("sessions kept 10, lost 0; backlog drained: 100 message(s) in "
                + summary.count(Count.BACKLOG_DRAIN_MILLIS) + " ms");
    }

    @Test
    void clientsKeptOfflineForTheirTime_comeBackAfterIt_attemptingOnce() {
        MemoryEngine engine = fleet(FIXED);

        OperationResult outage = engine.outage("outage", "subs", 1, "DROP", 10, 300, 10_000, 5_000);
        RunSummary summary = engine.shutdown();

        assertThat(outage.message).isEqualTo("dropped 10 of the group's 100 client(s); 10 connected again within 5000 ms");
        // The policy's 50 ms delay gives way to the 300 ms offline time; one attempt each, when it has passed.
        assertThat(summary.count(Count.RECOVERY_P50_MILLIS)).as(summary.toTable()).isGreaterThanOrEqualTo(300);
        assertThat(summary.count(Count.RECOVERY_ATTEMPTS_MAX)).isEqualTo(1);
        assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(10);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void theSameClientsDroppedTwice_areTwoOutages_neitherAFailure() {
        MemoryEngine engine = fleet(FIXED);

        engine.outage("outage", "subs", 1, "DROP", 10, 10_000, 5_000);
        engine.outage("outage", "subs", 1, "DROP", 10, 10_000, 5_000);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.OUTAGES_DECLARED)).as(summary.toTable()).isEqualTo(2);
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isEqualTo(20);
        assertThat(summary.count(Count.OUTAGE_CLIENTS)).isEqualTo(20);
        assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(20);
        assertThat(summary.verdict()).as(summary.verdictLine()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void theSameDropUndeclared_failsAsToday() {
        MemoryEngine engine = fleet(FIXED);

        for (int i = 0; i < 100; i++) {
            broker.disconnect("sub-" + i);
        }
        engine.awaitCount(Count.RECONNECTS, 100);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.OUTAGES_DECLARED)).isZero();
        assertThat(summary.count(Count.OUTAGE_CLIENTS)).isZero();
        assertThat(summary.verdict()).as(summary.verdictLine()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("100 established connection(s) lost").doesNotContain("outage");
    }

    @Test
    void aShareOfTheGroup_isRoundedUp() {
        MemoryEngine engine = fleet(FIXED);

        OperationResult outage = engine.outage("outage", "subs", 1, "DROP", 25, 10_000, 5_000);
        engine.awaitCount(Count.RECONNECTS, 25);
        RunSummary summary = engine.shutdown();

        assertThat(outage.message).startsWith("dropped 25 of the group's 100 client(s)");
        assertThat(summary.count(Count.OUTAGE_CLIENTS)).isEqualTo(25);
        assertThat(summary.verdict()).as(summary.verdictLine()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void anExpectedBrokerRestart_isDetectedFromTheConnectionsLost_andJudgedOnRecovery() {
        MemoryEngine engine = fleet(FIXED);

        assertThat(engine.outage("restart expected", "subs", 1, "BROKER_RESTART", 100, 10_000, 0).ok).isTrue();
        broker.restart();
        engine.awaitCount(Count.SUBSCRIBER_LAPSES_RECORDED, 100);
        RunSummary summary = engine.shutdown();

        // The publisher has no reconnect policy: its loss is an affected client that never came back.
        assertThat(summary.count(Count.OUTAGE_CLIENTS)).as(summary.toTable()).isEqualTo(101);
        assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(100);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.judgement().reasons).containsExactly("1 of 101 client(s) the declared outage took offline"
                + " were not connected again");
    }

    @Test
    void aRecoverySlowerThanThePlansBound_failsTheRun() {
        MemoryEngine engine = fleet(FIXED);

        engine.outage("outage", "subs", 1, "DROP", 10, 20, 5_000);
        engine.awaitCount(Count.RECONNECTS, 10);
        RunSummary summary = engine.shutdown();

        long took = summary.count(Count.RECOVERY_P100_MILLIS);
        assertThat(took).isGreaterThanOrEqualTo(50);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.judgement().reasons).containsExactly("recovery from the declared outage took " + took
                + " ms until every client was connected again, over the plan's bound of 20 ms");
    }

    @Test
    void aDeclaredRestartThatNeverCame_failsTheRun() {
        MemoryEngine engine = fleet(FIXED);

        engine.outage("restart expected", "subs", 1, "BROKER_RESTART", 100, 10_000, 0);
        RunSummary summary = engine.shutdown();

        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.judgement().reasons).containsExactly("the outage the plan declared was not seen: no client"
                + " lost its connection after the declaration");
    }

    @Test
    void publishesOfClientsTheDeclaredOutageHoldsOffline_areTheOutages_notFailures() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect sub", "sub", 1, MemoryEngine.settings().build(), 1, "sub", FIXED);
        assertThat(engine.subscribe("subscribe", "sub", 1, "own/#", 1).ok).isTrue();
        engine.connect("connect pubs", "pubs", 2, MemoryEngine.settings().build(), 10, "pub-{client}", FIXED);

        // The publishers' own clients dropped and kept away 60 s: each of their publishes meanwhile fails.
        assertThat(engine.outage("outage", "pubs", 2, "DROP", 100, 60_000, 120_000, 0).ok).isTrue();
        engine.awaitCount(Count.CONNECTIONS_LOST, 10);
        assertThat(engine.publish("publish", "pubs", 2, "own/x", 1, 5, true).ok).isFalse();
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.PUBLISH_FAILED)).as(summary.toTable()).isEqualTo(5);
        assertThat(summary.count(Count.PUBLISH_FAILED_IN_OUTAGE)).isEqualTo(5);
        // Judged on recovery (the ten never came back within the run), not on the 5 failed publishes.
        assertThat(summary.judgement().reasons).containsExactly("10 of 10 client(s) the declared outage took offline"
                + " were not connected again");
        assertThat(summary.verdictLine()).contains("; 5 publish(es) failed while it held their client offline");
    }

    @Test
    void aRestartOutsideTheDeclaredWindow_isAFailure_notTheOutage() {
        MemoryEngine engine = fleet(FIXED);

        assertThat(engine.restartExpected("restart expected", 1, 10_000).message).isEqualTo("broker restart expected"
                + " within 1 ms; recovery bound 10000 ms");
        long over = System.currentTimeMillis() + 5;
        await().atMost(Duration.ofSeconds(2)).until(() -> System.currentTimeMillis() > over);
        broker.restart();
        engine.awaitCount(Count.RECONNECTS, 100);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.OUTAGE_CLIENTS)).as(summary.toTable()).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.judgement().reasons).contains("the outage the plan declared was not seen: no client lost its"
                + " connection after the declaration").anySatisfy(r -> assertThat(r).startsWith("101 established"
                + " connection(s) lost beyond the declared outage's"));
    }
}
