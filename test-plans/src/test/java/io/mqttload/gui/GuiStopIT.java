package io.mqttload.gui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.Xvfb;

/**
 * A run started and stopped the way a GUI user does it (the real JMeter GUI under Xvfb, Run &gt; Start, then Run &gt;
 * Stop once messages flow, clicked by {@code gui-start-then-stop.groovy}): its report says STOPPED and when, never
 * NO LOSS (issue 27, point 8). The plan would publish for 30 s. The GUI's console has no log4j status warnings.
 */
class GuiStopIT {
    private static final Duration PLANNED = Duration.ofSeconds(30);

    private static Path resources() {
        return Path.of(System.getProperty("project.basedir", "."), "src", "test", "resources");
    }

    @Test
    void runStartedAndStoppedInTheGui_isReportedStoppedWithItsTime(@TempDir Path dir) throws Exception {
        Xvfb.requireInstalled();
        Path results = dir.resolve("results");
        // A copy: the GUI may save the plan it runs (save_automatically_before_run).
        Path plan = dir.resolve("gui-stop.jmx");
        Files.copy(resources().resolve("gui-stop.jmx"), plan);
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                Xvfb display = Xvfb.start(Duration.ofSeconds(30));
                JMeterEngines.Headless gui = JMeterEngines.startLocalGui(JMeterEngines.homeFromBuild(), dir.resolve("gui"),
                        "gui-stop", plan, display.display(), Map.of(
                                "mqtt.port", Integer.toString(broker.tcpPort()),
                                "jsr223.init.file", resources().resolve("gui-start-then-stop.groovy").toString(),
                                "mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0"))) {
            Path report = await("the GUI's run report after Stop").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200)).until(() -> reports(results, gui), r -> !r.isEmpty()).get(0);
            ReportFigures figures = SummaryJson.readReport(Files.readString(report, StandardCharsets.UTF_8));

            assertThat(Files.readString(gui.log)).contains("GuiStopIT: Stop clicked");
            assertThat(figures.count(Count.ACKNOWLEDGED)).as(figures.verdictText).isGreaterThanOrEqualTo(10);
            assertThat(figures.verdict).as(figures.verdictText).isEqualTo(Verdict.STOPPED);
            // Stopped, not run for the plan's 30 s: the time of the stop the run itself recorded (the wall time to
            // the report also counts the GUI's start, which a busy machine makes as long as it likes).
            assertThat(figures.count(Count.STOPPED_AT_MILLIS)).isBetween(1L, PLANNED.toMillis());
            assertThat(figures.verdictText).contains("the test was stopped at").contains("before the plan's end");
            // The home's log4j2.xml: log4j's status lines (JMeter's package scanning, deprecated) are not printed.
            assertThat(gui.output()).doesNotContain("StatusConsoleListener");
        }
    }

    private static List<Path> reports(Path dir, JMeterEngines.Headless gui) throws IOException {
        if (!gui.isAlive()) {
            throw new IllegalStateException("the GUI exited:\n" + gui.output() + "\n" + gui.log());
        }
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("report-.*\\.json")).collect(Collectors.toList());
        }
    }
}
