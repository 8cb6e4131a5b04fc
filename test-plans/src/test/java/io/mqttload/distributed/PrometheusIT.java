package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.report.prometheus.PrometheusMetrics;
import io.mqttload.shaded.org.HdrHistogram.Histogram;
import io.mqttload.shaded.org.HdrHistogram.HistogramIterationValue;
import io.mqttload.measure.Latency;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PrometheusServer;

/**
 * Two real jmeter-server engines, each serving /metrics on a port of its own and pushing to a real Pushgateway, scraped
 * every second by a real Prometheus (Debian's packages) during a distributed run of the multi-publisher plan against
 * Mosquitto. What Prometheus holds at the end must be the run report's: every count, exactly, by both paths (the
 * engines' last scrape and the Pushgateway's final push); the latency buckets of the measured phase, added over the
 * engines, exactly those of the report's merged histogram; and histogram_quantile within the bucket of the report's
 * percentile.
 */
class PrometheusIT {
    private static final List<Count> COUNTS = List.of(Count.PUBLISHED, Count.ACKNOWLEDGED, Count.RECEIVED,
            Count.CONNECTS_OK, Count.SUBSCRIBE_OK, Count.EXPECTED, Count.RECEIVED_OF_EXPECTED, Count.LOST,
            Count.DUPLICATES, Count.PUBLISH_FAILED);

