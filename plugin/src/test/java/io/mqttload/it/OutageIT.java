package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.outage;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.sampler.TestAction;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * The MQTT Outage sampler through JMeter against HiveMQ CE: its DROP closes real connections without DISCONNECT, the
 * clients stay away for its offline time, then come back through their own reconnect policy to the sessions the broker
 * kept and the backlog published meanwhile, and the run is judged on
 * recovery (no failure tolerance), its figures in the summary and every form of the report. The arithmetic of the
 * figures and the verdict's other cases are InMemoryOutageTest's and RecoveryTrackerTest's.
 */
class OutageIT {
    private static final int SUBSCRIBERS = 20;
    private static EmbeddedHiveMqBroker broker;

    @TempDir
    Path results;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void droppedSubscribersComeBackToTheirSessions_theRunIsJudgedOnRecovery_withItsFiguresInEveryForm() throws Exception {
        HashTree plan = PlanBuilder.testPlan("outage")
                .config(with(with(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"), "cleanStart", "false"),
                        "sessionExpirySeconds", "600"))
                .config(runReport())
                .threadGroup("t", 1, 1)
                .add(with(with(with(with(connect("subs", SUBSCRIBERS, "{engine}-outage-s-{client}"), "reconnectPolicy",
                        "FIXED"), "reconnectAttempts", "20"), "reconnectDelayMs", "200"), "reconnectMaxDelayMs", "200"))
                .add(subscribe("subs", "outage-it/#", 1))
                .add(connect("pub", 1, "{engine}-outage-p"))
                .add(publish("pub", "outage-it/a", 1, 20, "SYNC"))
                .add(with(outage("subs", "DROP", 100, 20_000, 0), "offlineMs", "2000"))
                .add(publish("pub", "outage-it/a", 1, 20, "SYNC"))
                .build();

        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "10000",
                "mqttload.closeTimeoutMs", "2000", "mqttload.brokerVersionTimeoutMs", "0", "mqttload.runId", "outage-it"));
        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        assertThat(run.failures()).as(run.describe()).isEmpty();
        List<SampleResult> drop = run.byLabel("outage subs");
        assertThat(drop).hasSize(1);
        assertThat(drop.get(0).getResponseMessage()).isEqualTo("dropped 20 of the group's 20 client(s)");
        // Dropped without DISCONNECT: HiveMQ CE saw lost connections, and kept each persistent session.
        assertThat(summary.count(Count.CONNECTIONS_LOST)).as(summary.toTable()).isEqualTo(SUBSCRIBERS);
        assertThat(summary.count(Count.OUTAGES_DECLARED)).isEqualTo(1);
        assertThat(summary.count(Count.OUTAGE_CLIENTS)).isEqualTo(SUBSCRIBERS);
        assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(SUBSCRIBERS);
        assertThat(summary.count(Count.OUTAGE_SESSIONS_KEPT)).isEqualTo(SUBSCRIBERS);
        // Each came back after its offline time of 2 s at least (its policy's 200 ms gave way), at its first attempt,
        // to the 20 messages published while it was away: the backlog HiveMQ kept in its session, with any of the first
        // 20 still on their way to it when it was dropped (a run saw 404).
        assertThat(summary.count(Count.RECOVERY_P50_MILLIS)).isGreaterThanOrEqualTo(2_000);
        assertThat(summary.count(Count.BACKLOG_RECEIVED)).isBetween(20L * SUBSCRIBERS, 40L * SUBSCRIBERS);
        assertThat(summary.count(Count.BACKLOG_DRAIN_MILLIS)).isPositive();
        assertThat(summary.count(Count.RECOVERY_ATTEMPTS_MAX)).isEqualTo(1);
        assertThat(summary.delivery.expected).isEqualTo(2L * 20 * SUBSCRIBERS);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.verdict()).as(summary.verdictLine()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.verdictLine()).contains("declared outage: 20 of 20 client(s) back, recovered in");

        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(report.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(SUBSCRIBERS);
        String recovery = "1 outage(s) declared, 20 client(s) taken offline, 20 back";
        assertThat(report.recovery()).startsWith(recovery);
        assertThat(Files.readString(results.resolve("report-outage-it.md"), StandardCharsets.UTF_8))
                .contains("Recovery: " + recovery).contains("| `outageClients` |");
        assertThat(Files.readString(results.resolve("report-outage-it.html"), StandardCharsets.UTF_8))
                .contains("Recovery: " + recovery).contains("Through the declared outage: open connections and"
                        + " reconnect attempts per second");
        assertThat(Files.readString(results.resolve("report-outage-it.txt"), StandardCharsets.UTF_8))
                .contains("recovery: " + recovery);
    }

    /**
     * BROKER_RESTART against a real restart: Mosquitto (no persistence) stopped and started while the plan's clients
     * wait; the engine sees every connection lost after the declaration and times each return, and the run, whose
     * messages all arrived before the restart, passes on recovery with no failure tolerance.
     */
    @Test
    void aDeclaredBrokerRestart_isSeenFromTheConnectionsLost_andEveryClientsReturnIsTimed() throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker mosquitto = MosquittoBroker.builder().start()) {
            TestAction pause = PlanBuilder.element(new TestAction(), "pause", "org.apache.jmeter.sampler.gui.TestActionGui");
            pause.setAction(TestAction.PAUSE);
            pause.setTarget(TestAction.THREAD);
            pause.setDuration("100");
            HashTree plan = PlanBuilder.testPlan("restart")
                    .config(connection("127.0.0.1", mosquitto.tcpPort(), "MQTT_5"))
                    .threadGroup("t", 1, PlanBuilder.FOREVER).duration(Duration.ofSeconds(8))
                    .add(onceOnly(), fixedDelay(connect("subs", 5, "{engine}-restart-s-{client}")),
                            subscribe("subs", "restart-it/#", 1), fixedDelay(connect("pub", 1, "{engine}-restart-p")),
                            publish("pub", "restart-it/a", 1, 10, "SYNC"),
                            outage("subs", "BROKER_RESTART", 100, 20_000, 0))
                    .add(pause)
                    .build();

            CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> JMeterTestEngine.run(plan,
                    Duration.ofSeconds(60), Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds",
                            "0", "mqttload.drainTimeoutMs", "2000", "mqttload.closeTimeoutMs", "2000")));
            await("the restart declared").atMost(Duration.ofSeconds(30)).until(() -> JvmRun.running()
                    .map(r -> r.context().metrics().sum(Count.OUTAGES_DECLARED) == 1).orElse(false));
            mosquitto.stop();
            await("connections seen lost").atMost(Duration.ofSeconds(10)).until(() -> JvmRun.running().orElseThrow()
                    .context().metrics().sum(Count.CONNECTIONS_LOST) == 6);
            mosquitto.start();
            RunResult run = running.get(60, TimeUnit.SECONDS);
            RunSummary summary = JvmRun.lastSummary();

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.count(Count.OUTAGE_CLIENTS)).as(summary.toTable()).isEqualTo(6);
            assertThat(summary.count(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(6);
            // Mosquitto without persistence came back without any session.
            assertThat(summary.count(Count.OUTAGE_SESSIONS_LOST)).isEqualTo(6);
            assertThat(summary.count(Count.RECOVERY_P100_MILLIS)).isPositive()
                    .isEqualTo(summary.count(Count.OUTAGE_END_MILLIS) - summary.count(Count.OUTAGE_START_MILLIS));
            assertThat(summary.delivery.expected).isEqualTo(50);
            assertThat(summary.verdict()).as(summary.verdictLine()).isEqualTo(Verdict.NO_LOSS);
            assertThat(summary.verdictLine()).contains("declared outage: 6 of 6 client(s) back");
        }
    }

    /** Reconnects every 200 ms, up to 100 attempts: the clients outlast a broker restart. */
    private static MqttConnectSampler fixedDelay(MqttConnectSampler connect) {
        return with(with(with(with(connect, "reconnectPolicy", "FIXED"), "reconnectAttempts", "100"), "reconnectDelayMs",
                "200"), "reconnectMaxDelayMs", "200");
    }
}
