package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.Processes;

/**
 * Three headless JMeter engines started with the same plan and the same properties, and no controller, as a hosted
 * JMeter service or N copies of a Kubernetes Job start them: they claim numbers 1..3 and one run id through the broker,
 * pass the plan's start barrier together, and each writes its summary into one results directory; merge.sh builds the
 * run report from those files. Every engine's subscriber takes every engine's messages, so only the merge of the three
 * ledgers can say what was owed: it must count exactly what the engines published, three times, all received. A
 * summary given twice is refused naming both files; a missing one makes the report INCOMPLETE.
 */
class FleetIT {
    private static final int ENGINES = 3;

    @Test
    void threeEnginesStartedAlike_claimNumbersAndARunId_andMergeMakesTheRunsReport(@TempDir Path dir) throws Exception {
        MosquittoBroker.requireInstalled();
        Path home = JMeterEngines.homeFromBuild();
        Path results = dir.resolve("results");
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            Map<String, String> sameForAll = Map.ofEntries(
                    Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                    Map.entry("partitions", "1"), Map.entry("publishersPerPartition", "2"),
                    Map.entry("publishRate", "25"),
                    Map.entry("durationSeconds", "4"), Map.entry("qos", "1"), Map.entry("subscriberFilter", "S/#"),
                    Map.entry("mqttload.engineNumber", "auto"), Map.entry("mqttload.engines", Integer.toString(ENGINES)),
                    Map.entry("mqttload.fleet", "fleet-it-" + Long.toString(System.nanoTime(), 36)),
                    Map.entry("mqttload.resultsDir", results.toString()), Map.entry("mqttload.progressSeconds", "0"));
            List<JMeterEngines.Headless> engines = new ArrayList<>();
            try {
                for (int i = 1; i <= ENGINES; i++) {
                    // Each in a directory of its own only for JMeter's own log and JTL; the properties are the same.
                    engines.add(JMeterEngines.startLocal(home, dir.resolve("e" + i), "engine", DistributedMqttIT.plan(),
                            sameForAll));
                }
                for (JMeterEngines.Headless e : engines) {
                    assertThat(e.awaitExit(Duration.ofSeconds(150))).as(e.output()).isTrue();
                    assertThat(e.exitCode()).as(e.output()).isZero();
                    assertThat(e.output()).containsPattern("MQTT fleet 'fleet-it-\\w+': this engine is number [123] of 3");
                }
            } finally {
                engines.forEach(JMeterEngines.Headless::close);
            }
        }

        List<EngineSummary> summaries = new ArrayList<>();
        List<Path> files = summaryFiles(results);
        for (Path f : files) {
            summaries.add(SummaryJson.readEngineSummary(Files.readString(f, StandardCharsets.UTF_8)));
        }
        assertThat(summaries.stream().map(s -> s.engineNumber)).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(summaries.stream().map(s -> s.engineId)).containsExactlyInAnyOrder("engine-1", "engine-2", "engine-3");
        String runId = summaries.get(0).runId;
        assertThat(summaries).allSatisfy(s -> assertThat(s.runId).isEqualTo(runId));
        // Alone, each engine received messages of streams its ledger does not hold: the other engines'.
        assertThat(summaries).allSatisfy(s -> assertThat(s.count(Count.RECEIVED_FROM_UNKNOWN_STREAMS)).isPositive());
        long published = summaries.stream().mapToLong(s -> s.count(Count.PUBLISHED)).sum();
        assertThat(published).isPositive();

        Path out = dir.resolve("merged");
        Merge merged = merge(home, dir, "--out", out.toString(), results.toString());
        assertThat(merged.exit).as(merged.output).isZero();
        ReportFigures report = SummaryJson.readReport(Files.readString(out.resolve("report-" + runId + ".json"),
                StandardCharsets.UTF_8));
        assertThat(report.engines).isEqualTo(ENGINES);
        assertThat(report.missingEngines).isEmpty();
        assertThat(report.verdict).as(report.verdictText).isEqualTo(Verdict.NO_LOSS);
        assertThat(report.count(Count.PUBLISHED)).isEqualTo(published);
        assertThat(report.count(Count.EXPECTED)).isEqualTo(ENGINES * published);
        assertThat(report.count(Count.RECEIVED_OF_EXPECTED)).isEqualTo(ENGINES * published);
        assertThat(report.count(Count.LOST)).isZero();
        assertThat(report.count(Count.RECEIVED_FROM_UNKNOWN_STREAMS)).isZero();
        for (String format : List.of(".md", ".txt", ".html")) {
            assertThat(out.resolve("report-" + runId + format)).isNotEmptyFile();
        }

        // One engine's summary given twice: refused, naming both files.
        Path copy = results.resolve("summary-copy.json");
        Files.copy(files.get(1), copy);
        Merge twice = merge(home, dir, "--out", dir.resolve("twice").toString(), results.toString());
        assertThat(twice.exit).isEqualTo(2);
        assertThat(twice.output).contains("is in two files").contains(files.get(1).getFileName().toString())
                .contains(copy.getFileName().toString());
        assertThat(dir.resolve("twice")).doesNotExist();

        // Two of the three: the report says which engine is missing.
        Path partial = dir.resolve("partial");
        Merge two = merge(home, dir, "--out", partial.toString(), files.get(0).toString(), files.get(2).toString());
        assertThat(two.exit).as(two.output).isZero();
        ReportFigures incomplete = SummaryJson.readReport(Files.readString(partial.resolve("report-" + runId + ".json"),
                StandardCharsets.UTF_8));
        assertThat(incomplete.verdict).isEqualTo(Verdict.INCOMPLETE);
        assertThat(incomplete.missingEngines).containsExactly("engine number " + summaries.get(1).engineNumber);
    }

    private static List<Path> summaryFiles(Path results) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> found = Files.newDirectoryStream(results, "summary-*.json")) {
            found.forEach(files::add);
        }
        files.sort(null);
        assertThat(files).as("summary files").hasSize(ENGINES);
        return files;
    }

    private static final class Merge {
        final int exit;
        final String output;

        Merge(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    /** test-plans/merge/merge.sh as a user runs it, on the build's JMeter home. */
    private static Merge merge(Path home, Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", Path.of(System.getProperty("project.basedir", "."),
                "merge", "merge.sh").toString()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile(dir, "merge", ".out");
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        b.environment().put("JMETER_HOME", home.toString());
        Process p = b.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            Processes.stop(p, Duration.ofSeconds(5));
            throw new AssertionError("merge.sh did not end within 180 s: " + Files.readString(output));
        }
        return new Merge(p.exitValue(), Files.readAllLines(output).stream().collect(Collectors.joining("\n")));
    }
}
