package io.mqttload.jmeter.remote;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.jmeter.util.JMeterUtils;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.SettingText;
import io.mqttload.jmeter.run.MqttElements;

/**
 * Watches, from the controller, that the engines of a distributed run are still there. JMeter has no heartbeat:
 * a controller whose engine was killed waits for that engine's end of test forever. A {@code jmeter-server}
 * holds its RMI registry in its own process, so when the registry's port refuses connections (or does not
 * answer), the engine is gone. Two failed probes in a row, {@code mqttload.engineCheckSeconds} apart (default 5),
 * declare it gone.
 */
public final class EngineWatch implements AutoCloseable {
    static final String CHECK_SECONDS = "mqttload.engineCheckSeconds";
    private static final long DEFAULT_CHECK_SECONDS = 5;
    private static final int FAILED_PROBES_TO_DECLARE_GONE = 2;
    private static final int PROBE_TIMEOUT_MILLIS = 2_000;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** An engine found gone: its host as the controller names it, and what was seen. */
    public static final class Gone {
        public final String host;
        final String why;
        final LocalTime at;

        Gone(String host, String why) {
            this.host = host;
            this.why = why;
            this.at = LocalTime.now().truncatedTo(ChronoUnit.SECONDS);
        }

        public String describe() {
            return host + " (gone at " + TIME.format(at) + ": " + why + ")";
        }
    }

    private final ScheduledExecutorService probes;
    private final Map<String, Integer> failures = new HashMap<>();

    private EngineWatch(ScheduledExecutorService probes) {
        this.probes = probes;
    }

    /** Probes the engines {@code running} names at each round and tells {@code onGone} of each found gone, once. */
    public static EngineWatch start(Supplier<List<String>> running, Consumer<Gone> onGone) {
        long seconds = DEFAULT_CHECK_SECONDS;
        try {
            seconds = SettingText.parseLong(CHECK_SECONDS, JMeterUtils.getPropDefault(CHECK_SECONDS, "5"), 1, 3_600);
        } catch (InvalidSettingException e) {
            MqttElements.reportInvalid("engine properties (the controller checks every " + seconds + " s instead)", e);
        }
        ScheduledExecutorService probes = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mqttload-engine-watch");
            t.setDaemon(true);
            return t;
        });
        EngineWatch watch = new EngineWatch(probes);
        probes.scheduleWithFixedDelay(() -> watch.probe(running.get(), onGone), seconds, seconds, TimeUnit.SECONDS);
        return watch;
    }

    private void probe(List<String> running, Consumer<Gone> onGone) {
        for (String host : running) {
            String problem = reachable(host);
            if (problem == null) {
                failures.remove(host);
                continue;
            }
            int n = failures.merge(host, 1, Integer::sum);
            if (n == FAILED_PROBES_TO_DECLARE_GONE) {
                onGone.accept(new Gone(host, problem));
            }
        }
    }

    /** An engine as {@code -R} names it, host and registry port (JMeter's {@code server_port} when not given). */
    static InetSocketAddress registryAddress(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon > 0 && hostAndPort.substring(colon + 1).matches("\\d{1,5}")) {
            return InetSocketAddress.createUnresolved(hostAndPort.substring(0, colon),
                    Integer.parseInt(hostAndPort.substring(colon + 1)));
        }
        return InetSocketAddress.createUnresolved(hostAndPort, JMeterUtils.getPropDefault("server_port", 1099));
    }

    /** Null when the engine's RMI registry port accepts a connection, else what went wrong. */
    static String reachable(String hostAndPort) {
        InetSocketAddress registry = registryAddress(hostAndPort);
        String host = registry.getHostString();
        int port = registry.getPort();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), PROBE_TIMEOUT_MILLIS);
            return null;
        } catch (IOException e) {
            return "its RMI port " + port + " does not answer: " + e.getMessage();
        }
    }

    /** Stops watching. */
    @Override
    public void close() {
        probes.shutdownNow();
    }
}
