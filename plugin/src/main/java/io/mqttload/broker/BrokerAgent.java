package io.mqttload.broker;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.mqttload.client.ControlClient;
import io.mqttload.common.PluginVersion;

/**
 * The broker monitor's agent mode, for a broker on another host (or in a container): runs next to the
 * broker, reads its process from /proc every interval and publishes each sample over MQTT on
 * {@code mqttload/broker/<name>}, where an MQTT Broker Monitor with {@code agent = true} picks them
 * up into the run. Runs until stopped; needs only the plugin jar (picocli is shaded into it; the sample is
 * a handful of numbers, written without a JSON library because JMeter's lib/ is not there):
 *
 * <pre>java -cp mqtt-load-jmeter.jar io.mqttload.broker.BrokerAgent --process mosquitto --name node1 \
 *     --mqtt-host 127.0.0.1 --mqtt-port 1883 [--interval 1] [--pid N | --pid-file F]</pre>
 */
@Command(name = "BrokerAgent", mixinStandardHelpOptions = true, versionProvider = PluginVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Samples a broker process's CPU and memory from /proc and publishes them over MQTT on"
                + " mqttload/broker/<name>, for an MQTT Broker Monitor with agent = true. Runs until stopped (SIGTERM).",
        footer = {"", "Exit code: 0 stopped, 1 the process or the MQTT broker could not be reached, 2 bad arguments."})
public final class BrokerAgent implements Callable<Integer> {
    public static final String TOPIC_PREFIX = "mqttload/broker/";
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** How long the agent tries to make its first connection before it gives up. */
    private static final long FIRST_CONNECT_MILLIS = 30_000;

    /** Exactly one way to find the broker process. */
    static final class ProcessChoice {
        @Option(names = "--process", paramLabel = "NAME", required = true,
                description = "the broker process's name (the first match of /proc/*/comm)")
        String process;
        @Option(names = "--pid", paramLabel = "N", required = true, description = "the broker's process id")
        Long pid;
        @Option(names = "--pid-file", paramLabel = "FILE", required = true, description = "a file holding the process id")
        Path pidFile;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    ProcessChoice processChoice;
    @Option(names = "--name", paramLabel = "NAME", description = "the broker's name in the run (default: ${DEFAULT-VALUE})")
    String name = "broker";
    @Option(names = "--mqtt-host", paramLabel = "HOST", description = "the broker to publish to (default: ${DEFAULT-VALUE})")
    String mqttHost = "127.0.0.1";
    @Option(names = "--mqtt-port", paramLabel = "PORT", description = "its port (default: ${DEFAULT-VALUE})")
    int mqttPort = 1883;
    @Option(names = "--interval", paramLabel = "SECONDS", description = "seconds between samples (default: ${DEFAULT-VALUE})")
    long intervalSeconds = 1;
    @Option(names = "--count", paramLabel = "N", description = "stop after N samples; 0 runs until stopped (default)")
    long count;
    private PrintStream out = System.out;

    public static void main(String[] args) {
        System.exit(commandLine(System.out).execute(args));
    }