    @Test
    void twoEnginesScrapedAndPushed_prometheusHoldsTheReportsCountsAndBuckets(@TempDir Path dir) throws Exception {
        PrometheusServer.requireInstalled();
        MosquittoBroker.requireInstalled();
        List<Integer> metricsPorts = FreePorts.tcpPorts(2);
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 0").start();
                PrometheusServer pushgateway = PrometheusServer.startPushgateway();
                PrometheusServer prometheus = PrometheusServer.startPrometheus(Duration.ofSeconds(1),
                        PrometheusServer.scrapeJob("mqttload-engines", false, List.of("127.0.0.1:" + metricsPorts.get(0),
                                "127.0.0.1:" + metricsPorts.get(1))),
                        PrometheusServer.scrapeJob("pushgateway", true, List.of(pushgateway.address())));
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 2,
                        true, Duration.ofSeconds(90), n -> Map.of(), n -> Map.of(
                                "mqttload.prometheus.port", Integer.toString(metricsPorts.get(n - 1)),
                                "mqttload.prometheus.pushgateway", pushgateway.url(),
                                "mqttload.prometheus.pushSeconds", "2",
                                "mqttload.prometheus.finalScrapeSeconds", "30"))) {
            String runId = "prom-" + Long.toString(System.currentTimeMillis(), 36);
            Path controllerResults = dir.resolve("controller-results");
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                    Map.entry("partitions", "1"), Map.entry("publishersPerPartition", "3"),
                    Map.entry("publishRate", "30"),
                    Map.entry("durationSeconds", "8"), Map.entry("qos", "1"), Map.entry("mqttload.warmupSeconds", "2"),
                    Map.entry("mqttload.engines", "2"), Map.entry("mqttload.runId", runId),
                    Map.entry("mqttload.resultsDir", dir.resolve("engine-results").toString()),
                    Map.entry("mqttload.progressSeconds", "0"));
            double start = System.currentTimeMillis() / 1000.0;

            JMeterEngines.Run run;
            try {
                run = engines.run(DistributedMqttIT.plan(), global, Map.of("mqttload.resultsDir",
                        controllerResults.toString()), Duration.ofSeconds(120));
            } catch (IllegalStateException e) {
                StringBuilder said = new StringBuilder(e.getMessage());
                for (JMeterEngines.Engine engine : engines.engines()) {
                    said.append("\n--- engine-").append(engine.number).append(" output:\n").append(engine.output())
                            .append("\n--- its log:\n").append(engine.log());
                }
                throw new AssertionError(said.toString(), e);
            }

            double end = System.currentTimeMillis() / 1000.0;
            assertThat(run.exitCode).as(run.output).isZero();
            ReportFigures report = SummaryJson.readReport(Files.readString(controllerResults.resolve("report-" + runId
                    + ".json"), StandardCharsets.UTF_8));
            assertThat(report.verdict).as(report.verdictText).isEqualTo(Verdict.NO_LOSS);
            assertThat(report.count(Count.RECEIVED)).isPositive();
            for (JMeterEngines.Engine e : engines.engines()) {
                assertThat(e.output()).as("engine-" + e.number).contains("MQTT metrics for Prometheus: scraped")
                        .contains("the final figures included").contains("final figures pushed to the Pushgateway");
            }
            String direct = "job=\"mqttload-engines\",run=\"" + runId + "\"";
            String pushed = "job=\"mqttload\",run=\"" + runId + "\"";

            // Scraped while the run went: each engine's counter has a sample per scrape (1 s) over the run's ~10 s.
            JsonNode samples = prometheus.query("sum by (engine) (count_over_time(mqttload_published_total{" + direct
                    + "}[10m]))", end);
            assertThat(samples).hasSize(2);
            samples.forEach(s -> assertThat(s.path("value").path(1).asDouble()).as(s.toString()).isGreaterThanOrEqualTo(6));

            for (Count c : COUNTS) {
                String name = "mqttload_" + PrometheusMetrics.name(c) + (c.source() == Count.Source.COUNTER ? "_total" : "");
                assertThat(value(prometheus, "sum(last_over_time(" + name + "{" + direct + "}[10m]))", end))
                        .as("scraped " + name).isEqualTo(report.count(c));
                assertThat(value(prometheus, "sum(last_over_time(" + name + "{" + pushed + "}[10m]))", end))
                        .as("pushed " + name).isEqualTo(report.count(c));
            }
            assertThat(prometheus.query("mqttload_verdict{" + pushed + ",verdict=\"NO_LOSS\"}", end)).hasSize(2);

            for (String kind : List.of("pubToSub", "publish", "publishIntended")) {
                LatencyStats exact = report.latencyMicros.get(kind);
                String histogram = "mqttload_" + Latency.ofKey(kind).metricName();
                Map<Double, Long> buckets = new TreeMap<>();
                for (JsonNode s : prometheus.query("sum by (le) (last_over_time(" + histogram + "_bucket{" + direct
                        + ",phase=\"measured\"}[10m]))", end)) {
                    buckets.put(Double.parseDouble(s.path("metric").path("le").asText().replace("+Inf", "Infinity")),
                            Math.round(s.path("value").path(1).asDouble()));
                }
                assertThat(exact.count).as(kind + " in the report").isPositive();
                assertThat(buckets).as(kind + " buckets").hasSize(62).containsEntry(Double.POSITIVE_INFINITY, exact.count)
                        .isEqualTo(cumulative(exact.histogram(), buckets.keySet()));
                for (double q : new double[] {0.5, 0.99}) {
                    double promSeconds = value(prometheus, "histogram_quantile(" + q + ", sum by (le) (last_over_time("
                            + histogram + "_bucket{" + direct + ",phase=\"measured\"}[10m])))", end);
                    double exactSeconds = exact.percentile(q * 100) / 1e6;
                    // The export counts a recorded value below a bound by the lowest value it stands for: the report's
                    // 10,007 µs may be one bucket lower than 10,007 µs alone would say.
                    double exportedSeconds = exact.histogram().lowestEquivalentValue(exact.percentile(q * 100)) / 1e6;
                    double upper = buckets.keySet().stream().filter(b -> b >= exportedSeconds).findFirst().orElseThrow();
                    double lower = buckets.keySet().stream().filter(b -> b < exportedSeconds).reduce((a, b) -> b).orElse(0.0);
                    assertThat(promSeconds).as(kind + " p" + q * 100 + " (report: " + exactSeconds + " s)")
                            .isBetween(lower, upper);
                }
            }
            assertThat(pushgateway.metricsText()).contains("mqttload_published_total{engine=\"engine-1\",",
                    "mqttload_published_total{engine=\"engine-2\",");
            assertThat(start).isLessThan(end);
        }
    }

    private static double value(PrometheusServer prometheus, String query, double time) throws Exception {
        JsonNode result = prometheus.query(query, time);
        assertThat(result).as(query).hasSize(1);
        return result.path(0).path("value").path(1).asDouble();
    }

    /**
     * A histogram's cumulative counts at the bounds, by the export's rule: a value HdrHistogram recorded counts below a
     * bound when the lowest value it stands for is not above it.
     */
    private static Map<Double, Long> cumulative(Histogram h, Iterable<Double> boundsSeconds) {
        Map<Double, Long> counts = new TreeMap<>();
        for (double bound : boundsSeconds) {
            long n = 0;
            for (HistogramIterationValue v : h.recordedValues()) {
                if (bound == Double.POSITIVE_INFINITY || h.lowestEquivalentValue(v.getValueIteratedTo()) <= Math.round(bound
                        * 1e6)) {
                    n += v.getCountAtValueIteratedTo();
                }
            }
            counts.put(bound, n);
        }
        return counts;
    }
}
