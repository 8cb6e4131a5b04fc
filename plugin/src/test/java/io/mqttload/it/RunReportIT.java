package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runEnd;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * The run report of a real plan on one engine: the MQTT Run End sampler in a tearDown Thread Group
 * ends the run and sends the engine's summary as a sample, and the MQTT Run Report prints and writes
 * the merged report, in every form and to InfluxDB. That a one-engine report has the engine's figures exactly is
 * InMemoryRunTest's.
 */
class RunReportIT {
    private static final int THREADS = 3;
    private static final int SAMPLES = 20;
    private static final int PER_SAMPLE = 15;

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

    private PlanBuilder pairs(String name) {
        return PlanBuilder.testPlan(name)
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(runReport())
                .threadGroup("pairs", THREADS, 1)
                .add(connect("sub", 1, "{engine}-rs-{thread}"))
                .add(subscribe("sub", "report/{thread}", 1))
                .add(connect("pub", 1, "{engine}-rp-{thread}"))
                .add(loop(SAMPLES), publish("pub", "report/{thread}", 1, PER_SAMPLE, "ASYNC"))
                .and();
    }

    private RunResult run(HashTree plan, String runId) {
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.runId", runId));
    }

    @Test
    void runEndInTearDown_sendsTheFinalSummary_andTheReportIsWrittenAsJsonMarkdownAndText() throws Exception {
        HashTree plan = pairs("report").tearDownThreadGroup("end").add(runEnd()).build();

        RunResult run = run(plan, "report-it");

        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();
        assertThat(run.failures()).as(run.describe()).isEmpty();
        long messages = (long) THREADS * SAMPLES * PER_SAMPLE;
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(messages);

        List<SampleResult> ends = run.samples().stream().filter(s -> s.getSampleLabel().equals("MQTT run end"))
                .collect(Collectors.toList());
        assertThat(ends).hasSize(1);
        assertThat(ends.get(0).getResponseCode()).isEqualTo("NO_LOSS");
        // The run was over before the sample ended: the report received the final figures, not a snapshot.
        assertThat(SummaryJson.readEngineSummary(ends.get(0).getSamplerData()).engineId).isEqualTo(summary.engineId);
        // The listener merged the final figures (how a merge computes each figure is InMemoryRunTest's and
        // MergedReportTest's) and wrote them in every form.
        assertThat(report.runId).isEqualTo("report-it");
        assertThat(report.engines).hasSize(1);
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(report.count(Count.RECEIVED)).isEqualTo(messages);
        JsonNode json = new ObjectMapper().readTree(results.resolve("report-report-it.json").toFile());
        assertThat(json.path("verdict").asText()).isEqualTo("NO_LOSS");
        // The connect phases merge like every latency; over TCP there is no TLS phase, in any form of the report.
        assertThat(report.latency.get("connectTcp").count).isEqualTo(summary.latencyOf(Latency.CONNECT_TCP).count)
                .isEqualTo(summary.count(Count.CONNECTS_OK));
        assertThat(report.latency.get("connectConnack").max).isEqualTo(summary.latencyOf(Latency.CONNECT_CONNACK).max);
        assertThat(json.path("latencyMicros").has("connectTcp")).isTrue();
        assertThat(json.path("latencyMicros").has("connectTls")).isFalse();
        String markdown = Files.readString(results.resolve("report-report-it.md"), StandardCharsets.UTF_8);
        assertThat(markdown).contains("**Verdict:** NO LOSS").contains("| connect: TCP |").contains("| connect: CONNACK |")
                .doesNotContain("TLS handshake");
        // HiveMQ CE publishes no $SYS version: the report says so rather than naming a guess.
        String endpoint = "tcp://127.0.0.1:" + broker.tcpPort();
        assertThat(report.setup.brokers).containsExactly(Map.entry(endpoint, ""));
        assertThat(markdown).contains("| " + endpoint + " | (does not say its name or version) |");
        assertThat(json.path("setup").path("testPlan").asText()).isEqualTo("report");
        assertThat(results.resolve("report-report-it.txt")).exists();
    }

    @Test
    void withAnInfluxUrl_theReportsExactFiguresAreWrittenAsPoints() throws Exception {
        InfluxDbServer.requireInstalled();
        try (InfluxDbServer influx = InfluxDbServer.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            MqttRunReport reportElement = runReport();
            reportElement.setProperty("influxUrl", influx.url());
            HashTree plan = PlanBuilder.testPlan("report-influx")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5")).config(reportElement)
                    .threadGroup("pairs", THREADS, 1)
                    .add(connect("sub", 1, "{engine}-ri-{thread}"))
                    .add(subscribe("sub", "report-influx/{thread}", 1))
                    .add(connect("pub", 1, "{engine}-rj-{thread}"))
                    .add(loop(SAMPLES), publish("pub", "report-influx/{thread}", 1, PER_SAMPLE, "ASYNC"))
                    .build();

            run(plan, "report-influx");

            MergedReport report = MqttRunReport.lastReport();
            assertThat(influx.query("mqttload", "SELECT \"received\", \"lost\", \"verdict\" FROM mqtt_report"
                    + " WHERE \"run\" = 'report-influx'")).contains("," + report.count(Count.RECEIVED) + ",0,\"NO_LOSS\"]");
            LatencyStats p = report.latency.get("pubToSub");
            assertThat(influx.query("mqttload", "SELECT \"count\", \"p99\", \"max\" FROM mqtt_report_latency"
                    + " WHERE \"run\" = 'report-influx' AND \"kind\" = 'pubToSub'"))
                    .contains("," + p.count + "," + p.percentile(99) + "," + p.max + "]");
        }
    }

    @Test
    void withoutRunEnd_aLocalRunIsStillReportedAtTestEnd() {
        RunResult run = run(pairs("report-no-end").build(), "report-no-end");

        MergedReport report = MqttRunReport.lastReport();
        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(report.runId).isEqualTo("report-no-end");
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(report.count(Count.RECEIVED)).isEqualTo((long) THREADS * SAMPLES * PER_SAMPLE);
        assertThat(results.resolve("report-report-no-end.md")).exists();
    }
}
