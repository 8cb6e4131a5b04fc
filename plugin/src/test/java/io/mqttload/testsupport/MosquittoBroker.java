package io.mqttload.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * An Eclipse Mosquitto 2.x process listening on 127.0.0.1 with anonymous access, persistence off unless asked. It can be
 * {@link #stop() stopped} and {@link #start() started} again on the same ports, to test what a load test does
 * when its broker goes away.
 *
 * <pre>{@code
 * try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 100000").start()) {
 *     connect(broker.host(), broker.tcpPort());
 * }
 * }</pre>
 */
public final class MosquittoBroker implements AutoCloseable {
    /** Overrides the executable, e.g. on a developer machine where mosquitto is not in /usr/sbin. */
    public static final String BINARY_PROPERTY = "mqttload.mosquitto";
    public static final String DEFAULT_BINARY = "/usr/sbin/mosquitto";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final int START_ATTEMPTS = 3;
    private static final int LOG_TAIL_LINES = 40;
    // A test JVM that dies without close() must not leave brokers running on the machine.
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
                "mosquitto-test-broker-reaper"));
    }

    private final Path directory;
    private final Path configFile;
    private final Path logFile;
    private final int tcpPort;
    private final int webSocketPort;
    /** Bridge sections, written after the listeners. */
    private final List<String> bridges;
    /** Seconds between mosquitto's saves of its persistence database; -1: no persistence. */
    private final int autosaveSeconds;
    private Process process;
    private boolean closed;

    private MosquittoBroker(Path directory, int tcpPort, int webSocketPort, List<String> settings, List<String> bridges,
            int autosaveSeconds) {
        this.autosaveSeconds = autosaveSeconds;
        this.bridges = List.copyOf(bridges);
        this.directory = directory;
        this.configFile = directory.resolve("mosquitto.conf");
        this.logFile = directory.resolve("mosquitto.log");
        this.tcpPort = tcpPort;
        this.webSocketPort = webSocketPort;
        try {
            Files.write(configFile, config(settings).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + configFile, e);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static boolean isInstalled() {
        return Files.isExecutable(binary());
    }

    /**
     * Fails the calling test, naming the package, when mosquitto is missing (at {@code -D}{@value #BINARY_PROPERTY} when
     * set); see {@link SystemPackages}.
     */
    public static void requireInstalled() {
        SystemPackages.require(DEFAULT_BINARY, isInstalled());
    }

    private static Path binary() {
        return Paths.get(System.getProperty(BINARY_PROPERTY, DEFAULT_BINARY));
    }

    public String host() {
        return FreePorts.LOOPBACK;
    }

    public int tcpPort() {
        return tcpPort;
    }

    public int webSocketPort() {
        if (webSocketPort < 0) {
            throw new IllegalStateException("this broker was built without withWebSocket()");
        }
        return webSocketPort;
    }

    /** The operating-system process id of the running broker. */
    public synchronized long pid() {
        if (!isRunning()) {
            throw new IllegalStateException("mosquitto is not running");
        }
        return process.pid();
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public Path configFile() {
        return configFile;
    }

    /** The last lines mosquitto wrote to stdout and stderr, for assertion messages. */
    public String logTail() {
        if (!Files.exists(logFile)) {
            return "(no output)";
        }
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e.getMessage() + ")";
        }
    }

    /** Everything mosquitto wrote to stdout and stderr since it was built (its log, with the settings' log types). */
    public String log() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + logFile, e);
        }
    }

    /** Starts mosquitto on this broker's ports and waits until they accept connections. */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("this broker was closed; build a new one");
        }
        if (isRunning()) {
            throw new IllegalStateException("mosquitto is already running as pid " + process.pid());
        }
        ProcessBuilder command = new ProcessBuilder(binary().toString(), "-c", configFile.toString())
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(logFile.toFile()));
        try {
            process = command.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + binary(), e);
        }
        RUNNING.add(process);
        Process started = process;
        try {
            Awaitility.await("mosquitto accepting connections on port " + tcpPort)
                    .atMost(START_TIMEOUT)
                    .pollInterval(POLL_INTERVAL)
                    .until(() -> {
                        if (!started.isAlive()) {
                            throw new BrokerExitedException(started.exitValue());
                        }
                        return FreePorts.isListening(tcpPort) && (webSocketPort < 0 || FreePorts.isListening(webSocketPort));
                    });
        } catch (ConditionTimeoutException e) {
            stop();
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "mosquitto did not accept connections within %d s; output:%n%s",
                    START_TIMEOUT.getSeconds(), logTail()), e);
        } catch (BrokerExitedException e) {
            RUNNING.remove(started);
            process = null;
            throw new BrokerExitedException(e.exitCode, logTail());
        }
    }

    /** SIGTERM, then SIGKILL if mosquitto has not exited after a while. Does nothing when not running. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        Process stopping = process;
        process = null;
        boolean exited = Processes.stop(stopping, STOP_TIMEOUT);
        if (exited) {
            RUNNING.remove(stopping);
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("interrupted while stopping mosquitto pid " + stopping.pid());
        }
        if (!exited) {
            throw new IllegalStateException("mosquitto pid " + stopping.pid() + " survived SIGKILL");
        }
    }

    /** SIGKILL: mosquitto ends without saving what its persistence database has not saved yet. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        Process killed = process;
        process = null;
        killed.destroyForcibly();
        try {
            if (!killed.waitFor(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("mosquitto pid " + killed.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing mosquitto pid " + killed.pid(), e);
        }
        RUNNING.remove(killed);
    }

    /** The persistence database mosquitto writes when it saves (persistence on). */
    public Path persistenceFile() {
        return directory.resolve("mosquitto.db");
    }

    /**
     * SIGUSR1: mosquitto saves its persistence database now. It writes a new file and renames it over the old one, so
     * a caller waits for {@link #persistenceFile()}'s modification time to change.
     */
    public synchronized void savePersistence() {
        if (process == null) {
            throw new IllegalStateException("mosquitto is not running");
        }
        try {
            Process signal = new ProcessBuilder("kill", "-USR1", Long.toString(process.pid())).start();
            if (!signal.waitFor(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                    || signal.exitValue() != 0) {
                throw new IllegalStateException("kill -USR1 " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling mosquitto", e);
        }
    }

    /** Stops mosquitto and deletes its configuration and log. */
    @Override
    public synchronized void close() {
        closed = true;
        try {
            stop();
        } finally {
            deleteDirectory();
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

    private String config(List<String> settings) {
        StringBuilder conf = new StringBuilder(512)
                .append("# Generated by ").append(MosquittoBroker.class.getName()).append('\n')
                .append("per_listener_settings false\n")
                .append("allow_anonymous true\n")
                .append(autosaveSeconds < 0 ? "persistence false\n" : String.format(Locale.ROOT,
                        "persistence true%npersistence_location %s/%nautosave_interval %d%n", directory, autosaveSeconds))
                .append("log_dest stderr\n")
                .append("log_type error\n")
                .append("log_type warning\n")
                // Mosquitto 2.0 leaves Nagle on: a PUBACK may then wait ~40 ms and latency tests would measure that.
                .append("set_tcp_nodelay true\n");
        // Before the listener lines: a listener-scoped option written after them would bind to the last one.
        for (String setting : settings) {
            conf.append(setting).append('\n');
        }
        conf.append(String.format(Locale.ROOT, "listener %d %s%n", tcpPort, FreePorts.LOOPBACK));
        if (webSocketPort >= 0) {
            conf.append(String.format(Locale.ROOT, "listener %d %s%nprotocol websockets%n", webSocketPort,
                    FreePorts.LOOPBACK));
        }
        // Bridge sections last: every line after "connection" belongs to that bridge.
        for (String line : bridges) {
            conf.append(line).append('\n');
        }
        return conf.toString();
    }

    public static final class Builder {
        private boolean webSocket;
        private int autosaveSeconds = -1;
        private final List<String> settings = new ArrayList<>();
        private final List<String> bridges = new ArrayList<>();

        private Builder() {
        }

        /** Adds a second listener speaking MQTT over WebSocket. */
        public Builder withWebSocket() {
            webSocket = true;
            return this;
        }

        /**
         * Persistence on, in the broker's own folder, kept across {@link #stop()}/{@link #kill()} and {@link #start()}:
         * sessions and queued messages outlive a restart as far as mosquitto saved them, at a graceful stop, on
         * {@link #savePersistence()} and every {@code autosaveSeconds}.
         */
        public Builder withPersistence(int autosaveSeconds) {
            this.autosaveSeconds = autosaveSeconds;
            return this;
        }

        /** Adds one mosquitto.conf line, e.g. {@code max_inflight_messages 0} or {@code set_tcp_nodelay true}. */
        public Builder withSetting(String line) {
            if (line.contains("\n")) {
                throw new IllegalArgumentException("one setting per call: " + line);
            }
            settings.add(line);
            return this;
        }

        /**
         * Bridges this node to {@code upstream} (a broker cluster's child forwarding to its root), MQTT 3.1.1 with
         * {@code try_private} so the upstream does not echo messages back; {@code topics} as mosquitto writes them,
         * e.g. {@code cl/# both 1}.
         */
        public Builder withBridge(String name, MosquittoBroker upstream, String... topics) {
            bridges.add("connection " + name);
            bridges.add("address " + upstream.host() + ":" + upstream.tcpPort());
            bridges.add("remote_clientid bridge-" + name);
            bridges.add("bridge_protocol_version mqttv311");
            bridges.add("try_private true");
            bridges.add("cleansession true");
            bridges.add("notifications false");
            bridges.add("restart_timeout 1");
            for (String topic : topics) {
                bridges.add("topic " + topic);
            }
            return this;
        }

        /** Starts mosquitto on free ports; retries with new ports if another process took them first. */
        public MosquittoBroker start() {
            if (!isInstalled()) {
                throw new IllegalStateException("mosquitto is not installed at " + binary());
            }
            BrokerExitedException failure = null;
            for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
                List<Integer> ports = FreePorts.tcpPorts(2);
                MosquittoBroker broker = new MosquittoBroker(newDirectory(autosaveSeconds >= 0), ports.get(0),
                        webSocket ? ports.get(1) : -1, settings, bridges, autosaveSeconds);
                try {
                    broker.start();
                    return broker;
                } catch (BrokerExitedException e) {
                    broker.close();
                    failure = e;
                    if (!e.getMessage().contains("Address already in use")) {
                        break;
                    }
                } catch (RuntimeException e) {
                    broker.close();
                    throw e;
                }
            }
            throw failure;
        }

        /** A new folder; {@code sharedWithBroker}: writable by all, as mosquitto started as root drops to its own user. */
        private static Path newDirectory(boolean sharedWithBroker) {
            try {
                Path directory = Files.createTempDirectory("mqttload-mosquitto-");
                if (sharedWithBroker) {
                    Files.setPosixFilePermissions(directory, java.nio.file.attribute.PosixFilePermissions.fromString(
                            "rwxrwxrwx"));
                }
                return directory;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary folder for mosquitto", e);
            }
        }
    }

    private static final class BrokerExitedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final int exitCode;

        BrokerExitedException(int exitCode) {
            super("mosquitto exited with code " + exitCode);
            this.exitCode = exitCode;
        }

        BrokerExitedException(int exitCode, String output) {
            super("mosquitto exited with code " + exitCode + " while starting; output:\n" + output);
            this.exitCode = exitCode;
        }
    }
}
