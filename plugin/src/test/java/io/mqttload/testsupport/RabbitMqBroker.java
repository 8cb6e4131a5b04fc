package io.mqttload.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A RabbitMQ node (Debian's {@code rabbitmq-server} 3.10 with the {@code rabbitmq_mqtt} plugin) listening on
 * 127.0.0.1 only, on ports of its own, with its database, logs and configuration in a folder of its own. MQTT
 * clients may connect anonymously (as {@code guest}). RabbitMQ 3.10 speaks MQTT 3.1 and 3.1.1 only: it refuses
 * MQTT 5 CONNECTs, and it downgrades QoS 2 to QoS 1 (a QoS 2 PUBLISH is answered with a PUBACK).
 *
 * <pre>{@code
 * try (RabbitMqBroker broker = RabbitMqBroker.builder().withSetting("mqtt.prefetch = 100").start()) {
 *     connect(broker.host(), broker.mqttPort());
 *     broker.stop();   // the node goes away; its data (retained messages, persistent sessions) stays
 *     broker.start();  // the same node comes back on the same ports
 * }
 * }</pre>
 *
 * <p>How the node is kept to itself (found out with 3.10.8 on Erlang 25):
 * <ul>
 * <li>{@code /usr/lib/rabbitmq/bin/rabbitmq-server} is run directly: the {@code /usr/sbin} wrapper would
 * {@code su} to the {@code rabbitmq} user when run as root. The script works as root and as any other user.</li>
 * <li>Every location comes from an environment variable pointing into the node's folder ({@link #environment});
 * {@code RABBITMQ_CONF_ENV_FILE} names an empty file so that {@code /etc/rabbitmq/rabbitmq-env.conf} is not read,
 * and {@code HOME} is the folder, so Erlang creates a {@code .erlang.cookie} of the node's own there.
 * RABBITMQ_* and ERL_* variables of the test JVM are not passed on.</li>
 * <li>EPMD: every broker starts a private {@code epmd} as a child process of the test JVM, in the foreground, on
 * a free port ({@code ERL_EPMD_PORT}) bound to 127.0.0.1, before the node. The node and {@code rabbitmqctl}
 * register with and ask that epmd only, so an epmd left on the shared port 4369 by anything else does not matter,
 * and no {@code epmd -daemon} is spawned: RabbitMQ's prelaunch would otherwise start one, which detaches (own
 * session, stdio on /dev/null, so it would not block the JVM or surefire from finishing) but outlives the JVM.
 * The private epmd survives {@link #stop()} (the restarted node registers with it again) and ends with
 * {@link #close()}.</li>
 * <li>Every process of the node (the script, {@code beam.smp}, {@code erl_child_setup}, {@code inet_gethost},
 * the epmd, {@code rabbitmqctl}) inherits the variable {@value #MARKER_VARIABLE} naming the node's folder;
 * {@link #processes()} finds them by it, and {@link #stop()}, {@link #close()} and the shutdown hook kill what is
 * left. A test JVM killed with SIGKILL cannot clean up; its nodes then stay until the machine is reset.</li>
 * <li>Ready means: the node's output says {@code Server startup complete} and the MQTT port accepts connections
 * (the MQTT listener opens a few milliseconds before the startup message; {@code rabbitmqctl await_startup} would
 * tell the same thing, but costs an Erlang VM start of about 1 s). A first start takes 10-15 s on two cores,
 * about 5 s of which is {@code rabbitmq_mqtt} waiting for Raft peers of its client-id tracker; a restart on the
 * same folder takes 6-7 s. {@link #stop()} sends SIGTERM to the script, which stops the node gracefully
 * (about 1 s) and exits once {@code beam.smp} has.</li>
 * </ul>
 */
public final class RabbitMqBroker implements AutoCloseable {
    /** Overrides the folder holding {@code rabbitmq-server} and {@code rabbitmqctl}. */
    public static final String BIN_DIR_PROPERTY = "mqttload.rabbitmq.bin";
    public static final String DEFAULT_BIN_DIR = "/usr/lib/rabbitmq/bin";
    /** Overrides the {@code epmd} executable. */
    public static final String EPMD_PROPERTY = "mqttload.epmd";
    public static final String DEFAULT_EPMD = "/usr/bin/epmd";
    /** Set in the environment of every process of a node, to its folder. */
    public static final String MARKER_VARIABLE = "MQTTLOAD_RABBITMQ_NODE";

    private static final String READY_LINE = "Server startup complete";
    private static final String BOOT_FAILED_LINE = "BOOT FAILED";
    private static final List<String> PORT_IN_USE = List.of("eaddrinuse", "dist_port_already_used",
            "could not bind to distribution port");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration EPMD_START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CTL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    private static final int START_ATTEMPTS = 3;
    private static final int LOG_TAIL_LINES = 40;
    private static final int LOG_ERROR_LINES = 15;
    // A test JVM that ends without close() must not leave nodes running on the machine.
    private static final Set<RabbitMqBroker> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(RabbitMqBroker::killEverything),
                "rabbitmq-test-broker-reaper"));
    }

    private final Path directory;
    private final Path configFile;
    private final Path logFile;
    private final Path epmdLogFile;
    private final int mqttPort;
    private final int amqpPort;
    private final int distributionPort;
    private final int epmdPort;
    private final String nodeName;
    private final Map<String, String> environment;
    private volatile Process process;
    private volatile Process epmd;
    private boolean closed;
    /** The node this one joins into a cluster (sharing its epmd and cookie), or null for a node of its own. */
    private final RabbitMqBroker seed;
    private boolean joined;

    private RabbitMqBroker(Path directory, List<Integer> ports, List<String> settings, RabbitMqBroker seed) {
        this.seed = seed;
        this.directory = directory;
        this.configFile = directory.resolve("rabbitmq.conf");
        this.logFile = directory.resolve("rabbitmq.log");
        this.epmdLogFile = directory.resolve("epmd.log");
        this.mqttPort = ports.get(0);
        this.amqpPort = ports.get(1);
        this.distributionPort = ports.get(2);
        // Nodes of one cluster find each other through one epmd: the seed's.
        this.epmdPort = seed == null ? ports.get(3) : seed.epmdPort;
        this.nodeName = "mqttload-" + mqttPort + "@localhost";
        this.environment = environment();
        try {
            Files.createDirectories(directory.resolve("mnesia"));
            Files.createDirectories(directory.resolve("log"));
            Files.write(configFile, config(settings).getBytes(StandardCharsets.UTF_8));
            Files.write(directory.resolve("enabled_plugins"), "[rabbitmq_mqtt].\n".getBytes(StandardCharsets.UTF_8));
            // Read instead of /etc/rabbitmq/rabbitmq-env.conf, which could set NODENAME, ports or folders.
            Files.write(directory.resolve("rabbitmq-env.conf"), new byte[0]);
            if (seed != null) {
                // One cookie for the cluster; Erlang refuses a cookie file others may read.
                Path cookie = Files.copy(seed.directory.resolve(".erlang.cookie"), directory.resolve(".erlang.cookie"));
                Files.setPosixFilePermissions(cookie, EnumSet.of(PosixFilePermission.OWNER_READ));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + directory, e);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static boolean isInstalled() {
        return Files.isExecutable(script("rabbitmq-server")) && Files.isExecutable(epmdBinary());
    }

    /**
     * Fails the calling test, naming the package, when RabbitMQ or its epmd is missing (in {@code -D}{@value
     * #BIN_DIR_PROPERTY} and {@code -D}{@value #EPMD_PROPERTY} when set); see {@link SystemPackages}.
     */
    public static void requireInstalled() {
        SystemPackages.require("/usr/lib/rabbitmq/bin/rabbitmq-server", isInstalled());
    }

    private static Path script(String name) {
        return Paths.get(System.getProperty(BIN_DIR_PROPERTY, DEFAULT_BIN_DIR), name);
    }

    private static Path epmdBinary() {
        return Paths.get(System.getProperty(EPMD_PROPERTY, DEFAULT_EPMD));
    }

    public String host() {
        return FreePorts.LOOPBACK;
    }

    public int mqttPort() {
        return mqttPort;
    }

    public int amqpPort() {
        return amqpPort;
    }

    /** The Erlang node name, e.g. {@code mqttload-40123@localhost}, for {@code rabbitmqctl -n}. */
    public String nodeName() {
        return nodeName;
    }

    public Path directory() {
        return directory;
    }

    public Path configFile() {
        return configFile;
    }

    /** The operating-system process id of the node's Erlang VM ({@code beam.smp}). */
    public synchronized long pid() {
        if (!isRunning()) {
            throw new IllegalStateException("the RabbitMQ node is not running");
        }
        return beam(process).orElseThrow(() -> new IllegalStateException(
                "no beam.smp under the rabbitmq-server script, pid " + process.pid())).pid();
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * The live processes of this node: the script, the Erlang VM and its helpers, the private epmd and any
     * {@code rabbitmqctl} running for it. Empty after {@link #close()}.
     */
    public List<ProcessHandle> processes() {
        return processesMarked(directory.toString());
    }

    /** The first error lines and the last lines of the node's output, for assertion messages. */
    public String logTail() {
        if (!Files.exists(logFile)) {
            return "(no output)";
        }
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
            List<String> errors = lines.stream()
                    .filter(line -> line.contains("[error]") || line.startsWith("ERROR") || line.contains("BOOT FAILED"))
                    .limit(LOG_ERROR_LINES)
                    .collect(Collectors.toList());
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
            return errors.isEmpty() ? tail
                    : "first errors:\n" + String.join("\n", errors) + "\nlast lines:\n" + tail;
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e.getMessage() + ")";
        }
    }

    /** Starts the node on this broker's ports and waits until it is ready for MQTT clients. */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("this broker was closed; build a new one");
        }
        if (isRunning()) {
            throw new IllegalStateException("RabbitMQ is already running, script pid " + process.pid());
        }
        if (seed == null) {
            startEpmd();
        }
        long logOffset = logSize();
        Process started = launch(logFile, script("rabbitmq-server").toString());
        process = started;
        RUNNING.add(this);
        try {
            Awaitility.await("RabbitMQ node " + nodeName + " ready for MQTT on port " + mqttPort)
                    .atMost(START_TIMEOUT)
                    .pollInterval(POLL_INTERVAL)
                    .until(() -> {
                        String output = logSince(logOffset);
                        if (!started.isAlive() || output.contains(BOOT_FAILED_LINE)) {
                            throw new BrokerExitedException(output);
                        }
                        return output.contains(READY_LINE) && FreePorts.isListening(mqttPort);
                    });
        } catch (ConditionTimeoutException e) {
            stop();
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "RabbitMQ did not become ready within %d s; output:%n%s", START_TIMEOUT.getSeconds(), logTail()), e);
        } catch (BrokerExitedException e) {
            stop();
            throw new BrokerExitedException(e.portInUse, "RabbitMQ failed to start; output:\n" + logTail());
        }        if (seed != null && !joined) {
            // A fresh node joins the seed's cluster once; a restart finds the membership in its own database.
            rabbitmqctl("stop_app");
            rabbitmqctl("join_cluster", seed.nodeName());
            rabbitmqctl("start_app");
            joined = true;
            Awaitility.await("RabbitMQ node " + nodeName + " back for MQTT after joining " + seed.nodeName())
                    .atMost(START_TIMEOUT).pollInterval(POLL_INTERVAL).until(() -> FreePorts.isListening(mqttPort));
        }
    }

    /**
     * Stops the node gracefully (SIGTERM to the {@code rabbitmq-server} script, which runs the node's own shutdown),
     * or with SIGKILL if that takes too long, and waits until none of its processes is left but the private epmd.
     * The node's data stays, for {@link #start()}. Does nothing when not running.
     */
    public synchronized void stop() {
        Process stopping = process;
        if (stopping == null) {
            return;
        }
        process = null;
        try {
            stopping.destroy();
            if (!stopping.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                killNodeProcesses();
            }
            awaitNodeProcessesGone("stop");
        } catch (InterruptedException e) {
            killNodeProcesses();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping RabbitMQ", e);
        }
    }

    /**
     * SIGKILL to the node's Erlang VM, as when a broker machine dies: no graceful shutdown, clients see their TCP
     * connections reset. Waits until the node's processes are gone. {@link #start()} may bring the node back.
     */
    public synchronized void kill() {
        Process killing = process;
        if (killing == null || !killing.isAlive()) {
            throw new IllegalStateException("the RabbitMQ node is not running");
        }
        process = null;
        beam(killing).ifPresent(ProcessHandle::destroyForcibly);
        try {
            // The script exits once its wait for beam.smp returns; erl_child_setup and inet_gethost follow.
            if (!killing.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                killNodeProcesses();
            }
        } catch (InterruptedException e) {
            killNodeProcesses();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing RabbitMQ", e);
        }
        awaitNodeProcessesGone("kill");
    }

    /**
     * Runs {@code rabbitmqctl -n <node> <arguments>} against this node (e.g. {@code list_connections},
     * {@code close_all_connections "test"}) and returns its output; fails when it exits with an error.
     */
    public String rabbitmqctl(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(script("rabbitmqctl").toString());
        command.add("-n");
        command.add(nodeName);
        command.addAll(Arrays.asList(arguments));
        Path output = directory.resolve("rabbitmqctl-" + System.nanoTime() + ".out");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectInput(Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        try {
            Process ctl = builder.start();
            if (!ctl.waitFor(CTL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                ctl.descendants().forEach(ProcessHandle::destroyForcibly);
                ctl.destroyForcibly();
                throw new IllegalStateException("rabbitmqctl " + String.join(" ", arguments) + " took over "
                        + CTL_TIMEOUT.getSeconds() + " s");
            }
            String text = new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
            if (ctl.exitValue() != 0) {
                throw new IllegalStateException("rabbitmqctl " + String.join(" ", arguments) + " exited with "
                        + ctl.exitValue() + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run rabbitmqctl", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running rabbitmqctl", e);
        } finally {
            try {
                Files.deleteIfExists(output);
            } catch (IOException e) {
                // Only a scratch file in a folder that close() deletes.
            }
        }
    }

    /** Starts one of the node's processes in its directory, in its own environment, output appended to {@code log}. */
    private Process launch(Path log, String... command) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectInput(Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()));
        builder.environment().clear();
        builder.environment().putAll(environment);
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command[0], e);
        }
    }

    /** Stops the node and its epmd, kills anything of the node still alive, and deletes its folder. */
    @Override
    public synchronized void close() {
        closed = true;
        try {
            stop();
        } finally {
            try {
                stopEpmd();
                // Whatever else carries the node's marker (e.g. an epmd a node spawned if the private one had died).
                processes().forEach(ProcessHandle::destroyForcibly);
                awaitGone(this::processes, "close");
            } finally {
                RUNNING.remove(this);
                deleteDirectory();
            }
        }
    }

    private void startEpmd() {
        if (epmd != null && epmd.isAlive()) {
            return;
        }
        // In the foreground and a child of this JVM: it ends with close() or the JVM, unlike "epmd -daemon".
        Process started = launch(epmdLogFile, epmdBinary().toString(), "-port", Integer.toString(epmdPort), "-address",
                FreePorts.LOOPBACK);
        epmd = started;
        RUNNING.add(this);
        try {
            Awaitility.await("epmd listening on port " + epmdPort)
                    .atMost(EPMD_START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        if (!started.isAlive()) {
                            // epmd exits silently, with status 0, when its port is taken.
                            throw new BrokerExitedException(true, "epmd exited at once (port " + epmdPort
                                    + " taken?): " + readQuietly(epmdLogFile));
                        }
                        return FreePorts.isListening(epmdPort);
                    });
        } catch (ConditionTimeoutException e) {
            stopEpmd();
            throw new IllegalStateException("epmd did not listen on port " + epmdPort + " within "
                    + EPMD_START_TIMEOUT.getSeconds() + " s: " + readQuietly(epmdLogFile), e);
        } catch (BrokerExitedException e) {
            epmd = null;
            throw e;
        }
    }

    private void stopEpmd() {
        Process stopping = epmd;
        epmd = null;
        if (stopping != null) {
            Processes.stop(stopping, EXIT_TIMEOUT);
        }
    }

    /** The node's processes without the private epmd. */
    private List<ProcessHandle> nodeProcesses() {
        Process currentEpmd = epmd;
        long epmdPid = currentEpmd == null ? -1 : currentEpmd.pid();
        return processes().stream().filter(p -> p.pid() != epmdPid).collect(Collectors.toList());
    }

    private void killNodeProcesses() {
        nodeProcesses().forEach(ProcessHandle::destroyForcibly);
    }

    private void awaitNodeProcessesGone(String what) {
        awaitGone(this::nodeProcesses, what);
    }

    private void awaitGone(Supplier<List<ProcessHandle>> survivors, String what) {
        try {
            Awaitility.await("the processes of " + nodeName + " to end after " + what)
                    .atMost(EXIT_TIMEOUT).pollInterval(POLL_INTERVAL).until(() -> survivors.get().isEmpty());
        } catch (ConditionTimeoutException e) {
            survivors.get().forEach(ProcessHandle::destroyForcibly);
            try {
                Awaitility.await("the processes of " + nodeName + " to end after SIGKILL")
                        .atMost(EXIT_TIMEOUT).pollInterval(POLL_INTERVAL).until(() -> survivors.get().isEmpty());
            } catch (ConditionTimeoutException again) {
                throw new IllegalStateException("processes of " + nodeName + " survived SIGKILL: " + describe(survivors.get()), again);
            }
        }
    }

    /** For the shutdown hook: no locks, no waiting, SIGKILL to everything of the node. */
    private void killEverything() {
        Process script = process;
        if (script != null) {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
        }
        Process currentEpmd = epmd;
        if (currentEpmd != null) {
            currentEpmd.destroyForcibly();
        }
        processes().forEach(ProcessHandle::destroyForcibly);
    }

    private static Optional<ProcessHandle> beam(Process script) {
        return script.descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/beam.smp")).orElse(false))
                .findFirst();
    }

    private static List<ProcessHandle> processesMarked(String value) {
        byte[] marker = (MARKER_VARIABLE + "=" + value).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != self)
                .filter(p -> environmentContains(p.pid(), marker))
                .filter(RabbitMqBroker::isLive)
                .collect(Collectors.toList());
    }

    private static boolean environmentContains(long pid, byte[] entry) {
        byte[] environ;
        try {
            environ = Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "environ"));
        } catch (IOException | SecurityException e) {
            return false; // gone, or not ours
        }
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == entry.length && Arrays.equals(environ, start, i, entry, 0, entry.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /**
     * Alive and not a zombie. {@link ProcessHandle#isAlive()} is true for a zombie too: {@code inet_gethost} workers
     * outlive {@code beam.smp} by a moment, are re-parented to PID 1, and stay zombies until PID 1 reaps them, which
     * some container init processes do late.
     */
    static boolean isLive(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = new String(Files.readAllBytes(Paths.get("/proc", Long.toString(process.pid()), "stat")),
                    StandardCharsets.ISO_8859_1);
            int end = stat.lastIndexOf(')');
            char state = end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }

    private static String describe(List<ProcessHandle> processes) {
        return processes.stream()
                .map(p -> p.pid() + " " + p.info().commandLine().orElse(p.info().command().orElse("?")))
                .collect(Collectors.joining("; "));
    }

    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(key -> key.startsWith("RABBITMQ_") || key.startsWith("ERL_"));
        String dir = directory.toString();
        env.put(MARKER_VARIABLE, dir);
        env.put("HOME", dir); // Erlang reads and creates $HOME/.erlang.cookie; rabbitmqctl reads the same one.
        env.put("RABBITMQ_NODENAME", nodeName);
        env.put("RABBITMQ_USE_LONGNAME", "false");
        env.put("RABBITMQ_NODE_IP_ADDRESS", FreePorts.LOOPBACK);
        env.put("RABBITMQ_NODE_PORT", Integer.toString(amqpPort));
        env.put("RABBITMQ_DIST_PORT", Integer.toString(distributionPort));
        env.put("RABBITMQ_MNESIA_BASE", directory.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", directory.resolve("log").toString());
        env.put("RABBITMQ_CONFIG_FILE", configFile.toString());
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", directory.resolve("advanced.config").toString()); // absent
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", directory.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_CONF_ENV_FILE", directory.resolve("rabbitmq-env.conf").toString());
        // Only the private epmd; the distribution port on loopback only (it binds 0.0.0.0 otherwise).
        env.put("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", "-start_epmd false -kernel inet_dist_use_interface {127,0,0,1}");
        env.put("RABBITMQ_CTL_ERL_ARGS", "-start_epmd false -kernel inet_dist_use_interface {127,0,0,1}");
        env.put("ERL_EPMD_PORT", Integer.toString(epmdPort));
        env.put("ERL_EPMD_ADDRESS", FreePorts.LOOPBACK);
        env.put("ERL_CRASH_DUMP", directory.resolve("erl_crash.dump").toString());
        return env;
    }

    private String config(List<String> settings) {
        StringBuilder conf = new StringBuilder(512)
                .append("# Generated by ").append(RabbitMqBroker.class.getName()).append('\n')
                .append("mqtt.listeners.tcp.default = ").append(FreePorts.LOOPBACK).append(':').append(mqttPort).append('\n')
                .append("mqtt.allow_anonymous = true\n")
                .append("mqtt.default_user = guest\n")
                .append("mqtt.default_pass = guest\n")
                .append("mqtt.vhost = /\n")
                // guest may only log in from loopback by default; say so explicitly in case a client's address is not.
                .append("loopback_users = none\n")
                // The default 50 MB limit would block all publishers on a nearly full CI disk, silently.
                .append("disk_free_limit.absolute = 1MB\n")
                .append("log.console = true\n")
                .append("log.console.level = info\n")
                .append("log.console.use_colors = off\n")
                .append("log.file = false\n");
        // After the defaults: when a key appears twice, RabbitMQ uses the last value.
        for (String setting : settings) {
            conf.append(setting).append('\n');
        }
        return conf.toString();
    }

    private long logSize() {
        try {
            return Files.exists(logFile) ? Files.size(logFile) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private String logSince(long offset) {
        try {
            byte[] all = Files.exists(logFile) ? Files.readAllBytes(logFile) : new byte[0];
            int from = (int) Math.min(offset, all.length);
            return new String(all, from, all.length - from, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim() : "";
        } catch (IOException e) {
            return "(cannot read " + file + ")";
        }
    }

    private void deleteDirectory() {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            List<Path> deepestFirst = new ArrayList<>();
            paths.forEach(deepestFirst::add);
            Collections.reverse(deepestFirst);
            for (Path path : deepestFirst) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }

    public static final class Builder {
        private final List<String> settings = new ArrayList<>();
        private Path parent;
        private RabbitMqBroker seed;

        private Builder() {
        }

        /**
         * Adds one {@code rabbitmq.conf} line, e.g. {@code mqtt.prefetch = 100} or {@code mqtt.allow_anonymous = false};
         * it comes after this class's defaults, and RabbitMQ uses the last value of a key given twice.
         */
        public Builder withSetting(String line) {
            if (line.contains("\n")) {
                throw new IllegalArgumentException("one setting per call: " + line);
            }
            settings.add(line);
            return this;
        }

        /**
         * Makes the node a member of {@code seedNode}'s cluster (its epmd, its cookie, {@code rabbitmqctl
         * join_cluster}); close the members before the seed, whose epmd they use.
         */
        public Builder joining(RabbitMqBroker seedNode) {
            this.seed = seedNode;
            return this;
        }

        /** Creates the node's folder in {@code parent} (e.g. a JUnit {@code @TempDir}) instead of java.io.tmpdir. */
        public Builder inDirectory(Path parent) {
            this.parent = parent;
            return this;
        }

        /** Starts a node on free ports; retries with new ports if another process took one of them first. */
        public RabbitMqBroker start() {
            if (!isInstalled()) {
                throw new IllegalStateException("rabbitmq-server is not installed at " + script("rabbitmq-server")
                        + " or epmd at " + epmdBinary());
            }
            BrokerExitedException failure = null;
            for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
                RabbitMqBroker broker = new RabbitMqBroker(newDirectory(), FreePorts.tcpPorts(4), settings, seed);
                try {
                    broker.start();
                    return broker;
                } catch (BrokerExitedException e) {
                    broker.close();
                    failure = e;
                    if (!e.portInUse) {
                        break;
                    }
                } catch (RuntimeException e) {
                    broker.close();
                    throw e;
                }
            }
            throw failure;
        }

        private Path newDirectory() {
            try {
                return parent == null ? Files.createTempDirectory("mqttload-rabbitmq-")
                        : Files.createTempDirectory(Files.createDirectories(parent), "mqttload-rabbitmq-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a folder for RabbitMQ", e);
            }
        }
    }

    private static final class BrokerExitedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final boolean portInUse;

        BrokerExitedException(String output) {
            this(PORT_IN_USE.stream().anyMatch(output::contains), "RabbitMQ exited while starting");
        }

        BrokerExitedException(boolean portInUse, String message) {
            super(message);
            this.portInUse = portInUse;
        }
    }
}
