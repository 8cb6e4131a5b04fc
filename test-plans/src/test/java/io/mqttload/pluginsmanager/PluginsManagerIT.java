package io.mqttload.pluginsmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.measure.Count;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.Processes;

/**
 * The plugin installed the JMeter way: the build's JMeter home with our jar taken out of {@code lib/ext} (a stock
 * home), the JMeter Plugins Manager's own command line with the local repository the plugin module builds (the
 * descriptor beside the shaded jar), then a plan run in that home against a real Mosquitto.
 */
class PluginsManagerIT {
    private static final String PLUGIN_ID = "mqtt-load";
    private static final String DESCRIPTOR = "mqtt-load.json";
    private static final String CLI_TOOL = "org.jmeterplugins.repository.PluginManagerCMD";
    /** The main class of the manager's mover: a JVM started as the command line exits, which moves the jars. */
    private static final String MOVER_CLASS = "org.jmeterplugins.repository.SafeDeleter";
    /** One command takes 1-3 s here; the bound is for a loaded machine. */
    private static final Duration CLI_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** How long the installed jar must keep the repository jar's size when no mover is visible. */
    private static final Duration STABLE = Duration.ofMillis(500);
    private static final int PAIRS = 2;
    /** The plan's own schedule: a sample is one second of the publisher's slots. */
    private static final int SAMPLES = 1;
    private static final int PUBLISH_RATE = 100;
    private static final Pattern PLAN_CLASS = Pattern.compile("(?:guiclass|testclass)=\"(io\\.mqttload\\.[\\w.]+)\"");

    private int cliRuns;
    /** The temporary folders of this test's commands: their movers are stopped when the test ends. */
    private final List<Path> cliTmps = new ArrayList<>();

    /** Stops whatever mover JVM of this test's commands is still running (by PID, only those naming their folder). */
    @AfterEach
    void stopMovers() {
        cliTmps.forEach(PluginsManagerIT::killMovers);
    }

    @Test
    void installWithTheCommandLine_statusShowsTheVersion_andAPlanRunsInThatHome(@TempDir Path dir) throws Exception {
        MosquittoBroker.requireInstalled();
        Path home = stockHomeWithPluginsManager(dir.resolve("jmeter"));

        Cli before = cli(home, dir, "status");
        assertThat(before.exitCode).as(before.output).isZero();
        assertThat(before.output).as("a stock home").doesNotContain(PLUGIN_ID + "=");

        Cli unknown = cli(home, dir, "install", "no-such-plugin");
        assertThat(unknown.exitCode).as(unknown.output).isNotZero();
        assertThat(unknown.output).contains("Plugin not found in repo: no-such-plugin");

        Cli install = cli(home, dir, "install", PLUGIN_ID);
        assertThat(install.exitCode).as(install.output).isZero();
        Path installed = home.resolve("lib").resolve("ext").resolve(jarName());
        awaitMoved(installed, install);
        assertThat(installed).as("the repository's jar").hasSameBinaryContentAs(repository().resolve(jarName()));

        Cli after = cli(home, dir, "status");
        assertThat(after.exitCode).as(after.output).isZero();
        assertThat(after.output).contains(PLUGIN_ID + "=" + version());

        runPlan(home, dir.resolve("run"));
    }

    /**
     * What a user with only a plan does: {@code install-for-jmx} reads the plan's element classes and installs the
     * plugin whose descriptor names them.
     */
    @Test
    void installForJmx_findsThePluginFromAPlansElements(@TempDir Path dir) throws Exception {
        Path home = stockHomeWithPluginsManager(dir.resolve("jmeter"));
        Path plan = Path.of(System.getProperty("project.basedir", "."), "plans", "quickstart-p2p.jmx");

        Cli install = cli(home, dir, "install-for-jmx", plan.toString());

        assertThat(install.exitCode).as(install.output).isZero();
        Path installed = home.resolve("lib").resolve("ext").resolve(jarName());
        awaitMoved(installed, install);
        assertThat(installed).as("the repository's jar").hasSameBinaryContentAs(repository().resolve(jarName()));
        Cli after = cli(home, dir, "status");
        assertThat(after.output).contains(PLUGIN_ID + "=" + version());
    }

