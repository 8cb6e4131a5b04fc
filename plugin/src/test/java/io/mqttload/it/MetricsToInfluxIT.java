package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttMetricsConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * A real plan streams its metrics to a real InfluxDB 1.6; queried back, the counters equal the
 * engine's own, and merging the per-interval histograms gives exactly the summary's percentiles.
 */
class MetricsToInfluxIT {
    /** One broker for the class: each test's runs end with their clients closed, on topics of their own. */
    private static EmbeddedHiveMqBroker broker;

    @TempDir
    Path results;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void countsAndMergedPercentilesInInfluxDb_matchTheRunSummary() throws Exception {
        try (InfluxDbServer influx = InfluxDbServer.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
            metrics.setProperty("influxUrl", influx.url());
            // Points every 2 s: latency of two engine ticks merged into each point, and a partial one at the end.
            metrics.setProperty("intervalSeconds", "2");
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace", "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "100");
            HashTree plan = PlanBuilder.testPlan("metrics")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .config(metrics)
                    .threadGroup("pairs", 3, 1)
                    .add(connect("sub", 1, "{engine}-s-{thread}"))
                    .add(subscribe("sub", "m/{thread}", 1))
                    .add(connect("pub", 1, "{engine}-p-{thread}"))
                    .add(loop(30), publish("pub", "m/{thread}", 1, 20, "ASYNC"), pace)
                    .add(disconnect("pub"))
                    .add(disconnect("sub"))
                    .build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0", "mqttload.runId", "influx-it"));
            RunSummary summary = JvmRun.lastSummary();
            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.count(Count.RECEIVED)).isEqualTo(3 * 30 * 20);

            String counts = influx.query("mqttload",
                    "SELECT last(\"received\"), last(\"acknowledged\"), last(\"connectsOk\") FROM mqtt_counts WHERE \"run\" = 'influx-it'");
            assertThat(counts).contains("," + summary.count(Count.RECEIVED) + "," + summary.count(Count.ACKNOWLEDGED) + ","
                    + summary.count(Count.CONNECTS_OK) + "]");

