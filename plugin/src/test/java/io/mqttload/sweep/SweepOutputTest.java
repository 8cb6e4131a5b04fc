package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;

class SweepOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static StepResult step(Path dir, int index, long clients, String verdict, boolean broker) throws IOException {
        return reported(dir, index, clients, verdict, broker).judgedBy(new StepCriteria());
    }

    /** A step whose run wrote a report with these figures, read as the sweep reads it. */
    static StepResult.Builder reported(Path dir, int index, long clients, String verdict, boolean broker)
            throws IOException {
        SweepOptions.Step s = new SweepOptions.Step(null, Map.of("partitions", Integer.toString(index)));
        StepResult.Builder r = new StepResult.Builder(index, "partitions=" + index, s, "sw-s" + index, "step-" + index);
        r.exitCode = 0;
        Path stepDir = Files.createDirectories(dir.resolve("step-" + index));
        ReportFigures report = new ReportFigures();
        if (broker) {
            ReportFigures.BrokerLine b = new ReportFigures.BrokerLine();
            b.cpuAvg = index * 10;
            b.cpuMax = 50;
            b.rssAvg = 1_048_576;
            b.rssMax = 2_097_152;
            report.brokers.put("mosquitto", b);
        }
        report.publishRate = 100.0;
        report.receiveRate = index * 100.0;
        report.counts.putAll(Map.of(Count.CONNECTS_OK.key(), clients, Count.EXPECTED.key(), 10L,
                Count.RECEIVED_OF_EXPECTED.key(), 10L, Count.LOST.key(), verdict.equals("LOSS") ? 2L : 0L,
                Count.RECEIVED_IN_DRAIN.key(), index * 7L, Count.DRAIN_MILLIS.key(), 2_000L));
        // Values below 2048 µs are exact in a 3-digit histogram: p50 1.0, p90 1.5, p99 1.8, p99.9 1.9, max 2.0 ms.
        Histogram pubToSub = new Histogram(3);
        pubToSub.recordValueWithCount(1000, 500);
        pubToSub.recordValueWithCount(1500, 400);
        pubToSub.recordValueWithCount(1800, 90);
        pubToSub.recordValueWithCount(1900, 9);
        pubToSub.recordValue(2000);
        report.latencyMicros.put("pubToSub", new LatencyStats(pubToSub));
        report.verdict = Verdict.valueOf(verdict);
        report.verdictText = "text";
        Path json = Files.writeString(stepDir.resolve("report-sw-s" + index + ".json"), SummaryJson.write(report));
        Files.writeString(stepDir.resolve("report-sw-s" + index + ".html"), "<html></html>");
        r.readReport(dir, json);
        return r;
    }

    static SweepOptions options(Path dir) throws SweepOptions.UsageException, IOException {
        Path plan = Files.writeString(dir.resolve("plan.jmx"), "<jmeterTestPlan/>");
        Files.createDirectories(dir.resolve("home/bin"));
        return SweepOptions.parse(new String[] {"--plan", plan.toString(), "--out", dir.resolve("out").toString(),
            "--jmeter-home", dir.resolve("home").toString(), "--steps", "partitions=1;partitions=2;partitions=3",
            "--sweep-id", "sw"});
    }

    @Test
    void axisTop_isTheNextRoundNumberWhoseFifthsAreRound() {
        // 10,010 clients on a 20k axis left half of every sweep chart empty.
        assertThat(io.mqttload.report.HtmlReport.niceCeiling(10_010)).isEqualTo(15_000);
        assertThat(io.mqttload.report.HtmlReport.niceCeiling(2_002)).isEqualTo(2_500);
        assertThat(io.mqttload.report.HtmlReport.niceCeiling(100_100)).isEqualTo(150_000);
        assertThat(io.mqttload.report.HtmlReport.niceCeiling(7.4)).isEqualTo(8);
        assertThat(io.mqttload.report.HtmlReport.niceCeiling(1_000)).isEqualTo(1_000);
    }

    @Test
    void everyChart_hasOnePointPerStepAndSeries_andTheTableOneRowPerStep(@TempDir Path dir) throws Exception {
        List<StepResult> steps = List.of(step(dir, 1, 6, "NO_LOSS", true), step(dir, 2, 12, "NO_LOSS", true),
                step(dir, 3, 18, "LOSS", true));
        Path out = Files.createDirectories(dir.resolve("out"));

        List<String> files = new SweepOutput(options(dir), steps, Instant.EPOCH, Instant.EPOCH).write(out);

        assertThat(files).contains("throughput.svg", "throughput.png", "latency.svg", "latency.png", "broker-cpu.svg",
                "broker-cpu.png", "sweep.md", "sweep.json", "sweep.html");
        for (String chart : List.of("throughput", "latency", "broker-cpu")) {
            String svg = Files.readString(out.resolve(chart + ".svg"));
            int series = count(svg, "<polyline ");
            for (int i = 1; i <= 3; i++) {
                assertThat(count(svg, "<title>step " + i + " ")).as(chart + " step " + i).isEqualTo(series);
            }
            assertThat(ImageIO.read(out.resolve(chart + ".png").toFile()).getWidth()).isEqualTo(XyChart.WIDTH);
        }
        assertThat(count(Files.readString(out.resolve("latency.svg")), "<polyline ")).isEqualTo(6);
        String md = Files.readString(out.resolve("sweep.md"));
        assertThat(md).contains("| 3 | partitions=3 | 18 | 300.0 | 100.0 | 1.281 | 1.000 | 1.500 | 1.800 | 1.900 | 2.000"
                + " | 30.0 / 50.0 | 1.0 / 2.0 | 10 | 2 | 21 in 2.0 s (10.5 msg/s) | LOSS (loss: 2 of 10 deliveries lost"
                + " (20.0 %, at most 0 %"
                + " allowed)) |").contains("1 of 3 step(s) failed");
        JsonNode json = JSON.readTree(out.resolve("sweep.json").toFile());
        assertThat(json.path("ok").asBoolean()).isFalse();
        assertThat(json.path("steps").get(1).path("clients").asLong()).isEqualTo(12);
        assertThat(json.path("steps").get(2).path("receivedInDrain").asLong()).isEqualTo(21);
        assertThat(json.path("steps").get(2).path("drainRate").asDouble()).isEqualTo(10.5);
        assertThat(json.path("steps").get(2).path("status").asText()).isEqualTo("loss: 2 of 10 deliveries lost (20.0 %,"
                + " at most 0 % allowed)");
        assertThat(Files.readString(out.resolve("sweep.html"))).contains("<a href=\"step-1/report-sw-s1.html\"").doesNotContain("<script");
    }

    @Test
    void stepsWithoutReport_areListedButNotPlotted_andNoBrokerMeansNoCpuChart(@TempDir Path dir) throws Exception {
        StepResult.Builder failed = new StepResult.Builder(2, "partitions=2",
                new SweepOptions.Step(null, Map.of("partitions", "2")),
                "sw-s2", "step-2");
        failed.timedOut = true;
        List<StepResult> steps = List.of(step(dir, 1, 6, "NO_LOSS", false), failed.unjudged());
        Path out = Files.createDirectories(dir.resolve("out"));

        List<String> files = new SweepOutput(options(dir), steps, Instant.EPOCH, Instant.EPOCH).write(out);

        assertThat(files).doesNotContain("broker-cpu.svg");
        assertThat(count(Files.readString(out.resolve("throughput.svg")), "<circle ")).isEqualTo(2);
        assertThat(Files.readString(out.resolve("sweep.md"))).contains("| 2 | partitions=2 |").contains("timed out")
                .contains("No broker CPU");
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
