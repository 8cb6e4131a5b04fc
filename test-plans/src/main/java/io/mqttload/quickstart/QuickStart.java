package io.mqttload.quickstart;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.hivemq.embedded.EmbeddedHiveMQ;

/**
 * The quick start: an embedded HiveMQ CE broker on a free loopback port, a plan run headless in the
 * stock JMeter home that jmeter-maven-plugin assembled (so the shaded plugin jar in lib/ext is what
 * runs), the plugin's summary printed, and an exit code that says whether every message arrived.
 *
 * <p>Arguments: the module's build directory, the plan, the results directory, and {@code archive} for the build's
 * training run instead: a 1-second run of the plan whose JVM writes the start-up archive of JMeter and the plugin
 * into the home's {@code bin/} ({@code -XX:ArchiveClassesAtExit}, with the JVM build that made it next to it), which
 * the quick start, the sweep and compare runners and the engines start JMeter with (io.mqttload.sweep.StartupArchive).
 */
public final class QuickStart {
    private static final long BROKER_TIMEOUT_SECONDS = 60;
    private static final long RUN_TIMEOUT_SECONDS = 300;
    /** Samples per publisher, each one second of its schedule (100 msg/s): 30 s. */
    private static final int QUICKSTART_SAMPLES = 30;
    private static final int WARMUP_SECONDS = 10;
    /** As io.mqttload.sweep.StartupArchive names them (that class is in the plugin jar, not on this classpath). */
    private static final String ARCHIVE = "mqtt-load.jsa";
    private static final String ARCHIVE_JDK = ARCHIVE + ".jdk";
    /** -XX:ArchiveClassesAtExit came with Java 13; the suite builds on 11. */
    private static final int DYNAMIC_ARCHIVE_JDK = 13;

    private QuickStart() {
    }