            Histogram merged = decodeAll(influx.query("mqttload",
                    "SELECT \"hdr\" FROM mqtt_latency WHERE \"run\" = 'influx-it' AND \"kind\" = 'pubToSub'"));
            assertThat(merged.getTotalCount()).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).count);
            for (double p : LatencyStats.PERCENTILES) {
                assertThat(merged.getValueAtPercentile(p)).as("p" + p).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).percentile(p));
            }
            assertThat(merged.getMaxValue()).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).max);

            // Heat-map buckets add up to every latency value of the run, each counted once.
            StringBuilder sums = new StringBuilder("SELECT ");
            for (String b : new String[] {"b_100", "b_200", "b_500", "b_1000", "b_2000", "b_5000", "b_10000", "b_20000",
                "b_50000", "b_100000", "b_200000", "b_500000", "b_1000000", "b_2000000", "b_5000000", "b_inf"}) {
                sums.append(sums.length() > 7 ? " + " : "").append("sum(\"").append(b).append("\")");
            }
            String bucketTotal = influx.query("mqttload", sums + " FROM mqtt_latency_buckets WHERE \"run\" = 'influx-it'"
                    + " AND \"kind\" = 'pubToSub'");
            assertThat(bucketTotal).contains("," + summary.latencyOf(Latency.PUB_TO_SUB).count + "]");
            assertThat(influx.query("mqttload", "SELECT max(\"receiveRate\") FROM mqtt_counts WHERE \"run\" = 'influx-it'"))
                    .containsPattern(",[1-9][0-9.]*\\]");

            // Per sampler label: the publisher's and the subscriber's own counters and latency.
            String bySampler = influx.query("mqttload", "SELECT last(\"acknowledged\"), last(\"received\"),"
                    + " last(\"connectsOk\") FROM mqtt_sampler WHERE \"run\" = 'influx-it' GROUP BY \"sampler\"");
            assertThat(bySampler).contains("\"sampler\":\"publish pub\"},\"columns\":[\"time\",\"last\",\"last_1\",\"last_2\"],"
                    + "\"values\":[[").contains("," + summary.count(Count.ACKNOWLEDGED) + ",0,0]")
                    .contains(",0," + summary.count(Count.RECEIVED) + ",0]").contains(",0,0,3]");
            Histogram subscriberLatency = decodeAll(influx.query("mqttload",
                    "SELECT \"hdr\" FROM mqtt_sampler_latency WHERE \"run\" = 'influx-it' AND \"kind\" = 'pubToSub'"
                            + " AND \"sampler\" = 'subscribe sub'"));
            assertThat(subscriberLatency.getTotalCount()).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).count);
            assertThat(subscriberLatency.getValueAtPercentile(99)).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).percentile(99));

            // The connect phases: every connect's TCP and CONNACK phases; no TLS point over TCP.
            assertThat(decodeAll(influx.query("mqttload", "SELECT \"hdr\" FROM mqtt_latency WHERE \"run\" = 'influx-it'"
                    + " AND \"kind\" = 'connectTcp'")).getTotalCount()).isEqualTo(summary.count(Count.CONNECTS_OK));
            assertThat(decodeAll(influx.query("mqttload", "SELECT \"hdr\" FROM mqtt_sampler_latency WHERE \"run\" ="
                    + " 'influx-it' AND \"kind\" = 'connectConnack' AND \"sampler\" = 'connect pub'")).getTotalCount())
                    .isEqualTo(3);
            assertThat(influx.query("mqttload", "SELECT count(\"count\") FROM mqtt_latency WHERE \"run\" = 'influx-it'"
                    + " AND \"kind\" = 'connectTls'")).doesNotContain("\"values\"");

            String events = influx.query("mqttload", "SELECT \"text\" FROM mqtt_events WHERE \"run\" = 'influx-it'");
            assertThat(events).contains("MQTT run influx-it started").contains("production over").contains("NO LOSS");

            // The last point carries the final loss figures of the ledger.
            String loss = influx.query("mqttload", "SELECT last(\"lost\"), last(\"expected\"), last(\"receivedOfExpected\")"
                    + " FROM mqtt_counts WHERE \"run\" = 'influx-it'");
            assertThat(loss).contains(",0," + summary.delivery.expected + "," + summary.delivery.receivedOfExpected + "]");
            // Every point the engine made reached InfluxDB, and the summary says so.
            assertThat(summary.count(Count.METRIC_POINTS_DROPPED)).isZero();
            assertThat(summary.count(Count.METRIC_POINTS_WRITTEN)).isPositive();
        }
    }

    @Test
    void requestResponse_roundTripsAndReplyCountsInInfluxDb_matchTheRunSummary() throws Exception {
        try (InfluxDbServer influx = InfluxDbServer.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
            metrics.setProperty("influxUrl", influx.url());
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace", "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "100");
            HashTree plan = PlanBuilder.testPlan("round trips")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .config(metrics)
                    .threadGroup("t", 1, 1)
                    .add(connect("resp", 1, "{engine}-rs"))
                    .add(with(subscribe("resp", "rq/#", 1), "answerRequests", "true"))
                    .add(connect("req", 1, "{engine}-rq"))
                    .add(subscribe("req", "rp/{thread}", 1))
                    .add(loop(20), with(publish("req", "rq/{thread}", 1, 10, "ASYNC"), "responseTopic", "rp/{thread}"), pace)
                    .add(disconnect("req"))
                    .add(disconnect("resp"))
                    .build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0", "mqttload.runId", "influx-rr"));
            RunSummary summary = JvmRun.lastSummary();
            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.latencyOf(Latency.ROUND_TRIP).count).isEqualTo(200);

            Histogram merged = decodeAll(influx.query("mqttload",
                    "SELECT \"hdr\" FROM mqtt_latency WHERE \"run\" = 'influx-rr' AND \"kind\" = 'roundTrip'"));
            assertThat(merged.getTotalCount()).isEqualTo(summary.latencyOf(Latency.ROUND_TRIP).count);
            assertThat(merged.getValueAtPercentile(99)).isEqualTo(summary.latencyOf(Latency.ROUND_TRIP).percentile(99));
            assertThat(influx.query("mqttload", "SELECT last(\"requestsPublished\"), last(\"repliesReceived\"),"
                    + " last(\"repliesFailed\") FROM mqtt_counts WHERE \"run\" = 'influx-rr'")).contains(",200,200,0]");
        }
    }

    /** Every HdrHistogram of an InfluxDB answer, added up (the test's own class: the shaded jar relocates the library). */
    private static Histogram decodeAll(String answer) throws java.util.zip.DataFormatException {
        Histogram merged = new Histogram(LatencyRecorder.HIGHEST_TRACKABLE_MICROS, LatencyRecorder.SIGNIFICANT_DIGITS);
        Matcher m = Pattern.compile("\"([A-Za-z0-9+/=]{16,})\"\\]").matcher(answer);
        while (m.find()) {
            merged.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(m.group(1))), 0));
        }
        return merged;
    }

    @Test
    void influxDbUnreachable_theRunGoesOnAndTheDroppedPointsAreCounted() {
        MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
        // Nothing listens there: every write fails at once.
        metrics.setProperty("influxUrl", "http://127.0.0.1:" + FreePorts.tcpPort());
        HashTree plan = PlanBuilder.testPlan("metrics down")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(metrics)
                .threadGroup("t", 1, PlanBuilder.FOREVER)
                .duration(Duration.ofSeconds(3))
                .add(onceOnly(), connect("pub", 1, "{engine}-p"))
                .add(publish("pub", "down/x", 1, 10, "SYNC"))
                .build();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        long start = System.nanoTime();
        RunResult run;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0"));
        } finally {
            System.setOut(previous);
        }

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(25));
        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(JvmRun.lastSummary().count(Count.ACKNOWLEDGED)).isPositive();
        String out = console.toString(StandardCharsets.UTF_8);
        Matcher report = Pattern.compile("MQTT metrics: 0 points written to InfluxDB, (\\d+) dropped; last error: ")
                .matcher(out);
        assertThat(report.find()).as(out).isTrue();
        assertThat(Long.parseLong(report.group(1))).isPositive()
                .isEqualTo(JvmRun.lastSummary().count(Count.METRIC_POINTS_DROPPED));
    }

    @Test
    void influxDbGoesDownMidRun_theRunEndsOnTimeWithItsVerdictAndCountsWrittenAndDropped() throws Exception {
        InfluxDbServer influx = InfluxDbServer.start();
        boolean influxStopped = false;
        try {
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
            metrics.setProperty("influxUrl", influx.url());
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace", "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "50");
            HashTree plan = PlanBuilder.testPlan("metrics going down")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .config(metrics)
                    .threadGroup("t", 1, PlanBuilder.FOREVER)
                    .duration(Duration.ofSeconds(8))
                    .add(onceOnly(), connect("sub", 1, "{engine}-s"), subscribe("sub", "gone/#", 1),
                            connect("pub", 1, "{engine}-p"))
                    .add(publish("pub", "gone/x", 1, 5, "SYNC"), pace)
                    .build();
            long start = System.nanoTime();
            CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> JMeterTestEngine.run(plan,
                    Duration.ofSeconds(60), Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds",
                            "0", "mqttload.runId", "influx-down-it")));
            await("points reach InfluxDB").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> influx.query("mqttload", "SELECT count(\"published\") FROM \"mqtt_counts\"")
                            .contains("\"values\""));
            influx.close();
            influxStopped = true;
            RunResult run = running.get(60, TimeUnit.SECONDS);
            RunSummary summary = JvmRun.lastSummary();

            // The duration, the writer's bounded close (10 s) and slack for JMeter: InfluxDB never holds the run.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.verdict()).as("metrics are not the test: " + summary.toTable()).isEqualTo(Verdict.NO_LOSS);
            assertThat(summary.count(Count.METRIC_POINTS_WRITTEN)).isPositive();
            assertThat(summary.count(Count.METRIC_POINTS_DROPPED)).isPositive();
        } finally {
            if (!influxStopped) {
                influx.close();
            }
        }
    }
}