    static CommandLine commandLine(PrintStream out) {
        BrokerAgent agent = new BrokerAgent();
        agent.out = out;
        CommandLine command = new CommandLine(agent);
        command.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("broker agent: " + e.getMessage().replaceFirst("^Error: ", ""));
            e.getCommandLine().getErr().println("broker agent: --help lists the options");
            return 2;
        });
        return command;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (mqttPort < 1 || mqttPort > 65_535) {
            out.println("broker agent: --mqtt-port '" + mqttPort + "': not a port (1..65535)");
            return 2;
        }
        if (intervalSeconds < 1 || count < 0) {
            out.println("broker agent: --interval '" + intervalSeconds + "' and --count '" + count
                    + "': the interval is at least 1 s and the count not negative");
            return 2;
        }
        return run(out);
    }

    /** Samples and publishes until stopped, or {@code --count} samples (for tests); returns the exit code. */
    private int run(PrintStream out) throws InterruptedException {
        long pid;
        try {
            pid = pid();
        } catch (IOException | IllegalArgumentException e) {
            out.println("broker agent: " + e.getMessage());
            return 1;
        }
        String topic = TOPIC_PREFIX + name.replaceAll("[^A-Za-z0-9_.-]", "_");
        long intervalMillis = intervalSeconds * 1000;
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "broker-agent-stop"));
        ControlClient client = connect("agent-" + Integer.toHexString((name + pid).hashCode()), stop, out);
        if (client == null) {
            return 1;
        }
        out.println("broker agent: sampling process " + pid + " every " + intervalMillis / 1000 + " s to " + topic);
        long lastTicks = -1;
        long lastNanos = 0;
        long sent = 0;
        while (count == 0 || sent < count) {
            ProcessStats s;
            try {
                s = ProcessStats.read(pid);
            } catch (IOException e) {
                out.println("broker agent: " + e.getMessage());
                client.close(5_000);
                return 1;
            }
            long nanos = System.nanoTime();
            if (lastTicks >= 0) {
                double cpu = ProcessStats.cpuPercentOfCore(lastTicks, s.cpuTicks, (nanos - lastNanos) / 1e9);
                String json = String.format(Locale.ROOT, "{\"timeMillis\": %d, \"cpuPercentOfCore\": %.3f,"
                        + " \"cpuPercentOfMachine\": %.3f, \"rssBytes\": %d, \"openFds\": %d, \"sockets\": %d,"
                        + " \"threads\": %d}", System.currentTimeMillis(), cpu, cpu / CORES, s.rssBytes, s.openFds,
                        s.sockets, s.threads);
                client.publish(topic, json.getBytes(StandardCharsets.UTF_8), 0, false);
                sent++;
            }
            lastTicks = s.cpuTicks;
            lastNanos = nanos;
            if (stop.await(intervalMillis, TimeUnit.MILLISECONDS)) {
                break;
            }
        }
        String disconnect = client.close(5_000);
        if (disconnect != null) {
            out.println("broker agent: disconnect: " + disconnect);
        }
        return 0;
    }

    /**
     * Connects, retrying for up to {@link #FIRST_CONNECT_MILLIS}: an agent is often started with its broker, which may
     * not listen yet. Once connected it reconnects for as long as it runs, as the broker it watches may restart.
     * Returns null (having said why) when no connection came in time or the agent was stopped meanwhile.
     */
    private ControlClient connect(String clientId, CountDownLatch stop, PrintStream out) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FIRST_CONNECT_MILLIS);
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                return ControlClient.connect(clientId, mqttHost, mqttPort, Math.max(1, left), () -> { }, null);
            } catch (IllegalStateException e) {
                if (System.nanoTime() - deadline >= 0) {
                    out.println("broker agent: " + e.getMessage() + " (tried for " + FIRST_CONNECT_MILLIS / 1000 + " s)");
                    return null;
                }
            }
            if (stop.await(Math.min(1_000, Math.max(1, left)), TimeUnit.MILLISECONDS)) {
                return null;
            }
        }
    }

    private long pid() throws IOException {
        if (processChoice.pid != null) {
            return processChoice.pid;
        }
        if (processChoice.pidFile != null) {
            String text = new String(Files.readAllBytes(processChoice.pidFile), StandardCharsets.US_ASCII).trim();
            if (!text.matches("\\d+")) {
                throw new IllegalArgumentException("--pid-file " + processChoice.pidFile + " holds '" + text
                        + "', not a process id");
            }
            return Long.parseLong(text);
        }
        List<Long> found = ProcessStats.findByName(processChoice.process);
        if (found.isEmpty()) {
            throw new IllegalArgumentException("--process '" + processChoice.process + "': no process of that name");
        }
        return found.get(0);
    }
}
