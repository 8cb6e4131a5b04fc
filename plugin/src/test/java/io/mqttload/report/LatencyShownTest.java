package io.mqttload.report;

import static io.mqttload.report.EveryLatencyFigures.micros;
import static io.mqttload.report.EveryLatencyFigures.ofEngine;
import static io.mqttload.report.EveryLatencyFigures.ofSampler;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.live.LiveFigures;
import io.mqttload.live.LiveLatency;
import io.mqttload.live.LiveTables;
import io.mqttload.measure.Latency;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.report.prometheus.PrometheusMetrics;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/**
 * Every declared {@link Latency} kind reaches every output, on every level it declares, as EveryCountShownTest has it
 * for counts: the engine's summary JSON, the merged report (read back from that JSON) and its JSON, the text,
 * Markdown and HTML tables, the run report's InfluxDB points, the Prometheus histograms, the console's latency table
 * and the live panel's ({@link EveryLatencyFigures}: a count of its own for each kind on each level). LatencyShownIT
 * checks the live InfluxDB points, written over HTTP.
 */
class LatencyShownTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EveryLatencyFigures figures;
    private static RunSummary summary;
    private static MergedReport report;
    private static String prometheusText;

    @BeforeAll
    static void run() throws IOException {
        figures = new EveryLatencyFigures();
        summary = figures.summary;
        PrometheusMetrics prometheus = new PrometheusMetrics(figures.metrics, figures.config);
        prometheus.onInterval(figures.interval);
        prometheus.onRunEnd(summary);
        prometheusText = text(prometheus);
        report = MergedReport.merge(List.of(summary.toJson()), List.of());
    }

    @Test
    void engineSummaryJson_andTheMergedReportReadFromIt_carryEveryKind() throws Exception {
        JsonNode engine = JSON.readTree(summary.toJson());
        JsonNode merged = JSON.readTree(report.toJson());

        for (Latency kind : Latency.values()) {
            assertThat(summary.latencyOf(kind).count).as(kind.key()).isEqualTo(ofEngine(kind));
            assertThat(engine.path("latencyMicros").path(kind.key()).path("count").asLong()).as(kind.key())
                    .isEqualTo(ofEngine(kind));
            assertThat(report.latencyOf(kind).count).as("merged " + kind.key()).isEqualTo(ofEngine(kind));
            assertThat(report.latencyOf(kind).percentile(50.0)).as("merged " + kind.key()).isEqualTo(micros(kind));
            assertThat(merged.path("latencyMicros").path(kind.key()).path("count").asLong()).as("merged JSON " + kind.key())
                    .isEqualTo(ofEngine(kind));
        }
    }

    @Test
    void textMarkdownAndHtml_showARowOfEveryKind() {
        String table = ReportText.table(report);
        String markdown = ReportText.markdown(report);
        String html = HtmlReport.render(report);

        for (Latency kind : Latency.values()) {
            assertThat(table).as(kind.key()).containsPattern("(?m)^" + Pattern.quote(kind.title()) + " +"
                    + ofEngine(kind) + " ");
            assertThat(markdown).as(kind.key()).contains("| " + kind.title() + " | " + ofEngine(kind) + " | ");
            assertThat(html).as(kind.key()).contains("<tr><td>" + kind.title() + "</td><td class=\"n\">"
                    + ofEngine(kind) + "</td>");
        }
    }

    @Test
    void consoleLatencyTable_hasARowOfEveryKind() {
        LiveTables.Table table = LiveTables.latency(report);

        for (Latency kind : Latency.values()) {
            assertThat(table.rows).as(kind.key()).anySatisfy(row -> assertThat(row.subList(0, 2))
                    .containsExactly(kind.title(), Long.toString(ofEngine(kind))));
        }
    }

    @Test
    void livePanel_hasTheRowsOfEveryKindTheEngineKeeps() {
        LiveFigures live = new LiveFigures();
        new LiveLatency().add(figures.interval, live);
        LiveTables.Table table = LiveTables.latency(live);

        for (Latency kind : Latency.keptBy(Latency.Level.ENGINE)) {
            for (String of : List.of(", last second", ", steady")) {
                assertThat(table.rows).as(kind.key() + of).anySatisfy(row -> assertThat(row.subList(0, 2))
                        .containsExactly(kind.title() + of, Long.toString(ofEngine(kind))));
            }
        }
        assertThat(LiveFigures.fromJson(live.toJson()).steady).as("to the controller").hasSameSizeAs(live.steady)
                .allSatisfy((key, stats) -> assertThat(stats.count).isEqualTo(live.steady.get(key).count));
    }

    @Test
    void runReportPoints_carryEveryKind() {
        List<String> lines = ReportPoints.of(report, 9_000);

        for (Latency kind : Latency.values()) {
            assertThat(lines).as(kind.key()).anySatisfy(line -> assertThat(line)
                    .startsWith("mqtt_report_latency,").contains(",kind=" + kind.key() + " count=" + ofEngine(kind) + "i,"));
        }
    }

    @Test
    void prometheusHistograms_ofEveryKindAtEachLevelThatKeepsIt_underTheDeclaredName() {
        for (Latency kind : Latency.values()) {
            assertThat(prometheusText).as(kind.key()).containsPattern("(?m)^mqttload_" + kind.metricName()
                    + "_count\\{engine=\"engine-l\",phase=\"measured\",run=\"run-l\",scenario=\"every-latency\"} "
                    + ofEngine(kind) + "$");
            if (kind.keptAt(Latency.Level.SAMPLER)) {
                assertThat(prometheusText).as("sampler " + kind.key()).containsPattern("(?m)^mqttload_sampler_"
                        + kind.metricName() + "_count\\{.*phase=\"measured\".*sampler=\"probe\".*} " + ofSampler(kind)
                        + "$");
            }
            if (kind.keptAt(Latency.Level.NODE)) {
                assertThat(prometheusText).as("node " + kind.key()).containsPattern("(?m)^mqttload_node_"
                        + kind.metricName() + "_count\\{.*node=\"left\".*phase=\"measured\".*} " + ofSampler(kind)
                        + "$");
            }
        }
    }

    private static String text(PrometheusMetrics prometheus) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, prometheus.collect(), EscapingScheme.DEFAULT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
