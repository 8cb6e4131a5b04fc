package io.mqttload.report.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.WindowCounts;
import io.mqttload.testsupport.FreePorts;

/**
 * The engine's {@code /metrics} endpoint scraped over HTTP as Prometheus does: counts under Prometheus names, latency as
 * cumulative buckets whose quantiles land in the bucket of the true percentile of a known distribution, the final
 * figures waited for at the run's end, and settings that cannot work refused naming the property and the value.
 */
class PrometheusExportIT {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final RunConfig config = RunConfig.from(Map.of(RunConfig.RUN_ID, "r1", RunConfig.ENGINE_ID, "e1",
            RunConfig.SCENARIO, "s1")::get, "s1");

    @Test
    void scrape_servesCountsAndLatencyUnderPrometheusNames_withQuantilesInTheTruePercentilesBucket() throws Exception {
        EngineMetrics metrics = new EngineMetrics();
        SamplerMetrics publisher = new SamplerMetrics("publish one");
        metrics.count(Count.PUBLISHED, publisher, null, 10_000);
        metrics.count(Count.RECEIVED, publisher, null, 9_999);
        metrics.failed(FailureTally.Kind.CONNECT, publisher, "connection refused");
        // 1..10,000 µs once each: p50 5 ms, p99 9.9 ms.
        Histogram uniform = LatencyRecorder.newHistogram();
        for (long v = 1; v <= 10_000; v++) {
            uniform.recordValue(v);
        }
        Histogram warmup = LatencyRecorder.newHistogram();
        warmup.recordValue(40_000);
        int port = FreePorts.tcpPort();
        PrometheusExport export = PrometheusExport.start(settings(port, 0), metrics, config);
        try {
            export.onInterval(new Interval(1_000, Map.of(Latency.PUB_TO_SUB, warmup), List.of(new Interval.OfSampler(
                    publisher, Map.of(Latency.PUB_TO_SUB, warmup))), List.of(), false));
            export.onInterval(new Interval(2_000, Map.of(Latency.PUB_TO_SUB, uniform), List.of(new Interval.OfSampler(
                    publisher, Map.of(Latency.PUB_TO_SUB, uniform))), List.of(), true));

            Map<String, Double> scraped = scrape(port);

            assertThat(scraped.get("mqttload_published_total{engine=e1,run=r1,scenario=s1}")).isEqualTo(10_000.0);
            assertThat(scraped.get("mqttload_sampler_received_total{engine=e1,run=r1,sampler=publish one,scenario=s1}"))
                    .isEqualTo(9_999.0);
            assertThat(scraped.get("mqttload_connects_failed_total{engine=e1,run=r1,scenario=s1}")).isEqualTo(1.0);
            assertThat(scraped.get("mqttload_failures_total{engine=e1,kind=connect,reason=connection refused,run=r1,"
                    + "sampler=publish one,scenario=s1}")).isEqualTo(1.0);
            // Loss before the end: sequence numbers skipped and not filled in (none here).
            assertThat(scraped.get("mqttload_lost{engine=e1,run=r1,scenario=s1}")).isEqualTo(0.0);
            assertThat(scraped).doesNotContainKey("mqttload_expected{engine=e1,run=r1,scenario=s1}");

            String measured = "engine=e1,phase=measured,run=r1,scenario=s1";
            String bucket = "mqttload_pub_to_sub_latency_seconds_bucket{" + measured.replace("phase", "le=%s,phase") + "}";
            assertThat(scraped.get(String.format(bucket, "0.001"))).isEqualTo(1_000.0);
            // HdrHistogram records 5,000-5,003 µs as one value (3 significant digits): they fall on one side of 5 ms.
            assertThat(scraped.get(String.format(bucket, "0.005"))).isBetween(4_996.0, 5_003.0);
            assertThat(scraped.get(String.format(bucket, "0.01"))).isEqualTo(10_000.0);
            assertThat(scraped.get(String.format(bucket, "+Inf"))).isEqualTo(10_000.0);
            assertThat(scraped.get("mqttload_pub_to_sub_latency_seconds_count{" + measured + "}")).isEqualTo(10_000.0);
            assertThat(scraped.get("mqttload_pub_to_sub_latency_seconds_sum{" + measured + "}")).isCloseTo(50.005,
                    org.assertj.core.data.Percentage.withPercentage(0.1));
            assertThat(scraped.get("mqttload_pub_to_sub_latency_seconds_count{engine=e1,phase=warmup,run=r1,scenario=s1}"))
                    .isEqualTo(1.0);

            // As histogram_quantile computes it: inside the bucket that holds the true percentile.
            Map<Double, Double> buckets = buckets(scraped, "mqttload_pub_to_sub_latency_seconds", measured);
            assertThat(quantile(0.99, buckets)).isBetween(0.008, 0.010);
            assertThat(quantile(0.5, buckets)).isBetween(0.004, 0.005);
            Map<Double, Double> sampler = buckets(scraped, "mqttload_sampler_pub_to_sub_latency_seconds",
                    "engine=e1,phase=measured,run=r1,sampler=publish one,scenario=s1");
            assertThat(sampler).isEqualTo(buckets);

            for (String series : scraped.keySet()) {
                assertThat(series).as("metric name").matches("mqttload_[a-z0-9_]+(\\{.*})?");
            }
            for (Matcher m = LABEL.matcher(text(port)); m.find();) {
                assertThat(m.group(1)).as("label name").isIn("run", "scenario", "engine", "sampler", "node", "phase", "le",
                        "kind", "reason", "verdict");
            }
        } finally {
            export.onRunEnd(summary(metrics));
        }
    }

