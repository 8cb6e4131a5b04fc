package io.mqttload.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * JMeter's own HTML dashboard of an MQTT run, in the JMeter home the build assembles: its over-time charts have a
 * point per second (JMeter's default of a minute drew one point for a short run), and a Publish sample counts as one
 * transaction per batch, as docs/measurement.md tells users to read it.
 */
class JMeterDashboardIT {
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);
    private static final int PAIRS = 2;
    /** The plan's own schedule: a sample is one second of the publisher's slots. */
    private static final int SAMPLES = 8;
    private static final int PUBLISH_RATE = 100;

    @Test
    void overTimeChartsHaveAPointPerSecond_andAPublishSampleIsOneTransactionPerBatch(@TempDir Path dir) throws Exception {
        MosquittoBroker.requireInstalled();
        Path home = JMeterEngines.homeFromBuild();
        Path plan = Path.of(System.getProperty("project.basedir", "."), "plans", "quickstart-p2p.jmx");
        Path jtl;
        try (MosquittoBroker broker = MosquittoBroker.builder().start();
                JMeterEngines.Headless run = JMeterEngines.startLocal(home, dir, "dash", plan, Map.ofEntries(
                        Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                        Map.entry("pairs", Integer.toString(PAIRS)), Map.entry("samples", Integer.toString(SAMPLES)),
                        // 100 msg/s per publisher for 8 s: several seconds of samples to chart.
                        Map.entry("publishRate", Integer.toString(PUBLISH_RATE)), Map.entry("qos", "1"),
                        Map.entry("mqttload.resultsDir", dir.resolve("results").toString()),
                        Map.entry("mqttload.progressSeconds", "0")))) {
            assertThat(run.awaitExit(RUN_TIMEOUT)).as("the run ends within %s; output:%n%s", RUN_TIMEOUT, run.output())
                    .isTrue();
            assertThat(run.exitCode()).as(run.output()).isZero();
            jtl = run.jtl;
        }
        List<String> publishRows = new ArrayList<>();
        for (String line : Files.readAllLines(jtl, StandardCharsets.UTF_8)) {
            if (line.contains(",MQTT Publish,")) {
                publishRows.add(line);
            }
        }
        assertThat(publishRows).as("one JTL row per batch, not per message").hasSize(PAIRS * SAMPLES);

        Path out = dir.resolve("dashboard");
        JMeterEngines.dashboard(home, jtl, out, RUN_TIMEOUT);

        String graphs = Files.readString(out.resolve("content/js/graph.js"), StandardCharsets.UTF_8);
        Matcher granularity = Pattern.compile("\"granularity\": ?(\\d+)").matcher(graphs);
        List<String> found = new ArrayList<>();
        while (granularity.find()) {
            found.add(granularity.group(1));
        }
        // Over-time charts group by the home's granularity; the response time distribution's 100 ms is its bucket.
        assertThat(found).as("over-time charts at the home's granularity").contains("1000").doesNotContain("60000");
        assertThat(pointsOf(graphs, "hitsPerSecondInfos")).as("hits per second: a point per second of an 8 s run")
                .isGreaterThanOrEqualTo(6);
    }

    /** The number of [x, y] points of the first series of a chart's data in graph.js. */
    private static int pointsOf(String graphs, String chart) {
        int start = graphs.indexOf("var " + chart);
        assertThat(start).as(chart + " in graph.js").isNotNegative();
        int data = graphs.indexOf("\"data\": [", start);
        int end = graphs.indexOf("]]", data);
        // Points are [time in ms, value], JMeter writing the time as 1.7957E12.
        Matcher point = Pattern.compile("\\[[0-9.E+-]+, [0-9.E+-]+\\]").matcher(graphs.substring(data, end + 2));
        int n = 0;
        while (point.find()) {
            n++;
        }
        return n;
    }
}
