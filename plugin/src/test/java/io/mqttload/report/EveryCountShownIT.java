package io.mqttload.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Interval;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.report.influx.InfluxMetrics;
import io.mqttload.report.influx.InfluxWriter;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.report.prometheus.PrometheusExport;
import io.mqttload.report.prometheus.PrometheusMetrics;
import io.mqttload.report.prometheus.PrometheusSettings;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.NodeFigures;
import io.mqttload.summary.Rates;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.WindowCounts;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.RecordingHttpServer;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/**
 * Every declared count is shown or written wherever its declaration says: a count of the summary in the engine's
 * JSON, the merged report's JSON, the run report's InfluxDB point and the Markdown and HTML full count tables; a
 * live counter in the live InfluxDB point of each level that keeps it; a node's counter in the node figures. One
 * engine's run with a distinct value in every counter, its live points written to a recording HTTP server.
 */
class EveryCountShownIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EngineMetrics metrics;
    private static SamplerMetrics sampler;
    private static NodeMetrics left;
    private static RunSummary summary;
    private static List<String> livePoints;
    private static String prometheusText;
    private static MergedReport report;

    @BeforeAll
    static void run() throws IOException {
        metrics = new EngineMetrics();
        sampler = new SamplerMetrics("probe");
        left = metrics.nodes.node(0, "left");
        NodeMetrics right = metrics.nodes.node(1, "right");
        for (Count c : Count.values()) {
            if (c.source() == Count.Source.PEAK) {
                metrics.peak(c, 1000 + c.ordinal());
            } else if (c.counted()) {
                metrics.count(c, sampler, left, 1000 + c.ordinal());
                metrics.count(c, null, right, 1);
            }
        }
        DeliveryLedger ledger = new DeliveryLedger(1);
        summary = new RunSummary("run-c", "engine-c", 1, "every-count", 1_000, 9_000, 0, 8.0, metrics, ledger.delivery(),
                0, 0, new WindowCounts(2_001, 2_002, 2_003, 2_004, 2_005, 2_006, 2_007), new long[] {0, 0, 0}, ledger.book(), 0);
        try (RecordingHttpServer influx = RecordingHttpServer.start(204)) {
            InfluxWriter writer = new InfluxWriter(influx.url(), "mqtt", "", InfluxWriter.Auth.NONE, "", 1000);
            RunConfig config = RunConfig.from(Map.of(RunConfig.RUN_ID, "run-c", RunConfig.ENGINE_ID, "engine-c")::get,
                    "every-count");
            InfluxMetrics points = new InfluxMetrics(writer, metrics, config, 1);
            Histogram none = LatencyRecorder.newHistogram();
            Interval interval = new Interval(5_000, none, none, none, none,
                    List.of(new Interval.OfSampler(sampler, none, none, none)),
                    List.of(new Interval.OfNode(left, none), new Interval.OfNode(right, none)), true);
            points.onInterval(interval);
            assertThat(summary.counts).as("before the metrics writer's own counts").doesNotContainKeys(
                    Count.METRIC_POINTS_WRITTEN, Count.METRIC_POINTS_DROPPED, Count.PROMETHEUS_SCRAPES);
            PrometheusMetrics prometheus = new PrometheusMetrics(metrics, config);
            prometheus.onInterval(interval);
            prometheus.onRunEnd(summary);
            prometheusText = text(prometheus.collect());
            // The export's own counts: from an export whose final figures no one scraped.
            PrometheusExport export = PrometheusExport.start(PrometheusSettings.from(Map.of(PrometheusSettings.PORT,
                    Integer.toString(FreePorts.tcpPort()), PrometheusSettings.FINAL_SCRAPE_SECONDS, "0")::get), metrics,
                    config);
            export.onRunEnd(summary);
            points.onRunEnd(summary);
            livePoints = List.of(influx.bodies().split("\n"));
        }
        report = MergedReport.merge(List.of(summary.toJson()), List.of());
    }

    @Test
    void engineSummary_carriesEverySummaryCount_andEachNodeItsCounters() throws Exception {
        assertThat(summary.counts.keySet()).containsExactlyElementsOf(Count.SUMMARY);
        JsonNode json = JSON.readTree(summary.toJson());

        for (Count c : Count.SUMMARY) {
            assertThat(json.path("counts").has(c.key())).as(c.key()).isTrue();
        }
        assertThat(json.path("counts").path(Count.REORDERED.key()).asLong()).isEqualTo(metrics.sum(Count.REORDERED));
        for (JsonNode node : json.path("nodes")) {
            for (Count c : nodeCounters()) {
                assertThat(node.has(c.key())).as(node.path("name").asText() + " " + c.key()).isTrue();
            }
        }
    }

    @Test
    void mergedReportJson_carriesEverySummaryCount_andEachNodeItsCounters() throws Exception {
        JsonNode json = JSON.readTree(report.toJson());

        for (Count c : Count.SUMMARY) {
            assertThat(json.path("counts").has(c.key())).as(c.key()).isTrue();
        }
        for (Count c : nodeCounters()) {
            assertThat(json.path("nodes").path("left").path(c.key()).asLong()).as(c.key()).isEqualTo(left.sum(c));
        }
    }

    @Test
    void markdownAndHtml_showEveryCountInTheAllCountsTable() {
        String markdown = ReportText.markdown(report);
        String html = HtmlReport.render(report);
        int details = html.indexOf("<details><summary>All counts</summary>");
        int detailsEnd = html.indexOf("</details>", details);
        assertThat(details).isPositive();

        for (Count c : Count.values()) {
            String value = expectedCell(c);
            assertThat(markdown).as(c.key()).contains("| `" + c.key() + "` | " + c.meaning() + " | " + value + " |\n");
            int row = html.indexOf("<tr><td>" + c.key() + "</td>", details);
            assertThat(row).as(c.key()).isBetween(details, detailsEnd);
            assertThat(html.substring(row, html.indexOf("</tr>", row) + 5)).as(c.key())
                    .endsWith("<td class=\"n\">" + value + "</td></tr>");
        }
    }

    /** The value cell a count's row must have: the merged count, a node counter's sum, or the mark of a live gauge. */
    private static String expectedCell(Count c) {
        if (c.inSummary()) {
            return Long.toString(report.count(c));
        }
        if (NodeFigures.COUNTS.contains(c)) {
            return (left.sum(c) + 1) + " (all broker nodes)";
        }
        return "live only";
    }

    @Test
    void livePoints_carryEveryLiveCounterAtEachLevelThatKeepsIt() {
        Map<String, String> engine = fields("mqtt_counts,", "engine=engine-c ");
        Map<String, String> ofSampler = fields("mqtt_sampler,", "sampler=probe ");
        Map<String, String> ofNode = fields("mqtt_node,", "node=left ");

        for (Count c : Count.values()) {
            if (!c.counted()) {
                continue;
            }
            if (c.at(Count.Level.ENGINE)) {
                assertThat(engine).as("mqtt_counts " + c.key()).containsEntry(c.key(), metrics.sum(c) + "i");
            }
            if (c.at(Count.Level.SAMPLER)) {
                assertThat(ofSampler).as("mqtt_sampler " + c.key()).containsEntry(c.key(), sampler.sum(c) + "i");
            }
            if (c.at(Count.Level.NODE)) {
                assertThat(ofNode).as("mqtt_node " + c.key()).containsEntry(c.key(), left.sum(c) + "i");
            }
        }
    }

    @Test
    void prometheusMetrics_carryEveryCountOfEachLevel_underItsName() {
        for (Count c : Count.values()) {
            if (c.source() == Count.Source.METRICS_WRITER || c.source() == Count.Source.PROMETHEUS_EXPORT) {
                continue;
            }
            String suffix = c.source() == Count.Source.COUNTER ? "_total" : "";
            String scale = c.key().endsWith("Millis") ? "seconds" : "count";
            if (c.at(Count.Level.ENGINE)) {
                double value = c.counted() ? metrics.sum(c) : summary.count(c);
                assertThat(prometheusText).as(c.key()).containsPattern("(?m)^mqttload_" + PrometheusMetrics.name(c)
                        + suffix + "\\{engine=\"engine-c\",run=\"run-c\",scenario=\"every-count\"} "
                        + number(scale.equals("seconds") ? value / 1000 : value) + "$");
            }
            if (c.at(Count.Level.SAMPLER) && c.counted()) {
                assertThat(prometheusText).as("sampler " + c.key()).containsPattern("(?m)^mqttload_sampler_"
                        + PrometheusMetrics.name(c) + suffix + "\\{.*sampler=\"probe\".*} " + number(sampler.sum(c))
                        + "$");
            }
            if (c.at(Count.Level.NODE) && c.counted()) {
                assertThat(prometheusText).as("node " + c.key()).containsPattern("(?m)^mqttload_node_"
                        + PrometheusMetrics.name(c) + suffix + "\\{.*node=\"left\".*} " + number(left.sum(c)) + "$");
            }
        }
        assertThat(prometheusText).containsPattern("(?m)^mqttload_verdict\\{engine=\"engine-c\",run=\"run-c\","
                + "scenario=\"every-count\",verdict=\"" + summary.verdict().name() + "\"} 1.0$");
    }

    @Test
    void everyOutput_showsTheRatesAndTheDrainAsRatesDeclaresThem() throws Exception {
        Rates rates = summary.rates();
        // Distinct figures, so that an output that computed its own (the drain folded in) would show another number.
        assertThat(rates.receive).isEqualTo(2_002 / 8.0);
        assertThat(rates.publish).isEqualTo(2_001 / 8.0);
        assertThat(rates.drainRate).isEqualTo(2_006 / 2.007);
        JsonNode json = JSON.readTree(summary.toJson());
        assertThat(json.path("receiveRate").asDouble()).isEqualTo(rates.receive);
        assertThat(json.path("publishRate").asDouble()).isEqualTo(rates.publish);
        assertThat(json.path("drainRate").asDouble()).isEqualTo(rates.drainRate);
        assertThat(summary.toTable()).contains(rates.pubSub()).contains(rates.drainText());

        assertThat(report.rates.pubSub()).isEqualTo(rates.pubSub());
        assertThat(report.rates.drainText()).isEqualTo(rates.drainText());
        JsonNode merged = JSON.readTree(report.toJson());
        assertThat(merged.path("receiveRate").asDouble()).isEqualTo(rates.receive);
        assertThat(merged.path("drainRate").asDouble()).isEqualTo(rates.drainRate);
        assertThat(ReportText.table(report)).contains(String.format(java.util.Locale.ROOT, "%11.1f", rates.receive))
                .contains(rates.drainText());
        assertThat(ReportText.markdown(report)).contains("| " + rates.pubSub() + " |").contains(rates.drainText());
        assertThat(HtmlReport.render(report)).contains(rates.pubSub()).contains(rates.drainText());
        Map<String, String> point = fieldsOf(ReportPoints.of(report, 9_000).get(0));
        assertThat(Double.parseDouble(point.get("receiveRate"))).isEqualTo(rates.receive);
        assertThat(Double.parseDouble(point.get("publishRate"))).isEqualTo(rates.publish);
        assertThat(Double.parseDouble(point.get("drainRate"))).isEqualTo(rates.drainRate);
    }

    /** How Prometheus' text format writes a value. */
    private static String number(double v) {
        return java.util.regex.Pattern.quote(v == Math.rint(v) && Math.abs(v) < 1e15 ? (long) v + ".0" : Double.toString(v));
    }

    private static String text(io.prometheus.metrics.model.snapshots.MetricSnapshots snapshots) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, snapshots, EscapingScheme.DEFAULT);
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void reportPoints_carryEverySummaryCount_andEachNodeItsCounters() {
        List<String> lines = ReportPoints.of(report, 9_000);
        String run = lines.stream().filter(l -> l.startsWith("mqtt_report,")).findFirst().orElseThrow();
        String node = lines.stream().filter(l -> l.startsWith("mqtt_report_node,") && l.contains("node=left "))
                .findFirst().orElseThrow();

        for (Count c : Count.SUMMARY) {
            assertThat(fieldsOf(run)).as("mqtt_report " + c.key()).containsEntry(c.key(), report.count(c) + "i");
        }
        for (Count c : nodeCounters()) {
            assertThat(fieldsOf(node)).as("mqtt_report_node " + c.key()).containsEntry(c.key(), left.sum(c) + "i");
        }
    }

    /** What a node's figures must carry: every counter a node keeps (its gauges are live only). */
    private static List<Count> nodeCounters() {
        List<Count> counters = new ArrayList<>();
        for (Count c : Count.counted(Count.Level.NODE)) {
            if (c.source() == Count.Source.COUNTER) {
                counters.add(c);
            }
        }
        assertThat(NodeFigures.COUNTS).containsExactlyElementsOf(counters);
        return counters;
    }

    /** The fields of the last live point of {@code measurement} whose tags end with {@code lastTag}. */
    private static Map<String, String> fields(String measurement, String lastTag) {
        String last = null;
        for (String line : livePoints) {
            if (line.startsWith(measurement) && line.contains(lastTag)) {
                last = line;
            }
        }
        assertThat(last).as(measurement + lastTag).isNotNull();
        return fieldsOf(last);
    }

    /** A line's fields (none of the points read here has a space in a tag or a comma in a string field). */
    private static Map<String, String> fieldsOf(String line) {
        String fieldSet = line.split(" ")[1];
        Map<String, String> fields = new HashMap<>();
        for (String field : fieldSet.split(",")) {
            String[] kv = field.split("=", 2);
            assertThat(fields.put(kv[0], kv[1])).as("field " + kv[0] + " written once").isNull();
        }
        return fields;
    }
}
