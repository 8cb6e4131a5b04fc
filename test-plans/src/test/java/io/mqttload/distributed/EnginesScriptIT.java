package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.Jtl;

/** test-plans/distributed/engines.sh as a user runs it: keystore, start, run (with and without --keep), stop. */
class EnginesScriptIT {
    private static final long COMMAND_TIMEOUT_SECONDS = 150;

    @TempDir
    Path dir;
    private Path home;
    private int base;

    @Test
    void startRunStop_overSsl_enginesExitAfterARun_andStopKillsKeptOnes() throws Exception {
        home = JMeterEngines.homeFromBuild();
        base = freePortBase();
        try {
            script("keystore");
            assertThat(dir.resolve("rmi_keystore.jks")).isNotEmptyFile();

            script("start", "--port-base", String.valueOf(base), "2");
            List<Long> pids = enginePids();
            Path kept = dir.resolve("kept.jtl");
            script(runArgs("--keep", kept));
            DistributedSmokeIT.assertSamplesPerEngine(Jtl.read(kept), prefixes());
            assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
                    .as("pid %d after run --keep", pid).contains(true));

            Path exited = dir.resolve("exited.jtl");
            script(runArgs(null, exited));
            DistributedSmokeIT.assertSamplesPerEngine(Jtl.read(exited), prefixes());
            assertThat(dir.resolve("engines")).as("run removes the record once the engines exited").doesNotExist();
            assertGone(pids);

            // A /metrics port each for Prometheus, next to the engine ports.
            script("start", "--port-base", String.valueOf(base), "--prometheus-port-base", String.valueOf(base + 300),
                    "2");
            List<Long> restarted = enginePids();
            for (int n = 1; n <= 2; n++) {
                assertThat(Files.readString(dir.resolve("engine-" + n + ".log"), StandardCharsets.UTF_8)).as("engine-" + n)
                        .contains("Setting JMeter property: mqttload.prometheus.port=" + (base + 300 + n));
            }
            script("stop");
            assertGone(restarted);
        } finally {
            exec(dir.resolve("cleanup.out"), "stop");
        }
    }

    /** An exited engine stays visible as a zombie until init, its parent once the script is gone, reaps it. */
    private static void assertGone(List<Long> pids) {
        await("engines reaped").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .until(() -> pids.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive)
                        .orElse(false)));
    }

    private String[] runArgs(String option, Path jtl) {
        List<String> args = new ArrayList<>(List.of("run"));
        if (option != null) {
            args.add(option);
        }
        args.addAll(List.of(DistributedSmokeIT.smokePlan().toString(), "-l", jtl.toString(),
                "-Gthreads=" + DistributedSmokeIT.THREADS, "-Gloops=" + DistributedSmokeIT.LOOPS));
        DistributedSmokeIT.CSV_WITH_HOSTNAME.forEach((k, v) -> args.add("-J" + k + "=" + v));
        return args.toArray(new String[0]);
    }

    private Map<Integer, String> prefixes() {
        return Map.of(1, JMeterEngines.HOST + ":" + (base + 1) + "-", 2, JMeterEngines.HOST + ":" + (base + 2) + "-");
    }

    private List<Long> enginePids() throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("engines"), StandardCharsets.UTF_8)) {
            pids.add(Long.parseLong(line.split(" ")[1]));
        }
        return pids;
    }

    /** Runs the script as a user would and returns its output; a non-zero exit fails the test. */
    private String script(String... args) throws IOException, InterruptedException {
        Path output = Files.createTempFile(dir, "script", ".out");
        int exit = exec(output, args);
        String text = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(exit).as("engines.sh %s%n%s", String.join(" ", args), text).isZero();
        return text;
    }

    private int exec(Path output, String... args) throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("project.basedir", "."), "distributed", "engines.sh");
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), "--home", home.toString(), "--dir",
                dir.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("HEAP", "-Xmx256m");
        // Added to every JVM the script starts (its JVM_ARGS): the engines' and the controller's short lives.
        builder.environment().put("JVM_ARGS", JMeterEngines.JIT);
        Process process = builder.start();
        if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("engines.sh " + String.join(" ", args) + " did not finish within "
                    + COMMAND_TIMEOUT_SECONDS + " s:\n" + Files.readString(output, StandardCharsets.UTF_8));
        }
        return process.exitValue();
    }

    /**
     * The script's ports are fixed offsets from a base; a random base keeps parallel builds apart. Below both the
     * kernel's ephemeral range (32768-60999: a port free now could be handed to one of the thousands of outgoing
     * connections other test JVMs open before the engine binds it) and FreePorts' range (15000-31999).
     */
    private static int freePortBase() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(10_000, 14_600);
            if (IntStream.of(1, 2, 101, 102, 201, 202, 301, 302).allMatch(offset -> bindable(candidate + offset))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free port base between 10000 and 14600");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(JMeterEngines.HOST))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
