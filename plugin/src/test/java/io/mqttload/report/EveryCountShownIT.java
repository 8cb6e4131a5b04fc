package io.mqttload.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.report.influx.InfluxMetrics;
import io.mqttload.report.influx.InfluxWriter;
import io.mqttload.report.prometheus.PrometheusExport;
import io.mqttload.report.prometheus.PrometheusSettings;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.RecordingHttpServer;

/**
 * What needs a socket of what EveryCountShownTest shows: every live counter in the live InfluxDB point of each level
 * that keeps it, as InfluxMetrics writes them over HTTP (to a recording server), and the counts the metrics writer and
 * the Prometheus export (on a port of its own) add to the summary at run end, which complete its counts.
 */
class EveryCountShownIT {
    private static EngineMetrics metrics;
    private static SamplerMetrics sampler;
    private static NodeMetrics left;
    private static RunSummary summary;
    private static List<String> livePoints;

    @BeforeAll
    static void run() throws IOException {
        EveryCountFigures figures = new EveryCountFigures();
        metrics = figures.metrics;
        sampler = figures.sampler;
        left = figures.left;
        summary = figures.summary;
        try (RecordingHttpServer influx = RecordingHttpServer.start(204)) {
            InfluxWriter writer = new InfluxWriter(influx.url(), "mqtt", "", InfluxWriter.Auth.NONE, "", 1000);
            InfluxMetrics points = new InfluxMetrics(writer, metrics, figures.config, 1);
            points.onInterval(figures.interval);
            assertThat(summary.counts).as("before the metrics writer's own counts").doesNotContainKeys(
                    Count.METRIC_POINTS_WRITTEN, Count.METRIC_POINTS_DROPPED, Count.PROMETHEUS_SCRAPES);
            // The export's own counts: from an export whose final figures no one scraped.
            PrometheusExport export = PrometheusExport.start(PrometheusSettings.from(Map.of(PrometheusSettings.PORT,
                    Integer.toString(FreePorts.tcpPort()), PrometheusSettings.FINAL_SCRAPE_SECONDS, "0")::get), metrics,
                    figures.config);
            export.onRunEnd(summary);
            points.onRunEnd(summary);
            livePoints = List.of(influx.bodies().split("\n"));
        }
    }

    @Test
    void theMetricsWriterAndThePrometheusExport_completeTheSummarysCounts() {
        assertThat(summary.counts.keySet()).containsExactlyElementsOf(Count.SUMMARY);
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

    /** The fields of the last live point of {@code measurement} whose tags end with {@code lastTag}. */
    private static Map<String, String> fields(String measurement, String lastTag) {
        String last = null;
        for (String line : livePoints) {
            if (line.startsWith(measurement) && line.contains(lastTag)) {
                last = line;
            }
        }
        assertThat(last).as(measurement + lastTag).isNotNull();
        return EveryCountFigures.fieldsOf(last);
    }
}
