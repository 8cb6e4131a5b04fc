package io.mqttload.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.report.prometheus.PrometheusMetrics;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.NodeFigures;
import io.mqttload.summary.Rates;
import io.mqttload.summary.RunSummary;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/**
 * Every declared count is shown or written wherever its declaration says: a count of the summary in the engine's
 * JSON, the merged report's JSON, the run report's InfluxDB point, the Prometheus metrics and the Markdown and HTML
 * full count tables; a node's counter in the node figures. One engine's figures with a distinct value in every
 * counter. EveryCountShownIT checks the live InfluxDB points, written over HTTP, and the counts the metrics writer
 * and the Prometheus export add to the summary at run end.
 */
class EveryCountShownTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EngineMetrics metrics;
    private static SamplerMetrics sampler;
    private static NodeMetrics left;
    private static RunSummary summary;
    private static String prometheusText;
    private static MergedReport report;

    @BeforeAll
    static void run() throws IOException {
        EveryCountFigures figures = new EveryCountFigures();
        metrics = figures.metrics;
        sampler = figures.sampler;
        left = figures.left;
        summary = figures.summary;
        PrometheusMetrics prometheus = new PrometheusMetrics(metrics, figures.config);
        prometheus.onInterval(figures.interval);
        prometheus.onRunEnd(summary);
        prometheusText = text(prometheus.collect());
        // What the metrics writer and the Prometheus export put into the summary at run end (EveryCountShownIT shows
        // that they do), each with a value of its own.
        for (Count c : Count.values()) {
            if (c.source() == Count.Source.METRICS_WRITER || c.source() == Count.Source.PROMETHEUS_EXPORT) {
                summary.counts.put(c, 3000L + c.ordinal());
            }
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
            assertThat(EveryCountFigures.fieldsOf(run)).as("mqtt_report " + c.key()).containsEntry(c.key(), report.count(c) + "i");
        }
        for (Count c : nodeCounters()) {
            assertThat(EveryCountFigures.fieldsOf(node)).as("mqtt_report_node " + c.key()).containsEntry(c.key(), left.sum(c) + "i");
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
        assertThat(ReportText.table(report)).contains(String.format(Locale.ROOT, "%11.1f", rates.receive))
                .contains(rates.drainText());
        assertThat(ReportText.markdown(report)).contains("| " + rates.pubSub() + " |").contains(rates.drainText());
        assertThat(HtmlReport.render(report)).contains(rates.pubSub()).contains(rates.drainText());
        Map<String, String> point = EveryCountFigures.fieldsOf(ReportPoints.of(report, 9_000).get(0));
        assertThat(Double.parseDouble(point.get("receiveRate"))).isEqualTo(rates.receive);
        assertThat(Double.parseDouble(point.get("publishRate"))).isEqualTo(rates.publish);
        assertThat(Double.parseDouble(point.get("drainRate"))).isEqualTo(rates.drainRate);
    }
}
