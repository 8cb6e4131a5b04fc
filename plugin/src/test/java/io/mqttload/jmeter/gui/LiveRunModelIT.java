package io.mqttload.jmeter.gui;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;

/**
 * The Run Report panel's model against a real run in this JVM: live figures every second while it goes (rates,
 * delivery so far, the publish sampler's row, a growing history), then the merged report and its HTML file.
 */
class LiveRunModelIT {
    @TempDir
    Path results;

    @Test
    void runInThisJvm_liveFiguresWhileItGoesThenTheMergedReportAndItsHtml() throws Exception {
        LiveRunModel model = new LiveRunModel();
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start()) {
            ConstantThroughputTimer pace = PlanBuilder.testBean(new ConstantThroughputTimer(), "pace");
            pace.setProperty("calcMode", 0);
            pace.setProperty("throughput", "600");
            HashTree plan = PlanBuilder.testPlan("live-panel")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .config(runReport())
                    .threadGroup("t", 2, PlanBuilder.FOREVER)
                    .duration(Duration.ofSeconds(8))
                    .add(onceOnly(), connect("sub", 1, "{engine}-s{thread}"), subscribe("sub", "live/{thread}/#", 1),
                            connect("pub", 1, "{engine}-p{thread}"))
                    .add(publish("pub", "live/{thread}/{client}", 1, 5, "ASYNC"), pace)
                    .build();
            CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
                try {
                    JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir", results.toString(),
                            "mqttload.progressSeconds", "0", "mqttload.warmupSeconds", "2"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            AtomicReference<LiveRunModel.View> live = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                LiveRunModel.View v = model.refresh();
                live.set(v);
                return v.history.size() >= 3 && v.samplers != null
                        && v.samplers.rows.stream().anyMatch(row -> row.get(0).equals("publish pub"));
            });
            LiveRunModel.View during = live.get();
            assertThat(during.status).startsWith("Run ").contains(" s");
            assertThat(during.text).contains("connections  4 open").contains("publish").contains("delivery     expected");
            assertThat(during.htmlReport).isNull();
            assertThat(during.history.get(during.history.size() - 1).elapsedSeconds)
                    .isGreaterThan(during.history.get(0).elapsedSeconds);

            run.get(60, TimeUnit.SECONDS);
            RunSummary summary = JvmRun.lastSummary();
            // Latency covers the messages the measured counts cover, none of the warm-up's last second (100 messages
            // here); counter and histogram are read a few microseconds apart at the boundary, so a burst of 5 per
            // subscriber (each on its own event loop) may fall between them: CI saw 620 against 630.
            assertThat(summary.latencyOf(Latency.PUB_TO_SUB).count).as(summary.toTable())
                    .isBetween(summary.measuredReceived - 10, summary.measuredReceived + 10);
            // The timers offer 2 threads x 10 samples/s x 5 messages: the panel reports the schedule read from them.
            // What share of it the window got is the machine's (a busy one starts the window's first sample late, and
            // the schedule counts from there; 80 msg/s seen at load 16): the rate shown is the window's acknowledged
            // count over its seconds. The offered count's edges are PublishScheduleIT's, its arithmetic
            // PublishScheduleTest's and PublishPacingTest's.
            String table = summary.toTable();
            assertThat(summary.count(Count.SCHEDULED_PUBLISH_RATE)).as(table).isEqualTo(100);
            assertThat(table).contains("scheduled pub (msg/s)        100 (the plan's schedule)");
            assertThat(summary.count(Count.SCHEDULED_IN_WINDOW)).as(table).isPositive();
            assertThat(summary.publishRate() * summary.measuredSeconds).as(table)
                    .isCloseTo(summary.count(Count.ACKNOWLEDGED_IN_WINDOW), within(1e-6));
            // How much of it the threads got to publish is the machine's business. Received in the window is what was
            // published in it, less what was still on its way at its end (at most a sample per thread: 2 x 5, seen 5),
            // plus what was on its way at its start: far less than the second's worth (100) that counting received
            // from another instant than published would add.
            assertThat(summary.measuredReceived).as(table).isBetween(summary.measuredPublished - 10,
                    summary.measuredPublished + 100);
            MergedReport report = MqttRunReport.lastReport();
            LiveRunModel.View after = model.refresh();
            assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
            assertThat(after.status).isEqualTo("Run " + report.runId + " ended");
            assertThat(after.verdict).isEqualTo("Verdict: " + report.verdictLine());
            assertThat(after.tone).isEqualTo(LiveRunModel.Tone.PASSED);
            assertThat(after.latency.rows).isNotEmpty();
            assertThat(after.text).isEqualTo(ReportText.table(report));
            assertThat(after.htmlReport).isNotNull();
            assertThat(Files.readString(after.htmlReport)).contains(report.runId);
        }
    }
}
