package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * The run id, engine numbers and engine count of a run on real jmeter-server engines that were given none, as a user
 * starts them. Started the way a GUI user starts it (the real JMeter GUI under Xvfb, its Run &gt; Remote Start All
 * clicked, which sends the engines the plan and no {@code -G} properties), the cross-engine barrier releases on both
 * engines under one run id, long before its timeout, which is what it waited out when every engine made up its own id.
 * Two controllers started headless with {@code -R} on one broker at once each give their engine an id of its own
 * (a headless {@code -R} run of every shipped plan on two engines is {@code ShippedPlansOnTwoEnginesIT}).
 */
class DistributedRunIdIT {
    private static final int ENGINES = 2;
    private static final int THREADS = 2;
    private static final long BARRIER_TIMEOUT_MS = 90_000;
    private static final Pattern GIVEN = Pattern.compile("remote_start_all gives run id (\\S+) to the engines");
    private static final Pattern CONTROLLER_GIVES = Pattern.compile("this controller gives its engines run id ([^,\\s]+)");
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

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
            // run id is already made; dated back, so that the save shows.
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
                // The GUI saved the plan once the id was made, and the file has none of it.
                assertThat(Files.getLastModifiedTime(plan)).as("saved by Remote Start").isGreaterThan(copied);
                assertThat(Files.readString(plan, StandardCharsets.UTF_8)).contains("MqttRendezvousTimer")
                        .doesNotContain(runId);
            }
        }
    }

    @Test
    void twoControllers_onOneBrokerAtOnce_eachGiveTheirEngineARunIdOfTheirOwn(@TempDir Path dir) throws Exception {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                JMeterEngines first = JMeterEngines.startWithoutIdentity(JMeterEngines.homeFromBuild(),
                        dir.resolve("first"), 1, false, Duration.ofSeconds(90), resultsIn(dir.resolve("first-results")));
                JMeterEngines second = JMeterEngines.startWithoutIdentity(JMeterEngines.homeFromBuild(),
                        dir.resolve("second"), 1, false, Duration.ofSeconds(90), resultsIn(dir.resolve("second-results")));
                JMeterEngines.Headless one = first.startController(quickStart(), quickStartOn(broker), Map.of());
                JMeterEngines.Headless other = second.startController(quickStart(), quickStartOn(broker), Map.of())) {
            assertThat(one.awaitExit(RUN_TIMEOUT)).as("first controller ends: %s", one.output()).isTrue();
            assertThat(other.awaitExit(RUN_TIMEOUT)).as("second controller ends: %s", other.output()).isTrue();

            String oneId = controllerRunId(one.output());
            String otherId = controllerRunId(other.output());
            assertThat(oneId).isNotEqualTo(otherId);
            assertThat(engineSummaries(dir.resolve("first-results"))).extracting(s -> s.runId, s -> s.engineNumber)
                    .containsExactly(tuple(oneId, 1));
            assertThat(engineSummaries(dir.resolve("second-results"))).extracting(s -> s.runId, s -> s.engineNumber)
                    .containsExactly(tuple(otherId, 1));
            assertThat(one.output()).contains("MQTT run " + oneId + "  scenario quickstart-p2p  engines 1")
                    .doesNotContain(otherId);
            assertThat(other.output()).contains("MQTT run " + otherId + "  scenario quickstart-p2p  engines 1")
                    .doesNotContain(oneId);
        }
    }

    private static Path quickStart() {
        return Path.of(System.getProperty("project.basedir", "."), "plans", "quickstart-p2p.jmx");
    }

    /** The broker's address, and sizes small enough for a short run. */
    private static Map<String, String> quickStartOn(EmbeddedHiveMqBroker broker) {
        return Map.of("mqtt.host", JMeterEngines.HOST, "mqtt.port", Integer.toString(broker.tcpPort()), "pairs", "2",
                "samples", "1");
    }

    private static String controllerRunId(String output) {
        Matcher m = CONTROLLER_GIVES.matcher(output);
        assertThat(m.find()).as("the controller names the run id it gives: %s", output).isTrue();
        return m.group(1);
    }

    /** An engine's own setting: where it writes its summary (the build's JMeter home names a folder for all). */
    private static Map<String, String> resultsIn(Path dir) {
        return Map.of("mqttload.resultsDir", dir.toString());
    }

    private static List<EngineSummary> engineSummaries(Path dir) throws IOException {
        List<EngineSummary> all = new ArrayList<>();
        for (Path file : summaries(dir)) {
            all.add(SummaryJson.readEngineSummary(Files.readString(file, StandardCharsets.UTF_8)));
        }
        return all;
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
