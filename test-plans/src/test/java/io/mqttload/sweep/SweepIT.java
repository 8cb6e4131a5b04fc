package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.testsupport.JMeterEngines;

/**
 * test-plans/sweep/sweep.sh as a user runs it, on the build's JMeter home: a 3-step mini sweep of the
 * multi-publisher plan against a Mosquitto started here, with its broker monitored by PID; and a sweep whose
 * steps cannot finish in time, which must end bounded and say so.
 */
class SweepIT {
    private static final Path MOSQUITTO = Path.of("/usr/sbin/mosquitto");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PUBLISHERS = 5;

    static Path basedir() {
        return Path.of(System.getProperty("project.basedir", "."));
    }

    static Result sweep(Path dir, List<String> args, Duration timeout) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", basedir().resolve("sweep/sweep.sh").toString(),
                "--jmeter-home", JMeterEngines.homeFromBuild().toString()));
        command.addAll(args);
        Path output = dir.resolve("sweep.out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertThat(p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("sweep finished within " + timeout)
                    .isTrue();
            return new Result(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    static final class Result {
        final int exitCode;
        final String output;

        Result(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    @Test
    void threeSteps_tableChartsAndPage_fromEachStepsReport(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(MOSQUITTO), "Debian's mosquitto is not installed (.ci/run installs it)");
        int port = freePort();
        Path conf = Files.writeString(dir.resolve("mosquitto.conf"), String.join("\n", "listener " + port + " 127.0.0.1",
                "allow_anonymous true", "max_queued_messages 0", "log_dest stdout", ""), StandardCharsets.UTF_8);
        Process broker = new ProcessBuilder(MOSQUITTO.toString(), "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("mosquitto.out").toFile()).start();
        Path out = dir.resolve("sweep");
        Result r;
        try {
            await("mosquitto listening").atMost(Duration.ofSeconds(10)).until(() -> accepts(port));
            r = sweep(dir, List.of("--plan", basedir().resolve("plans/multi-publisher.jmx").toString(), "--steps",
                    "partitions=1;partitions=2;partitions=3", "--clients-property", "partitions",
                    "-JpublishersPerPartition=" + PUBLISHERS, "-JdurationSeconds=2", "-Jqos=1",
                    "-Jmqtt.port=" + port, "-Jmqttload.progressSeconds=0", "--broker-pid",
                    Long.toString(broker.pid()), "--broker-name", "mosquitto", "--heap", "-Xmx256m", "--jvm-arg", JMeterEngines.JIT,
                    "--step-timeout", "90", "--sweep-id", "sweep-it", "--out", out.toString(),
                    // The table, charts and page are the point here; a machine busy with other work (each step reads
                    // "machine: ... over 90 % busy", or p99 over the default 100 ms SLA, then) must not fail the
                    // sweep: CapacitySearchIT and the criteria's unit tests judge those.
                    "--max-saturated", "100", "--sla-p99-ms", "60000"), Duration.ofSeconds(300));
        } finally {
            broker.destroy();
            if (!broker.waitFor(10, TimeUnit.SECONDS)) {
                broker.destroyForcibly();
            }
        }

        assertThat(r.exitCode).as(r.output).isZero();
        // Watched by PID, the broker is waited for between steps until it is quiet (it is, between these small ones).
        assertThat(r.output).contains("sweep sweep-it: step 2: broker settled in ", "sweep sweep-it: step 3: broker"
                + " settled in ").doesNotContain("step 1: broker settled");
        JsonNode sweep = JSON.readTree(out.resolve("sweep.json").toFile());
        JsonNode steps = sweep.path("steps");
        assertThat(steps).hasSize(3);
        assertThat(steps.get(0).has("brokerSettle")).isFalse();
        assertThat(steps.get(2).path("brokerSettle").path("settled").asBoolean()).isTrue();
        long previous = 0;
        for (int i = 0; i < 3; i++) {
            JsonNode step = steps.get(i);
            assertThat(step.path("verdict").asText()).as(r.output).isEqualTo("NO_LOSS");
            assertThat(step.path("ok").asBoolean()).isTrue();
            JsonNode report = JSON.readTree(out.resolve(step.path("report").asText()).toFile());
            long clients = step.path("clients").asLong();
            assertThat(clients).as("clients are what the step's report counted").isEqualTo(
                    report.path("counts").path("connectsOk").asLong()).isGreaterThan(previous);
            // One subscriber and the publishers per partition: the report counts what the step asked for.
            assertThat(clients).isEqualTo((i + 1) * (PUBLISHERS + 1L));
            assertThat(step.path("broker").path("rssMax").asLong()).as("broker memory of step " + (i + 1)).isPositive();
            assertThat(out.resolve(step.path("reportHtml").asText())).isRegularFile();
            previous = clients;
        }
        String md = Files.readString(out.resolve("sweep.md"), StandardCharsets.UTF_8);
        assertThat(md.lines().filter(l -> l.matches("\\| [123] \\| partitions=[123] \\| \\d+ \\|.*"))).hasSize(3);
        for (String chart : List.of("throughput", "latency", "broker-cpu")) {
            String svg = Files.readString(out.resolve(chart + ".svg"), StandardCharsets.UTF_8);
            int series = count(svg, "<polyline ");
            assertThat(series).as(chart + " series").isPositive();
            assertThat(count(svg, "<circle ")).as(chart + ": one point per step and series").isEqualTo(3 * series);
            assertThat(stepsPlotted(svg)).isEqualTo(new TreeSet<>(List.of(1, 2, 3)));
            byte[] png = Files.readAllBytes(out.resolve(chart + ".png"));
            assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        }
        assertThat(out.resolve("sweep.html")).isRegularFile();
        assertHtmlOpensCleanly(out.resolve("sweep.html"), dir.resolve("chromium"));
    }

    @Test
    void stepsThatOverrunTheirTimeout_areRecorded_andStopSkipsTheRest(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sweep");
        // Nothing listens on the port: the connects would retry for far longer than a second.
        Result r = sweep(dir, List.of("--plan", basedir().resolve("plans/multi-publisher.jmx").toString(), "--steps",
                "partitions=1;partitions=2", "-Jmqtt.port=" + freePort(), "--heap", "-Xmx128m", "--jvm-arg", JMeterEngines.JIT,
                "--step-timeout", "1",
                "--on-failure", "stop", "--out", out.toString()), Duration.ofSeconds(120));

        assertThat(r.exitCode).as(r.output).isEqualTo(1);
        JsonNode steps = JSON.readTree(out.resolve("sweep.json").toFile()).path("steps");
        assertThat(steps.get(0).path("status").asText()).isEqualTo("timed out");
        assertThat(steps.get(1).path("status").asText()).startsWith("skipped");
        assertThat(Files.readString(out.resolve("sweep.md"), StandardCharsets.UTF_8)).contains("| 1 | partitions=1 |")
                .contains("| 2 | partitions=2 |");
    }

    @Test
    void badArguments_exitWith2AndOneLineNamingTheOption(@TempDir Path dir) throws Exception {
        Result r = sweep(dir, List.of("--plan", "no-such-plan.jmx", "--steps", "partitions=1", "--out",
                dir.resolve("o").toString()), Duration.ofSeconds(60));

        assertThat(r.exitCode).isEqualTo(2);
        assertThat(r.output.lines().findFirst().orElse("")).isEqualTo("sweep: --plan 'no-such-plan.jmx': no such file");
    }

    /** Chromium, headless as this machine needs it: the page loads, draws its charts and logs nothing. */
    private static void assertHtmlOpensCleanly(Path html, Path work) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is not installed (.ci/run installs it)");
        Files.createDirectories(work);
        Path dom = work.resolve("dom.html");
        Path log = work.resolve("chromium.log");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + Files.createTempDirectory(work, "profile"),
                "--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish within 90 s");
        }
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        String page = Files.readString(dom, StandardCharsets.UTF_8);
        assertThat(count(page, "<svg class=\"chart\"")).isEqualTo(3);
        assertThat(page).contains("every step passed").contains("href=\"step-3/report-sweep-it-s3.html\"");
        assertThat(Files.readAllLines(log).stream().filter(l -> l.contains(":CONSOLE")).collect(Collectors.toList()))
                .isEmpty();
    }

    private static TreeSet<Integer> stepsPlotted(String svg) {
        TreeSet<Integer> steps = new TreeSet<>();
        Matcher m = Pattern.compile("<title>step (\\d+) ").matcher(svg);
        while (m.find()) {
            steps.add(Integer.parseInt(m.group(1)));
        }
        return steps;
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
