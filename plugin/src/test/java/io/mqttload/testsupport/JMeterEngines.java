package io.mqttload.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;


/**
 * JMeter's distributed mode on loopback, as {@code test-plans/distributed/engines.sh} sets it up, from the stock
 * JMeter home of the build: K {@code jmeter-server} engines and controller runs against them. Processes are
 * started directly rather than through the script, so that every one of them is a {@link Process} this class
 * can wait for and kill, whatever happens to the test.
 */
public final class JMeterEngines implements AutoCloseable {
    /** JMeter's default, as in bin/jmeter.properties; the keystore, not the password, is what guards the engines. */
    public static final String KEYSTORE_PASSWORD = "changeit";
    public static final String HOST = "127.0.0.1";
    /** What RemoteJMeterEngineImpl logs once the engine is in its registry, i.e. a controller can reach it. */
    private static final String READY = "Bound to RMI registry on port ";
    private static final String HEAP = "-Xmx256m";
    /**
     * The client compiler only: these JVMs live seconds to a few minutes, where C2's compiler threads cost more CPU than
     * its code saves; a short headless run took 4.3 CPU-s instead of 7.5 (and half the wall time) on two busy cores.
     */
    public static final String JIT = "-XX:TieredStopAtLevel=1";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final Path dir;
    private final Path jar;
    private final Path rmiProperties;
    private final List<Engine> engines = new ArrayList<>();
    /** Whether each engine is given its mqttload.engineId and mqttload.engineNumber, or left to its controller. */
    private boolean identity = true;
    private int runs;

    private JMeterEngines(Path home, Path dir, boolean ssl) throws IOException {
        this.dir = dir;
        this.jar = jmeterJar(home);
        this.rmiProperties = dir.resolve("rmi.properties");
        Files.createDirectories(dir);
        StringBuilder props = new StringBuilder();
        if (ssl) {
            Path keystore = createKeystore(dir);
            props.append("server.rmi.ssl.keystore.file=").append(propertyValue(keystore)).append('\n')
                    .append("server.rmi.ssl.keystore.password=").append(KEYSTORE_PASSWORD).append('\n')
                    .append("server.rmi.ssl.keystore.alias=rmi\n")
                    .append("server.rmi.ssl.truststore.file=").append(propertyValue(keystore)).append('\n')
                    .append("server.rmi.ssl.truststore.password=").append(KEYSTORE_PASSWORD).append('\n');
        } else {
            props.append("server.rmi.ssl.disable=true\n");
        }
        Files.writeString(rmiProperties, props.toString(), StandardCharsets.ISO_8859_1);
    }

    /**
     * Starts {@code count} engines numbered 1..count, with {@code mqttload.engineId=engine-<n>} and
     * {@code mqttload.engineNumber=<n>}, and returns once every one is bound in its RMI registry.
     */
    public static JMeterEngines start(Path home, Path dir, int count, boolean ssl, Duration readyTimeout)
            throws IOException {
        return start(home, dir, count, ssl, readyTimeout, Map.of());
    }

    /**
     * As {@link #start(Path, Path, int, boolean, Duration)}, each engine also given {@code properties} as {@code -J}:
     * what engines driven by a GUI controller need, as its Remote Start sends no {@code -G} properties.
     */
    public static JMeterEngines start(Path home, Path dir, int count, boolean ssl, Duration readyTimeout,
            Map<String, String> properties) throws IOException {
        return start(home, dir, count, ssl, readyTimeout, n -> Map.of(), n -> properties);
    }

    /**
     * As {@link #start(Path, Path, int, boolean, Duration)}, engine n with the environment variables
     * {@code environment.apply(n)} (a shifted clock: {@link FakeTime}) and the properties {@code properties.apply(n)}
     * ({@code -J}, local to the engine).
     */
    public static JMeterEngines start(Path home, Path dir, int count, boolean ssl, Duration readyTimeout,
            IntFunction<Map<String, String>> environment, IntFunction<Map<String, String>> properties) throws IOException {
        return start(new JMeterEngines(home, dir, ssl), count, readyTimeout, environment, properties);
    }

    /**
     * As a user starts {@code jmeter-server}: {@code count} engines with their ports and {@code properties} ({@code -J})
     * only, no {@code mqttload.engineId} or {@code mqttload.engineNumber}, so that the controller gives them theirs.
     */
    public static JMeterEngines startWithoutIdentity(Path home, Path dir, int count, boolean ssl, Duration readyTimeout,
            Map<String, String> properties) throws IOException {
        JMeterEngines engines = new JMeterEngines(home, dir, ssl);
        engines.identity = false;
        return start(engines, count, readyTimeout, n -> Map.of(), n -> properties);
    }