    /** What {@code install-for-jmx} and the GUI's suggestions go by: every element of ours that a plan names. */
    @Test
    void descriptor_namesEveryElementThePlansUse_andTheJarBesideItHoldsThem() throws IOException {
        JsonNode entries = new ObjectMapper().readTree(descriptor().toFile());
        assertThat(entries.isArray()).as("the Plugins Manager reads an array").isTrue();
        assertThat(entries).hasSize(1);
        JsonNode entry = entries.get(0);
        assertThat(entry.path("id").asText()).isEqualTo(PLUGIN_ID);
        List<String> versions = new ArrayList<>();
        entry.path("versions").fieldNames().forEachRemaining(versions::add);
        assertThat(versions).containsExactly(version());
        JsonNode release = entry.path("versions").path(version());
        // plugins-manager.changes and the description are filtered in unescaped: readTree above proves them plain text.
        assertThat(release.path("changes").asText()).as("the release's changes").isNotBlank().doesNotContain("${");
        assertThat(entry.path("description").asText()).isNotBlank().doesNotContain("${");
        assertThat(release.path("downloadUrl").asText())
                .as("relative: the Plugins Manager's file mode resolves it beside the descriptor").isEqualTo(jarName());
        assertThat(release.has("libs")).as("the jar is shaded: no libs").isFalse();
        assertThat(release.has("depends")).isFalse();

        Set<String> components = new TreeSet<>();
        entry.path("componentClasses").forEach(c -> components.add(c.asText()));
        assertThat(components).containsAll(classesInPlans());
        String marker = entry.path("markerClass").asText();
        assertThat(components).contains(marker);
        try (JarFile jar = new JarFile(repository().resolve(jarName()).toFile())) {
            assertThat(components).allSatisfy(c -> assertThat(jar.getEntry(c.replace('.', '/') + ".class")).as(c).isNotNull());
            assertThat(jar.stream().anyMatch(e -> e.getName().startsWith("io/mqttload/shaded/com/hivemq/client/")))
                    .as("the shaded jar, not the original").isTrue();
        }
    }

    /** The quick start plan, small, in the home the manager installed into; the summary's counts are exact. */
    private static void runPlan(Path home, Path dir) throws Exception {
        Path results = dir.resolve("results");
        String runId = "pmgr-" + Long.toString(System.currentTimeMillis(), 36);
        Path plan = Path.of(System.getProperty("project.basedir", "."), "plans", "quickstart-p2p.jmx");
        try (MosquittoBroker broker = MosquittoBroker.builder().start();
                JMeterEngines.Headless run = JMeterEngines.startLocal(home, dir, "quickstart", plan, Map.ofEntries(
                        Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                        Map.entry("pairs", Integer.toString(PAIRS)), Map.entry("samples", Integer.toString(SAMPLES)),
                        Map.entry("publishRate", Integer.toString(PUBLISH_RATE)), Map.entry("qos", "1"),
                        Map.entry("mqttload.runId", runId), Map.entry("mqttload.engineId", "pmgr"),
                        Map.entry("mqttload.resultsDir", results.toString()), Map.entry("mqttload.progressSeconds", "0"),
                        Map.entry("mqttload.failExitCode", "3")))) {
            assertThat(run.awaitExit(RUN_TIMEOUT)).as("the run ends within %s; output:%n%s", RUN_TIMEOUT, run.output())
                    .isTrue();
            assertThat(run.exitCode()).as(run.output()).isZero();
            Path file = results.resolve("summary-" + runId + "-pmgr.json");
            assertThat(file).as("the engine summary; output:%n%s", run.output()).exists();
            EngineSummary summary = SummaryJson.readEngineSummary(Files.readString(file, StandardCharsets.UTF_8));
            long messages = (long) PAIRS * SAMPLES * PUBLISH_RATE;
            assertThat(summary.count(Count.CONNECTS_OK)).isEqualTo(2L * PAIRS);
            assertThat(summary.count(Count.PUBLISHED)).isEqualTo(messages);
            assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(messages);
            assertThat(summary.count(Count.EXPECTED)).isEqualTo(messages);
            assertThat(summary.count(Count.RECEIVED)).isEqualTo(messages);
            assertThat(summary.count(Count.RECEIVED_OF_EXPECTED)).isEqualTo(messages);
            assertThat(summary.count(Count.LOST)).isZero();
            assertThat(summary.count(Count.DUPLICATES)).isZero();
            assertThat(summary.verdict).hasToString("NO_LOSS");
        }
    }