    @Test
    void runEnd_waitsForAScrapeOfTheFinalFigures_andCountsIt() throws Exception {
        EngineMetrics metrics = new EngineMetrics();
        metrics.count(Count.PUBLISHED, null, null, 3);
        int port = FreePorts.tcpPort();
        PrometheusExport export = PrometheusExport.start(settings(port, 60), metrics, config);
        RunSummary summary = summary(metrics);
        CompletableFuture<Void> end = CompletableFuture.runAsync(() -> export.onRunEnd(summary));

        await("the verdict in a scrape").atMost(Duration.ofSeconds(20)).until(() -> scrape(port).keySet().stream()
                .anyMatch(k -> k.startsWith("mqttload_verdict{")));
        end.get(20, TimeUnit.SECONDS);

        assertThat(summary.count(Count.PROMETHEUS_FINAL_MISSED)).isZero();
        assertThat(summary.count(Count.PROMETHEUS_SCRAPES)).isPositive();
        assertThat(summary.toTable()).contains("final figures exported");
    }

    @Test
    void runEnd_withoutAScrape_saysTheFinalFiguresAreMissing() throws Exception {
        EngineMetrics metrics = new EngineMetrics();
        PrometheusExport export = PrometheusExport.start(settings(FreePorts.tcpPort(), 1), metrics, config);
        RunSummary summary = summary(metrics);

        export.onRunEnd(summary);

        assertThat(summary.count(Count.PROMETHEUS_FINAL_MISSED)).isEqualTo(1);
        assertThat(summary.count(Count.PROMETHEUS_SCRAPES)).isZero();
        assertThat(summary.toTable()).contains("final figures MISSED");
    }

