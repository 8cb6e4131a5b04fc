package io.mqttload.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.mqttload.engine.RunConfig;

/**
 * One local {@code jmeter-server} that runs every step of a sweep or search ({@code --warm-engine}): started once
 * before the first step, so its JIT-compiled code, loaded classes and sized heap carry over and no step pays (or
 * measures as load on the machine) a fresh JVM's compilation; each step is then a controller run against it, as
 * with {@code --remote}. RMI over SSL with a key pair made for this engine alone (as {@code engines.sh start}),
 * so that no other local user can hand it a plan; it listens on loopback only. Stopped by PID at the end, and by a
 * shutdown hook when the sweep is interrupted: it never outlives the sweep.
 */
final class WarmEngine implements AutoCloseable {
    static final String HOST = "127.0.0.1";
    static final String ENGINE_ID = "warm-engine";
    private static final long READY_SECONDS = 60;
    private static final long STOP_SECONDS = 15;

    private final Process process;
    private final int registryPort;
    /** The RMI settings and keystore password: read by the engine and every step's controller with -q. */
    final Path rmiProperties;
    final Path log;
    private final Path dir;
    private final PrintStream console;
    private final Thread hook;

    private WarmEngine(Process process, int registryPort, Path dir, PrintStream console) {
        this.process = process;
        this.registryPort = registryPort;
        this.rmiProperties = dir.resolve("rmi.properties");
        this.log = dir.resolve("engine.log");
        this.dir = dir;
        this.console = console;
        this.hook = new Thread(this::kill, "warm-engine-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The engine's PID, on this machine: what the steps' broker monitor and settle need not be confused with. */
    long pid() {
        return process.pid();
    }

    /** {@code host:port} of the engine's RMI registry, for the controller's {@code -R}. */
    String address() {
        return HOST + ":" + registryPort;
    }

    /**
     * Starts the engine in {@code dir} (keystore, properties, log) with the JVM settings the steps would have had,
     * and waits (bounded) until it has bound its registry.
     */
    static WarmEngine start(SweepOptions o, Path jar, Path dir, PrintStream console)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String password = new BigInteger(128, new SecureRandom()).toString(16);
        Path keystore = dir.resolve("rmi_keystore.jks");
        keystore(keystore, password, dir);
        int registry = freePort();
        int object = freePort();
        Path rmi = dir.resolve("rmi.properties");
        Files.createFile(rmi, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(rmi, String.join("\n", "# Written by the sweep for its warm engine; read by it and the steps' controllers.",
                "client.rmi.localport=0", "server.rmi.ssl.keystore.file=" + keystore,
                "server.rmi.ssl.keystore.password=" + password, "server.rmi.ssl.keystore.alias=rmi",
                "server.rmi.ssl.truststore.file=" + keystore, "server.rmi.ssl.truststore.password=" + password, ""),
                StandardCharsets.UTF_8);
        Path log = dir.resolve("engine.log");
        List<String> c = new ArrayList<>();
        c.add(java("java"));
        // The JVM settings a local step would have had: the engine runs what the steps would.
        c.addAll(Sweep.jvmSettings(o, jar));
        c.addAll(List.of("-Djava.rmi.server.hostname=" + HOST, "-jar", jar.toString(), "-s", "-j", log.toString(), "-q",
                rmi.toString(), "-Jserver_port=" + registry, "-Jserver.rmi.localport=" + object,
                "-J" + RunConfig.ENGINE_ID + "=" + ENGINE_ID));
        Files.writeString(dir.resolve("command.txt"), String.join(" ", c) + "\n", StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(c).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("engine.out").toFile()).redirectInput(ProcessBuilder.Redirect.from(
                        Path.of("/dev/null").toFile())).start();
        WarmEngine engine = new WarmEngine(p, registry, dir, console);
        String ready = "Bound to RMI registry on port " + registry;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
        while (!contains(log, ready)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String why = p.isAlive() ? "not ready within " + READY_SECONDS + " s" : "exited with " + p.exitValue();
                engine.close();
                throw new IOException("--warm-engine: the local engine " + why + "; see " + dir.resolve("engine.out")
                        + " and " + log);
            }
            // The engine writes its readiness line once; polling its log is how engines.sh waits for it too.
            p.waitFor(200, TimeUnit.MILLISECONDS);
        }
        console.printf(Locale.ROOT, "warm engine: pid %d, %s (SSL), log %s%n", p.pid(), engine.address(), log);
        return engine;
    }

    private static void keystore(Path file, String password, Path dir) throws IOException, InterruptedException {
        // As engines.sh keystore: JMeter's bin/create-rmi-keystore.sh, with -dname so that it does not prompt.
        Process k = new ProcessBuilder(java("keytool"), "-genkeypair", "-keyalg", "RSA", "-keysize", "2048", "-alias",
                "rmi", "-validity", "7", "-dname", "CN=JMeter RMI, OU=mqtt-load warm engine", "-keystore",
                file.toString(), "-storepass", password).redirectErrorStream(true)
                .redirectOutput(dir.resolve("keytool.out").toFile()).start();
        if (!k.waitFor(READY_SECONDS, TimeUnit.SECONDS)) {
            k.destroyForcibly();
            throw new IOException("--warm-engine: keytool did not finish within " + READY_SECONDS + " s");
        }
        if (k.exitValue() != 0) {
            throw new IOException("--warm-engine: keytool exited with " + k.exitValue() + "; see "
                    + dir.resolve("keytool.out"));
        }
    }

    private static String java(String tool) {
        return Path.of(System.getProperty("java.home"), "bin", tool).toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

    private static boolean contains(Path log, String line) throws IOException {
        return Files.isRegularFile(log) && Files.readString(log, StandardCharsets.ISO_8859_1).contains(line);
    }

    /**
     * This engine while it is up; else, said so, a new one as this one was started: a dead engine would fail every
     * step that follows for the same reason.
     */
    WarmEngine orAnother(SweepOptions o, Path jar) throws IOException, InterruptedException {
        if (process.isAlive()) {
            return this;
        }
        console.printf(Locale.ROOT, "warm engine: pid %d is gone (exited, or stopped with a timed-out step); starting"
                + " another (its log: %s)%n", pid(), log);
        close();
        // A directory of its own: the readiness line of this engine's log must not be taken for the new one's.
        return start(o, jar, dir.resolveSibling(dir.getFileName() + "-after-" + pid()), console);
    }

    /**
     * The unmeasured run before the first step: the first step's properties for --engine-warm-up seconds, all of them
     * warm-up, so that what a fresh engine compiles and loads at its first run is paid there.
     */
    static SweepOptions.Step warmUpStep(SweepOptions o, SweepOptions.Step first) {
        Map<String, String> properties = new LinkedHashMap<>(first.properties);
        properties.put(o.capacity.durationProperty, Long.toString(o.engineWarmUpSeconds));
        properties.put(RunConfig.WARMUP_SECONDS, Long.toString(o.engineWarmUpSeconds));
        return new SweepOptions.Step("warm-up", properties);
    }

    /** SIGTERM, SIGKILL after a grace period; bounded either way. */
    @Override
    public void close() {
        kill();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Already shutting down: the hook is running or has run; nothing more to undo.
        }
    }

    private void kill() {
        if (!process.isAlive()) {
            return;
        }
        console.printf(Locale.ROOT, "warm engine: stopping pid %d%n", pid());
        process.destroy();
        try {
            process.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            process.onExit().orTimeout(STOP_SECONDS, TimeUnit.SECONDS).exceptionally(x -> process).join();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
