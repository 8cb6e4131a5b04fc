package io.mqttload.report;

import static io.mqttload.report.EveryLatencyFigures.ofEngine;
import static io.mqttload.report.EveryLatencyFigures.ofSampler;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mqttload.measure.Latency;
import io.mqttload.report.influx.InfluxMetrics;
import io.mqttload.report.influx.InfluxWriter;
import io.mqttload.testsupport.RecordingHttpServer;

/**
 * Every declared {@link Latency} kind reaches the live InfluxDB points, written over HTTP, on every level it declares
 * ({@link EveryLatencyFigures}); LatencyShownTest checks the other outputs.
 */
class LatencyShownIT {
    private static List<String> livePoints;

    @BeforeAll
    static void run() {
        EveryLatencyFigures figures = new EveryLatencyFigures();
        try (RecordingHttpServer influx = RecordingHttpServer.start(204)) {
            InfluxMetrics points = new InfluxMetrics(new InfluxWriter(influx.url(), "mqtt", "", InfluxWriter.Auth.NONE,
                    "", 1000), figures.metrics, figures.config, 1);
            points.onInterval(figures.interval);
            points.onRunEnd(figures.summary);
            livePoints = List.of(influx.bodies().split("\n"));
        }
    }

    @Test
    void liveInfluxPoints_carryEveryKindAtEachLevelThatKeepsIt() {
        for (Latency kind : Latency.values()) {
            assertThat(livePoints).as("mqtt_latency " + kind.key()).anySatisfy(line -> assertThat(line)
                    .startsWith("mqtt_latency,").contains(",kind=" + kind.key() + " count=" + ofEngine(kind) + "i,"));
            if (kind.keptAt(Latency.Level.SAMPLER)) {
                assertThat(livePoints).as("mqtt_sampler_latency " + kind.key()).anySatisfy(line -> assertThat(line)
                        .startsWith("mqtt_sampler_latency,").contains(",sampler=probe,kind=" + kind.key() + " count="
                                + ofSampler(kind) + "i,"));
            }
            if (kind.keptAt(Latency.Level.NODE)) {
                assertThat(livePoints).as("mqtt_node_latency " + kind.key()).anySatisfy(line -> assertThat(line)
                        .startsWith("mqtt_node_latency,").contains(",node=left,kind=" + kind.key() + " count="
                                + ofSampler(kind) + "i,"));
            }
        }
    }
}