    private static JMeterEngines start(JMeterEngines engines, int count, Duration readyTimeout,
            IntFunction<Map<String, String>> environment, IntFunction<Map<String, String>> properties) throws IOException {
        try {
            for (int n = 1; n <= count; n++) {
                engines.engines.add(engines.startEngine(n, environment.apply(n), properties.apply(n)));
            }
            for (Engine engine : engines.engines) {
                await("engine " + engine.number + " bound in its RMI registry").atMost(readyTimeout)
                        .pollInterval(Duration.ofMillis(100)).until(engine::isReady);
            }
            return engines;
        } catch (RuntimeException | IOException e) {
            engines.close();
            throw e;
        }
    }

    /** The JMeter home that the build's configure execution recorded in config.json. */
    public static Path homeFromBuild() throws IOException {
        String config = System.getProperty("jmeter.config");
        String executionId = System.getProperty("jmeter.executionId", "configuration");
        if (config == null) {
            throw new IllegalStateException("no jmeter.config system property: run through Maven (failsafe)");
        }
        String json = Files.readString(Path.of(config), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"executionID\":\"" + Pattern.quote(executionId)
                + "\",\"jmeterDirectoryPath\":\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no JMeter home for execution " + executionId + " in " + config);
        }
        return Path.of(m.group(1).replaceAll("\\\\(.)", "$1"));
    }

    public List<Engine> engines() {
        return Collections.unmodifiableList(engines);
    }

    /** The {@code -R} argument: every engine's registry. */
    public String remoteHosts() {
        return engines.stream().map(e -> HOST + ":" + e.registryPort).collect(Collectors.joining(","));
    }

    /**
     * Runs the controller on {@code plan} against all engines with {@code -X}, so the engines exit after it.
     * {@code global} become {@code -G} (sent to every engine), {@code local} {@code -J} (the controller only).
     * The controller is killed if it has not finished within {@code timeout}.
     */
    public Run run(Path plan, Map<String, String> global, Map<String, String> local, Duration timeout)
            throws IOException, InterruptedException {
        return run(plan, global, local, timeout, true);
    }

    /**
     * As {@link #run(Path, Map, Map, Duration)}; with {@code exitEngines} false the controller runs without {@code -X},
     * so the engines stay up for the next plan (a class that runs many plans on the same engines).
     */
    public Run run(Path plan, Map<String, String> global, Map<String, String> local, Duration timeout,
            boolean exitEngines) throws IOException, InterruptedException {
        try (Headless controller = startController(plan, global, local, exitEngines)) {
            if (!controller.awaitExit(timeout)) {
                throw new IllegalStateException("the controller did not finish within " + timeout + "; output:\n"
                        + controller.output());
            }
            return new Run(controller.exitCode(), controller.output(), controller.jtl, controller.log);
        }
    }

    /**
     * Starts the controller on {@code plan} against all engines with {@code -X} and returns at once: the caller
     * waits for it ({@link Headless#awaitExit}), meanwhile does things to the engines, and closes it.
     * {@code global} become {@code -G}, {@code local} {@code -J} (after the defaults here, so they win).
     */
    public Headless startController(Path plan, Map<String, String> global, Map<String, String> local)
            throws IOException {
        return startController(plan, global, local, true);
    }

    private Headless startController(Path plan, Map<String, String> global, Map<String, String> local,
            boolean exitEngines) throws IOException {
        String name = "controller-" + ++runs;
        List<String> command = java();
        command.addAll(List.of("-n", "-t", plan.toString(), "-R", remoteHosts()));
        if (exitEngines) {
            command.add("-X");
        }
        command.addAll(List.of("-q", rmiProperties.toString(),
                // The UDP shutdown listener is for people at a terminal; tests stop the process themselves.
                "-Jjmeterengine.nongui.port=0"));
        global.forEach((k, v) -> command.add("-G" + k + "=" + v));
        return Headless.start(command, dir, name, local);
    }

    /**
     * The JMeter GUI on {@code plan} on the X display {@code display}, with every engine in {@code remote_hosts}, as
     * a user opens it before Run &gt; Remote Start All. {@code local} become {@code -J}; {@code jsr223.init.file}
     * among them is how a test acts in the GUI (JMeter runs it once the plan is open). Closing it kills it.
     */
    public Headless startGui(Path plan, String display, Map<String, String> local) throws IOException {
        String name = "gui-" + ++runs;
        List<String> command = java();
        command.addAll(List.of("-t", plan.toString(), "-q", rmiProperties.toString(), "-Jremote_hosts=" + remoteHosts(),
                "-Duser.language=en", "-Duser.region=US"));
        return Headless.start(command, dir, name, local, Map.of("DISPLAY", display));
    }

    /**
     * A stand-alone headless JMeter, {@code jmeter -n -t plan} without engines, from the JMeter home {@code home}:
     * its files are {@code name.jtl}, {@code name.log} and {@code name.out} (console) in {@code dir}, which is also
     * its working directory. {@code properties} become {@code -J}, after the defaults here, so they win.
     */
    public static Headless startLocal(Path home, Path dir, String name, Path plan, Map<String, String> properties)
            throws IOException {
        Files.createDirectories(dir);
        List<String> command = java(jmeterJar(home));
        // No UDP shutdown listener unless the properties ask for one (jmeterengine.nongui.port).
        command.addAll(List.of("-n", "-t", plan.toString(), "-Jjmeterengine.nongui.port=0"));
        return Headless.start(command, dir, name, properties);
    }

    /**
     * JMeter's HTML dashboard of a results file, as {@code jmeter -g jtl -o out} writes it in the JMeter home
     * {@code home} (whose {@code bin/user.properties} it reads); returns the command's console output.
     *
     * @throws IllegalStateException when the generation fails; the test fails when it does not end within
     *                               {@code timeout}
     */
    public static String dashboard(Path home, Path jtl, Path out, Duration timeout) throws IOException {
        List<String> command = java(jmeterJar(home));
        command.addAll(List.of("-g", jtl.toString(), "-o", out.toString(), "-j",
                out.resolveSibling(out.getFileName() + ".log").toString()));
        Command.Result r = Command.run(command, jtl.getParent(), "", timeout);
        if (r.exit != 0) {
            throw new IllegalStateException("jmeter -g " + jtl + " ended with " + r.exit + ":\n" + r.all());
        }
        return r.out;
    }

    /**
     * The JMeter GUI of the JMeter home {@code home} on {@code plan}, without engines, on the X display {@code display}:
     * as a user opens a plan to run it with Run &gt; Start. Its files are as {@link #startLocal}'s; {@code properties}
     * become {@code -J}, and {@code jsr223.init.file} among them is how a test acts in the GUI.
     */
    public static Headless startLocalGui(Path home, Path dir, String name, Path plan, String display,
            Map<String, String> properties) throws IOException {
        Files.createDirectories(dir);
        List<String> command = java(jmeterJar(home));
        command.addAll(List.of("-t", plan.toString(), "-Duser.language=en", "-Duser.region=US"));
        return Headless.start(command, dir, name, properties, Map.of("DISPLAY", display));
    }

    /** Whether every engine has exited by itself within {@code timeout}, as {@code -X} asks them to. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Engine engine : engines) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !engine.process.waitFor(left, TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        engines.forEach(e -> kill(e.process));
    }

    private Engine startEngine(int n, Map<String, String> environment, Map<String, String> properties) throws IOException {
        List<Integer> ports = FreePorts.tcpPorts(2);
        int registryPort = ports.get(0);
        int localPort = ports.get(1);
        Path log = dir.resolve("engine-" + n + ".log");
        Files.deleteIfExists(log);
        List<String> command = java();
        command.addAll(List.of("-s", "-j", log.toString(), "-q", rmiProperties.toString(),
                "-Jserver_port=" + registryPort, "-Jserver.rmi.localport=" + localPort));
        if (identity) {
            command.addAll(List.of("-Jmqttload.engineId=engine-" + n, "-Jmqttload.engineNumber=" + n));
        }
        properties.forEach((k, v) -> command.add("-J" + k + "=" + v));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("engine-" + n + ".out").toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        return new Engine(n, registryPort, localPort, process, log);
    }

    private List<String> java() {
        return java(jar);
    }

    private static List<String> java(Path jar) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // Without java.rmi.server.hostname JMeter refuses to serve RMI on a loopback address.
        return new ArrayList<>(List.of(java.toString(), HEAP, JIT, "-Djava.rmi.server.hostname=" + HOST, "-jar",
                jar.toString()));
    }

    private static Process process(List<String> command, Path dir, Path output) throws IOException {
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
    }

    /** As JMeter's bin/create-rmi-keystore.sh, with a fixed name so that keytool does not prompt. */
    private static Path createKeystore(Path dir) throws IOException {
        Path keystore = dir.resolve("rmi_keystore.jks");
        Files.deleteIfExists(keystore);
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Path output = dir.resolve("keytool.out");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-keyalg", "RSA", "-keysize", "2048",
                "-alias", "rmi", "-validity", "7", "-dname", "CN=JMeter RMI, OU=mqtt-load", "-keystore",
                keystore.toString(), "-storepass", KEYSTORE_PASSWORD).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed:\n" + read(output));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keytool ran", e);
        } finally {
            kill(process);
        }
        return keystore;
    }

    private static Path jmeterJar(Path home) throws IOException {
        try (var files = Files.list(home.resolve("bin"))) {
            return files.filter(f -> f.getFileName().toString().matches("ApacheJMeter-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no bin/ApacheJMeter-*.jar under " + home));
        }
    }

    /** Properties files treat a backslash as an escape: Windows paths need it doubled. */
    private static String propertyValue(Path path) {
        return path.toAbsolutePath().toString().replace("\\", "\\\\");
    }


    private static String read(Path file) {
        return Processes.read(file);
    }

    private static void kill(Process process) {
        Processes.stop(process, STOP_TIMEOUT);
    }

    /** One jmeter-server process. */
    public static final class Engine {
        public final int number;
        public final int registryPort;
        public final int localPort;
        private final Process process;
        private final Path log;

        Engine(int number, int registryPort, int localPort, Process process, Path log) {
            this.number = number;
            this.registryPort = registryPort;
            this.localPort = localPort;
            this.process = process;
            this.log = log;
        }

        /** Thread names on an engine start with the address the controller knows it by. */
        public String threadNamePrefix() {
            return host() + "-";
        }

        /** The engine's {@code -R} entry, {@code host:registryPort}: how the controller names it. */
        public String host() {
            return HOST + ":" + registryPort;
        }

        /** Its console (stdout and stderr): the plugin's progress lines and summary go there. */
        public String output() {
            return read(log.resolveSibling("engine-" + number + ".out"));
        }

        /** Its jmeter.log ({@code -j}). */
        public String log() {
            return read(log);
        }

        public long pid() {
            return process.pid();
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        /** SIGKILL, as a crash or the OOM killer would end it: no shutdown hook, no goodbye to the controller. */
        public void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("engine " + number + " (pid " + process.pid()
                        + ") still alive after SIGKILL");
            }
        }

        /** Whether the process has exited within {@code timeout}. */
        public boolean awaitExit(Duration timeout) throws InterruptedException {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        boolean isReady() {
            boolean bound = read(log).contains(READY + registryPort);
            if (!bound && !process.isAlive()) {
                throw new IllegalStateException("engine " + number + " exited with " + process.exitValue()
                        + " before it was ready; log:\n" + read(log));
            }
            return bound;
        }
    }

    /**
     * A started headless JMeter process ({@code -n}: a controller or a stand-alone run), or the GUI (which ignores
     * the results file), with its results file, log and console output; closing it kills it (SIGTERM, then SIGKILL)
     * if it is still running.
     */
    public static final class Headless implements AutoCloseable {
        public final String name;
        public final Path jtl;
        public final Path log;
        public final Path outputFile;
        private final Process process;
        private final long startedNanos;

        private Headless(String name, Path jtl, Path log, Path outputFile, Process process, long startedNanos) {
            this.name = name;
            this.jtl = jtl;
            this.log = log;
            this.outputFile = outputFile;
            this.process = process;
            this.startedNanos = startedNanos;
        }

        static Headless start(List<String> command, Path dir, String name, Map<String, String> properties)
                throws IOException {
            return start(command, dir, name, properties, Map.of());
        }

        static Headless start(List<String> command, Path dir, String name, Map<String, String> properties,
                Map<String, String> environment) throws IOException {
            Path jtl = dir.resolve(name + ".jtl");
            Path log = dir.resolve(name + ".log");
            Path output = dir.resolve(name + ".out");
            List<String> full = new ArrayList<>(command);
            full.addAll(List.of("-l", jtl.toString(), "-j", log.toString()));
            properties.forEach((k, v) -> full.add("-J" + k + "=" + v));
            long started = System.nanoTime();
            ProcessBuilder builder = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            builder.environment().putAll(environment);
            return new Headless(name, jtl, log, output, builder.start(), started);
        }

        /** Whether the process has exited within {@code timeout}; returns as soon as it has. */
        public boolean awaitExit(Duration timeout) throws InterruptedException {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** The exit code; fails when the process is still running. */
        public int exitCode() {
            return process.exitValue();
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        public long pid() {
            return process.pid();
        }

        /** Time since the process was started. */
        public Duration sinceStart() {
            return Duration.ofNanos(System.nanoTime() - startedNanos);
        }

        /** The console output so far. */
        public String output() {
            return read(outputFile);
        }

        /** jmeter.log so far. */
        public String log() {
            return read(log);
        }

        @Override
        public void close() {
            kill(process);
        }
    }

    /** A finished controller run: its exit code, console output, results file and log. */
    public static final class Run {
        public final int exitCode;
        public final String output;
        public final Path jtl;
        public final Path log;

        Run(int exitCode, String output, Path jtl, Path log) {
            this.exitCode = exitCode;
            this.output = output;
            this.jtl = jtl;
            this.log = log;
        }
    }
}
