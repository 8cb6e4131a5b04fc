package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.LogCapture;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * Runs that must not read as a clean pass (issue 27, points 6 to 8): samples that failed for a reason no broker
 * operation counts, a plan whose setting is found invalid at test start (it ends at once), and a run stopped before
 * the plan's end.
 */
class CutShortVerdictIT {
    /** What the plans below would run without a stop: far longer than any of them may take here. */
    private static final Duration PLANNED = Duration.ofSeconds(30);

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

    private Map<String, String> properties() {
        // The broker is not asked its version: HiveMQ CE announces no name or version, so each run would wait out the
        // question (3 s) at its end (RunReportIT checks the question).
        return Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0",
                "mqttload.drainTimeoutMs", "1000", "mqttload.closeTimeoutMs", "2000",
                "mqttload.brokerVersionTimeoutMs", "0");
    }

    @Test
    void publishInAClientGroupNoConnectMade_failsTheRunNamingTheGroupAndTheThreadsGroups() {
        HashTree plan = PlanBuilder.testPlan("unconnected group")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(runReport())
                .threadGroup("t", 1, 10)
                .add(onceOnly(), connect("subs", 1, "{engine}-ug-s"), subscribe("subs", "ug/#", 1),
                        connect("pubs", 1, "{engine}-ug-p"))
                .add(publish("pubs", "ug/ok", 1, 1, "SYNC"))
                .add(publish("default", "ug/lost", 1, 1, "SYNC"))
                .build();

        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        List<SampleResult> failed = run.byLabel("publish default");
        assertThat(failed).as(run.describe()).hasSize(10).allSatisfy(s -> {
            assertThat(s.isSuccessful()).isFalse();
            assertThat(s.getResponseCode()).isEqualTo("NOT_CONNECTED");
            assertThat(s.getResponseMessage()).contains("client group 'default'").contains("'pubs', 'subs'")
                    .doesNotContain("thread's group");
        });
        // The sampler counts what it failed before any operation ran (the loss figures and the tally of such samples
        // are InMemoryFailureTest's): the run would read NO LOSS otherwise.
        assertThat(summary.count(Count.SAMPLES_FAILED)).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).startsWith("FAILED: 10 sample(s) failed (most often: 10 x NOT_CONNECTED: no MQTT"
                + " client in client group 'default'").contains("in 'publish default'");
        assertThat(report.verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void qos3FoundAtTestStart_endsTheRunAtOnceAsFailedNamingFieldAndValue() {
        HashTree plan = PlanBuilder.testPlan("qos 3")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(runReport())
                .threadGroup("t", 1, PlanBuilder.FOREVER).duration(PLANNED)
                .add(onceOnly(), connect("default", 1, "{engine}-q3"))
                .add(with(publish("default", "q3/x", 1, 1, "SYNC"), "qos", "3"), pause(100))
                .build();

        RunResult run;
        List<ILoggingEvent> events;
        try (LogCapture log = LogCapture.start()) {
            run = JMeterTestEngine.run(plan, PLANNED.multipliedBy(2), properties());
            events = log.events();
        }
        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        assertThat(run.elapsed()).as("the plan asked for %s; %s", PLANNED, run.describe()).isLessThan(Duration.ofSeconds(10));
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.count(Count.INVALID_SETTINGS)).isEqualTo(1);
        assertThat(summary.verdictLine()).startsWith("FAILED: 1 sample(s) refused an invalid setting (most often: 1 x qos"
                + " = '3'").contains("in 'publish default'").contains("the test was stopped at");
        assertThat(run.failures()).as(run.describe()).isNotEmpty().allSatisfy(s -> {
            assertThat(s.getResponseCode()).isEqualTo("INVALID_SETTING");
            assertThat(s.getResponseMessage()).contains("'publish default'").contains("qos = '3'");
        });
        assertThat(events).anySatisfy(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getFormattedMessage()).contains("stopping the test now").contains("qos = '3'");
        });
        assertThat(report.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(ReportText.table(report)).contains("qos = '3'");
    }

    @Test
    void anInvalidSettingFoundAtTestStart_stopsTheRunWithinASecondEvenBeforeAnyMqttSample() {
        // The thread's first MQTT sample waits 20 s behind its timer: the metrics tick stops the test, not a sample.
        HashTree plan = PlanBuilder.testPlan("qos 3, late first sample")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .threadGroup("t", 1, 1)
                .add(connect("default", 1, "{engine}-q3l"), pause(20_000))
                .add(with(publish("default", "q3/x", 1, 1, "SYNC"), "qos", "3"))
                .build();

        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
        RunSummary summary = JvmRun.lastSummary();

        assertThat(run.elapsed()).as(run.describe()).isLessThan(Duration.ofSeconds(8));
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("qos = '3'").contains("the test was stopped at");
    }

    /** @param now JMeter's Stop (threads interrupted at once) or its Shutdown (each thread ends its sample first) */
    @ParameterizedTest(name = "stop now: {0}")
    @ValueSource(booleans = {true, false})
    void aRunStoppedMidWay_isStoppedAndSaysWhen_notNoLoss(boolean now) throws Exception {
        HashTree plan = PlanBuilder.testPlan("stopped")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(runReport())
                .threadGroup("t", 1, PlanBuilder.FOREVER).duration(PLANNED)
                .add(onceOnly(), connect("subs", 1, "{engine}-st-s"), subscribe("subs", "st/#", 1),
                        connect("pubs", 1, "{engine}-st-p"))
                .add(publish("pubs", "st/x", 1, 1, "SYNC"), pause(100))
                .build();
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(
                () -> JMeterTestEngine.run(plan, PLANNED.multipliedBy(2), properties()));
        await("ten messages acknowledged").atMost(Duration.ofSeconds(20)).until(() -> JvmRun.running()
                .map(r -> r.context().metrics().sum(Count.ACKNOWLEDGED) >= 10).orElse(false));
        // What JMeter's Stop and Shutdown (the GUI's buttons, stoptest.sh and shutdown.sh) call on the running engine.
        if (now) {
            StandardJMeterEngine.stopEngineNow();
        } else {
            StandardJMeterEngine.stopEngine();
        }
        RunResult run = running.get(30, TimeUnit.SECONDS);
        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        assertThat(run.elapsed()).isLessThan(Duration.ofSeconds(20));
        assertThat(summary.count(Count.STOPPED_AT_MILLIS)).as(summary.toTable()).isBetween(1L, 20_000L);
        assertThat(summary.verdict()).isEqualTo(Verdict.STOPPED);
        assertThat(summary.verdictLine()).startsWith("STOPPED: the test was stopped at ").contains("before the plan's end");
        assertThat(report.verdict()).isEqualTo(Verdict.STOPPED);
        assertThat(report.verdict().passed()).isFalse();
        assertThat(ReportText.table(report)).contains("STOPPED: the test was stopped at");
        String html = Files.readString(results.resolve("report-" + summary.runId + ".html"));
        assertThat(html).contains("STOPPED").doesNotContain("NO LOSS");
    }

    private static ConstantTimer pause(int millis) {
        ConstantTimer t = PlanBuilder.element(new ConstantTimer(), "pause", "org.apache.jmeter.timers.gui.ConstantTimerGui");
        t.setProperty("ConstantTimer.delay", Integer.toString(millis));
        return t;
    }
}