    /**
     * A copy of the build's JMeter home without our jar, with the Plugins Manager where its documentation puts it:
     * the manager in {@code lib/ext} (it finds the home from there), cmdrunner in {@code lib}.
     */
    private static Path stockHomeWithPluginsManager(Path home) throws IOException {
        Path source = JMeterEngines.homeFromBuild();
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.collect(Collectors.toList())) {
                Path target = home.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        Path ext = home.resolve("lib").resolve("ext");
        assertThat(ext.resolve(jarName())).as("the build's home has the plugin").exists();
        Files.delete(ext.resolve(jarName()));
        try (Stream<Path> jars = Stream.concat(Files.list(ext), Files.list(home.resolve("lib")))) {
            assertThat(jars.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("mqtt-load"));
        }
        Path manager = Path.of(requiredProperty("plugins-manager.jar"));
        Path cmdrunner = Path.of(requiredProperty("cmdrunner.jar"));
        Files.copy(manager, ext.resolve(manager.getFileName().toString()));
        Files.copy(cmdrunner, home.resolve("lib").resolve(cmdrunner.getFileName().toString()));
        return home;
    }

    /**
     * The manager's command line, as its {@code PluginsManagerCMD.sh} runs it, on the local repository. Each run has
     * a temporary folder of its own: the manager leaves a copy of itself and the mover's log there.
     */
    private Cli cli(Path home, Path dir, String... args) throws IOException, InterruptedException {
        String name = "pmgr-" + ++cliRuns;
        Path tmp = Files.createDirectories(dir.resolve(name + "-tmp"));
        cliTmps.add(tmp);
        Path output = dir.resolve(name + ".out");
        Path cmdrunner = home.resolve("lib").resolve(Path.of(requiredProperty("cmdrunner.jar")).getFileName().toString());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-Djpgc.repo.address=" + descriptor(),
                // File mode sends no usage statistics; an address that is not a file would switch to HTTP mode, which does.
                "-Djpgc.repo.sendstats=false", "-jar", cmdrunner.toString(), "--tool", CLI_TOOL));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // Through the environment rather than -D: the mover JVM inherits the environment only, and writes a log too.
        // Appended to the options the environment may already have (an agent, a proxy, ...).
        String toolOptions = "-Djava.io.tmpdir=" + tmp;
        String inherited = builder.environment().get("JAVA_TOOL_OPTIONS");
        builder.environment().put("JAVA_TOOL_OPTIONS", inherited == null || inherited.isBlank() ? toolOptions
                : inherited + " " + toolOptions);
        Process process = builder.start();
        try {
            if (!process.waitFor(CLI_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("PluginsManagerCMD " + String.join(" ", args) + " did not finish within "
                        + CLI_TIMEOUT + "; output:\n" + Processes.read(output));
            }
            return new Cli(process.exitValue(), Processes.read(output), tmp);
        } finally {
            Processes.stop(process, STOP_GRACE);
        }
    }

    /**
     * The manager applies changes from a JVM of its own that it starts as its command line exits and does not wait
     * for: the jar is installed once that JVM has moved it and gone, and has the repository jar's size (for a
     * {@link ProcessHandle} whose command line the system does not show, the size has to stay for {@link #STABLE}).
     * The command's movers still running afterwards, or at the deadline, are killed.
     */
    private static void awaitMoved(Path installed, Cli install) throws IOException {
        long expected = Files.size(repository().resolve(jarName()));
        long[] sizeSince = {-1};
        try {
            await("the Plugins Manager moves " + installed.getFileName() + " into lib/ext").atMost(INSTALL_TIMEOUT)
                    .pollInterval(Duration.ofMillis(50)).until(() -> {
                        if (!movers(install.tmp).isEmpty() || sizeOf(installed) != expected) {
                            sizeSince[0] = -1;
                            return false;
                        }
                        long now = System.nanoTime();
                        if (sizeSince[0] < 0) {
                            sizeSince[0] = now;
                        }
                        return now - sizeSince[0] >= STABLE.toNanos();
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; install output:\n" + install.output + "\nmover logs:\n"
                    + moverLogs(install.tmp), e);
        } finally {
            killMovers(install.tmp);
        }
    }

    /** The file's size, or -1 when it is not there (yet). */
    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Kills the mover JVMs of one command, by PID, and waits a little for them to go. */
    private static void killMovers(Path tmp) {
        for (ProcessHandle mover : movers(tmp)) {
            mover.destroyForcibly();
            try {
                mover.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // Gone or not, the test's outcome does not depend on it.
            }
        }
    }

    /** The mover JVMs of one command: their class path is the manager's copy in that command's temporary folder. */
    private static List<ProcessHandle> movers(Path tmp) {
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(p -> p.info().commandLine()
                    .map(c -> c.contains(MOVER_CLASS) && c.contains(tmp.toString())).orElse(false))
                    .collect(Collectors.toList());
        }
    }

    private static String moverLogs(Path tmp) throws IOException {
        try (Stream<Path> files = Files.list(tmp)) {
            StringBuilder logs = new StringBuilder();
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith("jpgc-cleaner-"))
                    .collect(Collectors.toList())) {
                logs.append(log.getFileName()).append(":\n").append(Processes.read(log));
            }
            return logs.toString();
        }
    }

    private static Set<String> classesInPlans() throws IOException {
        Path basedir = Path.of(System.getProperty("project.basedir", "."));
        Set<String> classes = new TreeSet<>();
        try (Stream<Path> files = Files.walk(basedir)) {
            for (Path plan : files.filter(f -> f.toString().endsWith(".jmx"))
                    .filter(f -> !basedir.relativize(f).startsWith("target")).collect(Collectors.toList())) {
                Matcher m = PLAN_CLASS.matcher(Files.readString(plan, StandardCharsets.UTF_8));
                while (m.find()) {
                    classes.add(m.group(1));
                }
            }
        }
        assertThat(classes).as("plans under " + basedir).isNotEmpty();
        return classes;
    }

    /** The local repository the plugin module's package phase writes: the descriptor and the jar side by side. */
    private static Path repository() {
        Path repository = Path.of(requiredProperty("plugins-manager.repository"));
        if (!Files.isRegularFile(repository.resolve(DESCRIPTOR))) {
            throw new IllegalStateException("no " + DESCRIPTOR + " in " + repository
                    + ": build the plugin module first (./mvnw -B -ntp -pl plugin -DskipTests package)");
        }
        return repository;
    }

    private static Path descriptor() {
        return repository().resolve(DESCRIPTOR);
    }

    /** The Plugins Manager reads the installed version from the jar's name, so the name carries it. */
    private static String jarName() {
        return "mqtt-load-jmeter-" + version() + ".jar";
    }

    private static String version() {
        return requiredProperty("plugin.version");
    }

    private static String requiredProperty(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("no " + name + " system property: run through Maven (failsafe)");
        }
        return value;
    }

    /** A finished command: its exit code, its console output, and its temporary folder. */
    private static final class Cli {
        final int exitCode;
        final String output;
        final Path tmp;

        Cli(int exitCode, String output, Path tmp) {
            this.exitCode = exitCode;
            this.output = output;
            this.tmp = tmp;
        }
    }
}