    public static void main(String[] args) {
        boolean archive = args.length == 4 && args[3].equals("archive");
        if (args.length != 3 && !archive) {
            fail("usage: QuickStart <build directory> <plan.jmx> <results directory> [archive]");
        }
        try {
            System.exit(run(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), archive));
        } catch (IOException e) {
            fail("quick start failed: " + e.getMessage());
        }
    }

    private static int run(Path buildDir, Path plan, Path results, boolean archive) throws IOException {
        Path jmeterJar = findJMeter(buildDir);
        if (!Files.isReadable(plan)) {
            fail("plan not found: " + plan);
        }
        Files.createDirectories(results);
        Path brokerHome = Files.createTempDirectory("mqttload-quickstart-broker");
        int port = freePort();
        writeBrokerConfig(brokerHome, port);
        System.out.printf(Locale.ROOT, "Starting HiveMQ CE (embedded) on 127.0.0.1:%d%n", port);
        try (EmbeddedHiveMQ broker = EmbeddedHiveMQ.builder()
                .withConfigurationFolder(brokerHome.resolve("conf"))
                .withDataFolder(brokerHome.resolve("data"))
                .withExtensionsFolder(brokerHome.resolve("extensions"))
                .withoutLoggingBootstrap()
                .build()) {
            broker.start().get(BROKER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            String runId = "quickstart-" + Long.toString(System.currentTimeMillis() / 1000, 36);
            int exit = archive ? makeArchive(jmeterJar, plan, results, port, runId)
                    : runJMeter(jmeterJar, plan, results, port, runId);
            broker.stop().get(BROKER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (archive) {
                return exit;
            }
            if (exit != 0) {
                System.out.println("JMeter exited with code " + exit + "; see " + results.resolve("jmeter.log"));
                return exit;
            }
            return verdict(results, runId);
        } catch (TimeoutException e) {
            fail("the embedded broker did not start or stop within " + BROKER_TIMEOUT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            fail("the embedded broker failed: " + e.getCause());
        } catch (Exception e) {
            fail("the embedded broker failed: " + e);
        }
        return 1;
    }

    /** jmeter-maven-plugin 3.x assembles the JMeter home in a directory named by a UUID under target/. */
    private static Path findJMeter(Path buildDir) throws IOException {
        try (Stream<Path> dirs = Files.list(buildDir)) {
            Optional<Path> jar = dirs.map(d -> d.resolve("jmeter").resolve("bin")).filter(Files::isDirectory)
                    .flatMap(QuickStart::jmeterJars)
                    .max(Comparator.comparingLong(p -> p.toFile().lastModified()));
            if (jar.isEmpty()) {
                fail("no JMeter home under " + buildDir + ": run the quick start through Maven (-Pquickstart)");
            }
            return jar.get();
        }
    }

    private static Stream<Path> jmeterJars(Path bin) {
        try {
            List<Path> jars = new ArrayList<>();
            try (Stream<Path> files = Files.list(bin)) {
                files.filter(f -> f.getFileName().toString().matches("ApacheJMeter-.*\\.jar")).forEach(jars::add);
            }
            return jars.stream();
        } catch (IOException e) {
            return Stream.empty();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void writeBrokerConfig(Path home, int port) throws IOException {
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("extensions"));
        String config = String.format(Locale.ROOT, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>%n"
                + "<hivemq>%n"
                + "  <listeners>%n"
                + "    <tcp-listener>%n"
                + "      <port>%d</port>%n"
                + "      <bind-address>127.0.0.1</bind-address>%n"
                + "    </tcp-listener>%n"
                + "  </listeners>%n"
                + "  <persistence>%n    <mode>in-memory</mode>%n  </persistence>%n"
                + "  <anonymous-usage-statistics>%n    <enabled>false</enabled>%n  </anonymous-usage-statistics>%n"
                + "</hivemq>%n", port);
        Files.write(home.resolve("conf").resolve("config.xml"), config.getBytes(StandardCharsets.UTF_8));
    }

    private static int runJMeter(Path jmeterJar, Path plan, Path results, int port, String runId)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java()));
        Path archive = jmeterJar.resolveSibling(ARCHIVE);
        String made = Files.isReadable(jmeterJar.resolveSibling(ARCHIVE_JDK))
                ? Files.readString(jmeterJar.resolveSibling(ARCHIVE_JDK), StandardCharsets.UTF_8).trim() : "";
        if (Files.isRegularFile(archive) && made.equals(System.getProperty("java.vm.version"))) {
            command.add("-XX:SharedArchiveFile=" + archive);
        } else {
            // The JVM would fall back quietly on an archive of another build; say it instead.
            System.out.println("JMeter starts without the start-up archive " + archive + (made.isEmpty() ? ""
                    : ": made by JVM " + made + ", this is " + System.getProperty("java.vm.version")));
        }
        // 30 s of publishing, the first 10 s a warm-up left out of the figures: the JIT compiling two JVMs'
        // code and the first connections are not the broker's latency.
        command.addAll(jmeterArgs(jmeterJar, plan, results, port, runId, "quickstart"));
        command.addAll(List.of("-Jsamples=" + QUICKSTART_SAMPLES, "-Jmqttload.warmupSeconds=" + WARMUP_SECONDS));
        System.out.println("Running " + plan.getFileName() + " in " + jmeterJar.getParent().getParent());
        return await(new ProcessBuilder(command).inheritIO().start());
    }

    /**
     * The build's training run: one pair for a second, its JVM writing the classes it loaded into the archive, and the
     * JVM build that can use it next to it.
     */
    private static int makeArchive(Path jmeterJar, Path plan, Path results, int port, String runId)
            throws IOException, InterruptedException {
        Path archive = jmeterJar.resolveSibling(ARCHIVE);
        Files.deleteIfExists(jmeterJar.resolveSibling(ARCHIVE_JDK));
        if (Runtime.version().feature() < DYNAMIC_ARCHIVE_JDK) {
            System.out.println("No start-up archive: Java " + Runtime.version().feature() + " cannot make one (Java "
                    + DYNAMIC_ARCHIVE_JDK + "+); JMeter starts without it");
            return 0;
        }
        List<String> command = new ArrayList<>(List.of(java(), "-XX:ArchiveClassesAtExit=" + archive,
                // The dump names every class it leaves out (JMeter's class scan loads some it never links).
                "-Xlog:cds=error"));
        command.addAll(jmeterArgs(jmeterJar, plan, results, port, runId, "archive"));
        command.addAll(List.of("-Jpairs=1", "-Jsamples=1", "-Jmqttload.warmupSeconds=0"));
        System.out.println("Making the start-up archive " + archive);
        Process jmeter = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(results.resolve("archive.out").toFile()).start();
        int exit = await(jmeter);
        if (exit != 0 || !Files.isRegularFile(archive)) {
            System.out.println("The training run failed (exit " + exit + "); see " + results.resolve("archive.out"));
            return exit == 0 ? 1 : exit;
        }
        Files.writeString(jmeterJar.resolveSibling(ARCHIVE_JDK), System.getProperty("java.vm.version") + "\n",
                StandardCharsets.UTF_8);
        System.out.printf(Locale.ROOT, "Start-up archive: %s, %.1f MB%n", archive, Files.size(archive) / 1e6);
        return 0;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> jmeterArgs(Path jmeterJar, Path plan, Path results, int port, String runId,
            String name) throws IOException {
        return List.of("-Dlog4j.configurationFile=" + logConfig(), "-jar", jmeterJar.toString(), "-n",
                "-t", plan.toAbsolutePath().toString(),
                "-l", results.resolve(name + ".jtl").toAbsolutePath().toString(),
                "-j", results.resolve(name.equals("quickstart") ? "jmeter.log" : name + ".log").toAbsolutePath().toString(),
                "-Jmqtt.host=127.0.0.1",
                "-Jmqtt.port=" + port,
                "-Jmqttload.runId=" + runId,
                "-Jmqttload.engineId=" + name,
                "-Jmqttload.resultsDir=" + results.toAbsolutePath());
    }

    private static int await(Process jmeter) throws InterruptedException {
        if (!jmeter.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            jmeter.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            System.out.println("JMeter did not finish within " + RUN_TIMEOUT_SECONDS + " s and was stopped");
            return 1;
        }
        return jmeter.exitValue();
    }

    /** JMeter's log configuration for the quick start, from this module's resources. */
    private static String logConfig() throws IOException {
        URL config = QuickStart.class.getResource("/headless-log4j2.xml");
        if (config == null) {
            throw new IOException("headless-log4j2.xml is missing from the quick start's classpath");
        }
        return config.toString();
    }

    /** Reads the verdict of the plugin's JSON summary: the quick start passes only on NO_LOSS. */
    private static int verdict(Path results, String runId) throws IOException {
        Path summary = results.resolve("summary-" + runId + "-quickstart.json");
        if (!Files.isReadable(summary)) {
            System.out.println("No summary at " + summary + ": the plugin did not run; see " + results.resolve("jmeter.log"));
            return 1;
        }
        String json = Files.readString(summary, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"verdict\"\\s*:\\s*\"([A-Z_]+)\"").matcher(json);
        String verdict = m.find() ? m.group(1) : "MISSING";
        System.out.println("Summary: " + summary);
        Path report = results.resolve("report-" + runId + ".html");
        if (Files.isReadable(report)) {
            System.out.println("Report (open in a browser): " + report.toAbsolutePath());
        }
        System.out.println("Verdict: " + verdict);
        return verdict.equals("NO_LOSS") ? 0 : 2;
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(1);
    }
}
