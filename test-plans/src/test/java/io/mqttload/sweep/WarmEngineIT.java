package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.testsupport.JMeterEngines;

/**
 * sweep.sh --warm-engine as a user runs it: every step (and the warm-up run) on the one local jmeter-server the sweep
 * started, the broker still watched and settled by PID, and the engine gone when the sweep ends, passed or failed.
 */
class WarmEngineIT {
    private static final Path MOSQUITTO = Path.of("/usr/sbin/mosquitto");
    private static final Pattern ENGINE = Pattern.compile("warm engine: pid (\\d+), 127\\.0\\.0\\.1:\\d+ \\(SSL\\)");

    @Test
    void twoSteps_runOnOneEngine_thatIsGoneAfterTheSweep(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(MOSQUITTO), "Debian's mosquitto is not installed (.ci/run installs it)");
        int port = SweepIT.freePort();
        Path conf = Files.writeString(dir.resolve("mosquitto.conf"), String.join("\n", "listener " + port + " 127.0.0.1",
                "allow_anonymous true", "log_dest stdout", ""), StandardCharsets.UTF_8);
        Process broker = new ProcessBuilder(MOSQUITTO.toString(), "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("mosquitto.out").toFile()).start();
        Path out = dir.resolve("sweep");
        SweepIT.Result r;
        try {
            await("mosquitto listening").atMost(Duration.ofSeconds(10)).until(() -> SweepIT.accepts(port));
            r = SweepIT.sweep(dir, List.of("--plan", SweepIT.basedir().resolve("plans/multi-publisher.jmx").toString(),
                    "--steps", "partitions=1;partitions=2", "-JpublishersPerPartition=2", "-JdurationSeconds=2",
                    "-Jmqtt.port=" + port, "-Jmqttload.progressSeconds=0", "--broker-pid", Long.toString(broker.pid()),
                    "--heap", "-Xmx256m", "--jvm-arg", JMeterEngines.JIT, "--warm-engine", "--engine-warm-up", "1",
                    "--step-timeout", "90", "--sweep-id", "warm-it", "--out", out.toString(),
                    // Which steps ran where is the point: a busy machine must not fail them (SweepIT's note).
                    "--max-saturated", "100", "--sla-p99-ms", "60000"), Duration.ofSeconds(240));
        } finally {
            broker.destroy();
            if (!broker.waitFor(10, TimeUnit.SECONDS)) {
                broker.destroyForcibly();
            }
        }

        assertThat(r.exitCode).as(r.output).isZero();
        long pid = enginePid(r.output);
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("engine pid " + pid + " after the sweep")
                .isEmpty();
        assertThat(r.output).contains("warm engine: stopping pid " + pid).doesNotContain("starting another");
        // The warm-up ran first, so the broker is settled before step 1 too.
        assertThat(r.output).contains("warm engine: warm-up run ended with exit code 0",
                "sweep warm-it: step 1: broker settled", "sweep warm-it: step 2: broker settled");
        String engineLog = Files.readString(out.resolve("engine/engine.log"), StandardCharsets.ISO_8859_1);
        for (String run : List.of("warm-it-warm-up", "warm-it-s1", "warm-it-s2")) {
            assertThat(engineLog).as("the one engine's log").contains("MQTT run " + run + " started on engine warm-engine");
        }
        JsonNode steps = new ObjectMapper().readTree(out.resolve("sweep.json").toFile()).path("steps");
        assertThat(steps).hasSize(2);
        for (int i = 1; i <= 2; i++) {
            JsonNode step = steps.get(i - 1);
            assertThat(step.path("verdict").asText()).as(r.output).isEqualTo("NO_LOSS");
            // 1 subscriber and 2 publishers per partition, counted by the engine's summary next to the report.
            assertThat(step.path("clients").asLong()).isEqualTo(3L * i);
            assertThat(out.resolve("step-" + i + "/summary-warm-it-s" + i + "-warm-engine.json")).isRegularFile();
            assertThat(step.path("broker").path("rssMax").asLong()).as("broker memory, by PID, step " + i).isPositive();
        }
    }

    @Test
    void aStepThatTimesOut_stopsTheEngine_andTheSweepEndsWithoutIt(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sweep");
        // Nothing listens on the port: the connects would retry for far longer than the step's second.
        SweepIT.Result r = SweepIT.sweep(dir, List.of("--plan", SweepIT.basedir().resolve("plans/multi-publisher.jmx")
                .toString(), "--steps", "partitions=1;partitions=2", "-Jmqtt.port=" + SweepIT.freePort(), "--heap",
                "-Xmx128m", "--jvm-arg", JMeterEngines.JIT, "--warm-engine", "--engine-warm-up", "0", "--step-timeout",
                "1", "--on-failure", "stop", "--out", out.toString()), Duration.ofSeconds(120));

        assertThat(r.exitCode).as(r.output).isEqualTo(1);
        long pid = enginePid(r.output);
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("engine pid " + pid + " after the sweep")
                .isEmpty();
        JsonNode steps = new ObjectMapper().readTree(out.resolve("sweep.json").toFile()).path("steps");
        assertThat(steps.get(0).path("status").asText()).isEqualTo("timed out");
        assertThat(steps.get(1).path("status").asText()).startsWith("skipped");
    }

    private static long enginePid(String output) {
        Matcher m = ENGINE.matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return Long.parseLong(m.group(1));
    }
}
