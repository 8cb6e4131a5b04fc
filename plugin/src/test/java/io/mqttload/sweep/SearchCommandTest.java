package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A search step goes to remote engines and broker nodes like a sweep step: value, duration and warm-up as -G and -J. */
class SearchCommandTest {

    @Test
    void aSearchStep_carriesItsValueDurationAndWarmUp_toTheControllerAndEveryEngine(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.jmx"), "<jmeterTestPlan/>");
        Files.createDirectories(dir.resolve("home/bin"));
        SweepOptions o = SweepOptions.parse(new String[] {"--plan", plan.toString(), "--out", dir.resolve("out").toString(),
            "--jmeter-home", dir.resolve("home").toString(), "--search", "floodRate", "--start", "2000", "--step-seconds",
            "20", "--confirm-seconds", "60", "--warmup-seconds", "5", "--remote", "127.0.0.1:1099,127.0.0.2:1099",
            "-Gmqtt.nodes=127.0.0.1:1883,127.0.0.1:1884", "--sweep-id", "cap"});
        Sweep sweep = new Sweep(o, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        CapacitySearch search = new CapacitySearch(o.capacity.settings);

        SweepOptions.Step step = sweep.searchStep(search, 3000, CapacitySearch.Phase.BISECT);
        List<String> c = sweep.command(new StepResult.Builder(4, step.label, step, "cap-s4", "step-4"), dir.resolve("j.jar"),
                plan, dir.resolve("out/step-4"));
        SweepOptions.Step confirm = sweep.searchStep(search, 3000, CapacitySearch.Phase.CONFIRM);

        assertThat(step.label).isEqualTo("floodRate=3000");
        assertThat(c).contains("-JfloodRate=3000", "-JdurationSeconds=25", "-Jmqttload.warmupSeconds=5",
                "-Jmqttload.runId=cap-s4", "-R", "127.0.0.1:1099,127.0.0.2:1099", "-Gmqttload.engines=2",
                "-GfloodRate=3000", "-GdurationSeconds=25", "-Gmqttload.warmupSeconds=5", "-Gmqttload.runId=cap-s4",
                "-Gmqtt.nodes=127.0.0.1:1883,127.0.0.1:1884");
        assertThat(confirm.properties).containsEntry("durationSeconds", "65");
    }

    @Test
    void withRemoteEngines_theSweepsOwnPropertiesAndPropertyFilesReachTheEngines_andGOverridesJThere(@TempDir Path dir)
            throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.jmx"), "<jmeterTestPlan/>");
        Path preset = Files.writeString(dir.resolve("preset.properties"), "qos=1\n");
        Files.createDirectories(dir.resolve("home/bin"));
        SweepOptions o = SweepOptions.parse(new String[] {"--plan", plan.toString(), "--out", dir.resolve("out").toString(),
            "--jmeter-home", dir.resolve("home").toString(), "--search", "floodRate", "--start", "2000", "--remote",
            "127.0.0.1:1099", "-Jmqtt.port=21883", "-Jmqtt.host=10.0.0.1", "-Gmqtt.host=127.0.0.1", "-q",
            preset.toString(), "--sweep-id", "cap"});
        Sweep sweep = new Sweep(o, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        SweepOptions.Step step = sweep.searchStep(new CapacitySearch(o.capacity.settings), 2000,
                CapacitySearch.Phase.RAMP);

        List<String> c = sweep.command(new StepResult.Builder(1, step.label, step, "cap-s1", "step-1"), dir.resolve("j.jar"),
                plan, dir.resolve("out/step-1"));

        // Without them the engines ran the plan's default port: connection refused, read as the broker's limit.
        assertThat(c).contains("-Jmqtt.port=21883", "-Gmqtt.port=21883", "-Jmqtt.host=10.0.0.1", "-Gmqtt.host=127.0.0.1",
                "-q", preset.toAbsolutePath().toString(), "-G" + preset.toAbsolutePath())
                .doesNotContain("-Gmqtt.host=10.0.0.1");
    }
}