    @Test
    void portInUse_isRefusedNamingThePropertyAndThePort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> PrometheusExport.start(settings(port, 0), new EngineMetrics(), config))
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessageStartingWith("mqttload.prometheus.port = '" + port + "': cannot listen on 127.0.0.1:" + port)
                    .hasMessageContaining("give each engine on this host a port of its own");
        }
    }

    @Test
    void settings_offByDefault_andEachBadValueNamed() {
        assertThat(PrometheusSettings.from(name -> null).enabled()).isFalse();
        PrometheusSettings push = PrometheusSettings.from(Map.of(PrometheusSettings.PUSHGATEWAY, "http://gw.example")::get);
        assertThat(push.enabled()).isTrue();
        assertThat(push.pushgatewayAddress).isEqualTo("gw.example:9091");
        assertThat(push.port).isZero();
        Map<String, String> bad = Map.of(PrometheusSettings.PORT, "http", PrometheusSettings.HOST, " ",
                PrometheusSettings.PUSHGATEWAY, "gw:9091", PrometheusSettings.PUSH_SECONDS, "-1", PrometheusSettings.JOB,
                "my job", PrometheusSettings.FINAL_SCRAPE_SECONDS, "soon");
        Map<String, String> expected = Map.of(PrometheusSettings.PORT, "not a whole number", PrometheusSettings.HOST,
                "give the address", PrometheusSettings.PUSHGATEWAY, "expected http://host:port",
                PrometheusSettings.PUSH_SECONDS, "must be between 0 and 3600", PrometheusSettings.JOB, "use 1 to 64",
                PrometheusSettings.FINAL_SCRAPE_SECONDS, "not a whole number");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Map<String, String> props = new HashMap<>(Map.of(PrometheusSettings.PORT, "9270"));
            props.put(e.getKey(), e.getValue());
            assertThatThrownBy(() -> PrometheusSettings.from(props::get)).as(e.getKey())
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessageStartingWith(e.getKey() + " = '" + e.getValue().trim() + "'")
                    .hasMessageContaining(expected.get(e.getKey()));
        }
        assertThatThrownBy(() -> PrometheusSettings.from(Map.of(PrometheusSettings.PUSHGATEWAY,
                "http://gw:9091/metrics/job/x")::get)).hasMessageContaining("without a path");
        assertThatThrownBy(() -> PrometheusSettings.from(Map.of(PrometheusSettings.PORT, "70000")::get))
                .hasMessage("mqttload.prometheus.port = '70000': must be between 1 and 65535");
    }

    private static PrometheusSettings settings(int port, int finalScrapeSeconds) {
        return PrometheusSettings.from(Map.of(PrometheusSettings.PORT, Integer.toString(port),
                PrometheusSettings.FINAL_SCRAPE_SECONDS, Integer.toString(finalScrapeSeconds))::get);
    }

    private static RunSummary summary(EngineMetrics metrics) {
        DeliveryLedger ledger = new DeliveryLedger(1);
        return new RunSummary("r1", "e1", 1, "s1", 1_000, 9_000, 0, 8.0, metrics, ledger.delivery(), 0, 0,
                new WindowCounts(0, 0, 0, 0, 0), new long[] {0, 0, 0}, ledger.book(), 0);
    }

    /** Every sample of a scrape in Prometheus' text format, keyed {@code name{label=value,...}} with labels sorted. */
    static Map<String, Double> scrape(int port) throws IOException, InterruptedException {
        return parse(text(port));
    }

    static String text(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .header("Accept", "text/plain; version=0.0.4").timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            Map<String, String> labels = new TreeMap<>();
            if (m.group(3) != null) {
                for (Matcher l = LABEL.matcher(m.group(3)); l.find();) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            StringBuilder key = new StringBuilder(m.group(1));
            if (!labels.isEmpty()) {
                key.append('{');
                labels.forEach((k, v) -> key.append(k).append('=').append(v).append(','));
                key.setCharAt(key.length() - 1, '}');
            }
            samples.put(key.toString(), Double.parseDouble(m.group(4)));
        }
        return samples;
    }

    /** A histogram's cumulative buckets by upper bound, for the series whose other labels are {@code labels}. */
    static Map<Double, Double> buckets(Map<String, Double> scraped, String histogram, String labels) {
        Map<Double, Double> b = new TreeMap<>();
        Pattern series = Pattern.compile(Pattern.quote(histogram + "_bucket{") + "(.*)le=([^,}]*),?(.*)}");
        for (Map.Entry<String, Double> e : scraped.entrySet()) {
            Matcher m = series.matcher(e.getKey());
            if (m.matches() && (m.group(1) + m.group(3)).replaceAll(",$", "").equals(labels)) {
                b.put(m.group(2).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(2)), e.getValue());
            }
        }
        return b;
    }

    /** Prometheus' histogram_quantile: the bucket where the rank falls, interpolated linearly inside it. */
    static double quantile(double q, Map<Double, Double> cumulative) {
        double total = cumulative.get(Double.POSITIVE_INFINITY);
        double rank = q * total;
        double lowerBound = 0;
        double below = 0;
        for (Map.Entry<Double, Double> e : cumulative.entrySet()) {
            if (e.getValue() >= rank) {
                if (e.getKey().isInfinite()) {
                    return lowerBound;
                }
                return lowerBound + (e.getKey() - lowerBound) * (rank - below) / (e.getValue() - below);
            }
            lowerBound = e.getKey();
            below = e.getValue();
        }
        return lowerBound;
    }
}
