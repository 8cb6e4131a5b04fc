package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.Xvfb;

/**
 * The run id of a run on two real jmeter-server engines that were given none, as engines started for a GUI are.
 * Started the way a GUI user starts it (the real JMeter GUI under Xvfb, its Run &gt; Remote Start All clicked, which
 * sends the engines the plan and no {@code -G} properties), the cross-engine barrier releases on both engines under
 * one run id, long before its timeout, which is what it waited out when every engine made up its own id. Started
 * headless with {@code -R} and no {@code -G} run id, each engine still makes up its own, and the barrier says so at
 * once on both engines instead of waiting out the timeout.
 */
class DistributedRunIdIT {
    private static final int ENGINES = 2;
    private static final int THREADS = 2;
    private static final long BARRIER_TIMEOUT_MS = 90_000;
    private static final Pattern GIVEN = Pattern.compile("remote_start_all gives run id (\\S+) to the engines");

    private static Path resources() {
        return Path.of(System.getProperty("project.basedir", "."), "src", "test", "resources");
    }

    /** As engines.sh start --property ... gives them: the plan's parameters, no mqttload.runId. */
    private static JMeterEngines engines(Path dir, EmbeddedHiveMqBroker broker, Path results) throws IOException {
        return JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), ENGINES, false,
                Duration.ofSeconds(90), Map.of("mqtt.port", Integer.toString(broker.tcpPort()),
                        "mqttload.engines", Integer.toString(ENGINES), "rendezvousTimeoutMs", Long.toString(BARRIER_TIMEOUT_MS),
                        "mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0"));
    }

    @Test
    void remoteStartAll_givesBothEnginesOneRunId_andTheirBarrierReleasesLongBeforeItsTimeout(@TempDir Path dir)
            throws Exception {
        Xvfb.requireInstalled();
        Path plan = dir.resolve("gui-remote-start.jmx");
        Path engineResults = dir.resolve("engine-results");
        Path controllerResults = dir.resolve("controller-results");
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                Xvfb display = Xvfb.start(Duration.ofSeconds(30));
                JMeterEngines engines = engines(dir, broker, engineResults)) {
            // A copy, as the GUI saves the plan before it runs it (save_automatically_before_run), which is when the
            // MQTT elements already carry the run id; dated back, so that the save shows.
            Files.copy(resources().resolve("gui-remote-start.jmx"), plan);
            FileTime copied = FileTime.from(Instant.now().minus(Duration.ofDays(1)));
            Files.setLastModifiedTime(plan, copied);
            Path click = resources().resolve("gui-remote-start-all.groovy");

            try (JMeterEngines.Headless gui = engines.startGui(plan, display.display(), Map.of(
                    "jsr223.init.file", click.toString(), "save_automatically_before_run", "true",
                    "mqttload.resultsDir", controllerResults.toString()))) {
                String runId = await("the GUI opens the plan and Remote Start All gives the engines a run id")
                        .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                        .until(() -> givenRunId(gui), id -> id != null);
                long startedNanos = System.nanoTime();

                await("both engines end the run and write their summaries").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200)).until(() -> summaries(engineResults).size() == ENGINES);
                Duration run = Duration.ofNanos(System.nanoTime() - startedNanos);

                // Released when both engines arrived, not by the timeout: however slow the machine, a run that waited
                // for the barrier's timeout takes at least that long (and its log says "timed out", checked below).
                assertThat(run).as("released before the %d ms timeout", BARRIER_TIMEOUT_MS)
                        .isLessThan(Duration.ofMillis(BARRIER_TIMEOUT_MS));
                for (Path file : summaries(engineResults)) {
                    EngineSummary summary = SummaryJson.readEngineSummary(Files.readString(file, StandardCharsets.UTF_8));
                    assertThat(summary.runId).as(file.toString()).isEqualTo(runId);
                    assertThat(file.getFileName().toString()).startsWith("summary-" + runId + "-engine-");
                }
                assertThat(engines.engines()).allSatisfy(e -> assertThat(e.log())
                        .contains("MQTT run " + runId + " started").doesNotContain("timed out"));

                // The GUI's MQTT Run Report merged both engines under the one id, barrier released on both.
                Path report = controllerResults.resolve("report-" + runId + ".json");
                await("the GUI's run report").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .until(() -> Files.exists(report));
                ReportFigures figures = SummaryJson.readReport(Files.readString(report, StandardCharsets.UTF_8));
                assertThat(figures.engineSummaries).containsOnlyKeys("engine-1", "engine-2");
                ReportFigures.BarrierLine start = figures.rendezvous.get("start #1");
                assertThat(start).as(figures.rendezvous.toString()).isNotNull();
                assertThat(start.groupSize).isEqualTo(ENGINES * THREADS);
                assertThat(start.threads).isEqualTo(ENGINES * THREADS);
                assertThat(start.enginesReleased).isEqualTo(ENGINES);
                // The GUI saved the plan while its elements carried the id, and the file has none of it.
                assertThat(Files.getLastModifiedTime(plan)).as("saved by Remote Start").isGreaterThan(copied);
                assertThat(Files.readString(plan, StandardCharsets.UTF_8)).contains("MqttRendezvousTimer")
                        .doesNotContain(runId);
            }
        }
    }

    @Test
    void headlessRemoteRun_withoutARunId_namesTheMismatchOnBothEnginesAtOnce(@TempDir Path dir) throws Exception {
        Path engineResults = dir.resolve("engine-results");
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                JMeterEngines engines = engines(dir, broker, engineResults)) {
            long startedNanos = System.nanoTime();
            JMeterEngines.Run run = engines.run(resources().resolve("gui-remote-start.jmx"), Map.of(), Map.of(),
                    Duration.ofSeconds(BARRIER_TIMEOUT_MS / 1000 * 2));
            Duration took = Duration.ofNanos(System.nanoTime() - startedNanos);

            // Named when the other engine's arrival was seen, not by the timeout: a run that waited for it takes at
            // least that long, however fast the machine; the failure rows below say "cannot work", not "timed out".
            assertThat(took).as("named before the %d ms timeout: %s", BARRIER_TIMEOUT_MS, run.output)
                    .isLessThan(Duration.ofMillis(BARRIER_TIMEOUT_MS));
            assertThat(engines.awaitExit(Duration.ofSeconds(30))).as("engines exit after the run").isTrue();
            List<Path> files = summaries(engineResults);
            assertThat(files).hasSize(ENGINES);
            for (Path file : files) {
                EngineSummary summary = SummaryJson.readEngineSummary(Files.readString(file, StandardCharsets.UTF_8));
                String other = "engine-1".equals(summary.engineId) ? "engine-2" : "engine-1";
                assertThat(summary.failures).as(file.toString()).anySatisfy(row -> assertThat(row.reason)
                        .contains("cannot work: pass #1: engine " + other + " arrived under run id")
                        .contains("made up by the engine itself").contains("this engine " + summary.engineId
                                + " under run id " + summary.runId));
            }
        }
    }

    private static String givenRunId(JMeterEngines.Headless gui) {
        if (!gui.isAlive()) {
            throw new IllegalStateException("the GUI exited:\n" + gui.output() + "\n" + gui.log());
        }
        Matcher m = GIVEN.matcher(gui.log());
        return m.find() ? m.group(1) : null;
    }

    private static List<Path> summaries(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("summary-.*\\.json")).sorted()
                    .collect(Collectors.toList());
        }
    }
}
