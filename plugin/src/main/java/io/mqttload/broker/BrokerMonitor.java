package io.mqttload.broker;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.MqttConnector;

/**
 * Samples what the broker costs, every interval, on a thread of its own: CPU, memory, descriptors and
 * threads of a local broker process from /proc, and the broker's $SYS statistics. Every problem (no such
 * process, an unreadable /proc entry, a broker without $SYS) is a warning given once; the run goes on.
 */
public final class BrokerMonitor implements AutoCloseable {
    /**
     * CPU time comes in clock ticks (10 ms): over a short span one tick more or less is a large share, so the
     * extra sample at the end of production only reports CPU when the span since the last reading is this long.
     */
    private static final double MIN_CPU_SECONDS = 0.5;
    private static final Logger log = LoggerFactory.getLogger(BrokerMonitor.class);
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** Where to find the broker. Empty / zero fields are unused. */
    public static final class Settings {
        public String name = "broker";
        public long pid;
        public String pidFile = "";
        public String processName = "";
        /** Within the element's intervalSeconds range ({@code BrokerMonitorSettings}), which checks it. */
        public long intervalMillis = 1000;
        public String sysHost = "";
        /** Read $SYS/# on sysHost. */
        public boolean sys = true;
        /** Take CPU and memory from a {@link BrokerAgent} publishing on sysHost instead of the local /proc. */
        public boolean agent;
        public int sysPort = 1883;
        /** How long to wait for a first $SYS message before warning that the broker publishes none. */
        public long sysGraceMillis = 70_000;
    }

    private final Settings settings;
    private final Consumer<BrokerSample> sink;
    private final PrintStream console;
    private final ScheduledExecutorService timer;
    private final List<BrokerSample> samples = new ArrayList<>();
    private final SysTopics sys;
    private final long startedMillis = System.currentTimeMillis();
    private long pid;
    private long lastTicks = -1;
    private long lastNanos;
    private boolean warnedProcess;
    private boolean warnedSys;

    /**
     * @param sink receives every sample (the InfluxDB writer); called on the monitor's thread
     */
    public BrokerMonitor(Settings settings, String clientId, Consumer<BrokerSample> sink, PrintStream console) {
        this(HiveMqConnector.INSTANCE, settings, clientId, sink, console);
    }

    /** As {@link #BrokerMonitor(Settings, String, Consumer, PrintStream)}, reading $SYS through {@code connector}. */
    public BrokerMonitor(MqttConnector connector, Settings settings, String clientId, Consumer<BrokerSample> sink,
            PrintStream console) {
        this.settings = settings;
        this.sink = sink;
        this.console = console;
        this.pid = resolvePid();
        SysTopics subscribed = null;
        if (!settings.sysHost.isEmpty() && (settings.sys || settings.agent)) {
            try {
                subscribed = new SysTopics(connector, settings.sysHost, settings.sysPort, clientId, 10_000, settings.sys,
                        settings.agent ? BrokerAgent.TOPIC_PREFIX + settings.name.replaceAll("[^A-Za-z0-9_.-]", "_") : null);
            } catch (IllegalStateException e) {
                warn("broker statistics unavailable: " + e.getMessage());
                warnedSys = true;
            }
        }
        this.sys = subscribed;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mqttload-broker-monitor-" + settings.name);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, 0, settings.intervalMillis, TimeUnit.MILLISECONDS);
    }

    private long resolvePid() {
        try {
            if (settings.pid > 0) {
                return settings.pid;
            }
            if (!settings.pidFile.isEmpty()) {
                String text = new String(Files.readAllBytes(Path.of(settings.pidFile)), StandardCharsets.US_ASCII).trim();
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    warn("pidFile '" + settings.pidFile + "' holds '" + text + "', not a process id: no CPU or memory figures");
                    return 0;
                }
            }
            if (!settings.processName.isEmpty()) {
                List<Long> found = ProcessStats.findByName(settings.processName);
                if (found.isEmpty()) {
                    warn("no local process named '" + settings.processName + "': no CPU or memory figures"
                            + " (a remote broker needs the monitor's agent mode next to it)");
                    return 0;
                }
                if (found.size() > 1) {
                    warn(found.size() + " processes named '" + settings.processName + "' " + found
                            + ": monitoring the first, " + found.get(0) + "; give its pid to choose another");
                }
                return found.get(0);
            }
        } catch (IOException e) {
            warn("cannot find the broker process: " + e.getMessage());
        }
        return 0;
    }

    private void sample() {
        try {
            long now = System.currentTimeMillis();
            double cpu = Double.NaN;
            long rss = -1;
            int fds = -1;
            int sockets = -1;
            int threads = -1;
            SysTopics.AgentReading agentReading = sys == null || !settings.agent ? null
                    : sys.agentReading(3 * settings.intervalMillis);
            if (agentReading != null) {
                cpu = agentReading.cpuPercentOfCore;
                rss = agentReading.rssBytes;
                fds = agentReading.openFds;
                sockets = agentReading.sockets;
                threads = agentReading.threads;
            } else if (settings.agent && !warnedProcess && now - startedMillis > 5 * settings.intervalMillis) {
                warnedProcess = true;
                warn("no sample from the broker agent on " + BrokerAgent.TOPIC_PREFIX + settings.name + " at "
                        + settings.sysHost + ":" + settings.sysPort + ": is the agent running with --name " + settings.name + "?");
            }
            if (pid > 0) {
                try {
                    ProcessStats s = ProcessStats.read(pid);
                    long nanos = System.nanoTime();
                    double seconds = (nanos - lastNanos) / 1e9;
                    if (lastTicks < 0) {
                        lastTicks = s.cpuTicks;
                        lastNanos = nanos;
                    } else if (seconds >= MIN_CPU_SECONDS) {
                        cpu = ProcessStats.cpuPercentOfCore(lastTicks, s.cpuTicks, seconds);
                        lastTicks = s.cpuTicks;
                        lastNanos = nanos;
                    }
                    rss = s.rssBytes;
                    fds = s.openFds;
                    sockets = s.sockets;
                    threads = s.threads;
                } catch (IOException | RuntimeException e) {
                    if (!warnedProcess) {
                        warnedProcess = true;
                        warn("broker process " + pid + ": " + e.getMessage());
                    }
                }
            }
            Map<String, Double> sysValues = sys == null ? Map.of() : sys.snapshot();
            if (settings.sys && sys != null && !sys.heardAnything() && !warnedSys && now - startedMillis > settings.sysGraceMillis) {
                warnedSys = true;
                warn("no $SYS message from " + settings.sysHost + ":" + settings.sysPort + " within "
                        + settings.sysGraceMillis / 1000 + " s: this broker publishes no $SYS statistics, or denies them");
            }
            if (Double.isNaN(cpu) && rss < 0 && sysValues.isEmpty()) {
                return;
            }
            double ofMachine = agentReading != null ? agentReading.cpuPercentOfMachine : cpu / CORES;
            BrokerSample sample = new BrokerSample(now, cpu, ofMachine, rss, fds, sockets, threads, sysValues);
            synchronized (samples) {
                samples.add(sample);
            }
            sink.accept(sample);
        } catch (RuntimeException e) {
            log.warn("MQTT broker monitor '{}': a sample failed: {}", settings.name, e.toString());
        }
    }

    private void warn(String text) {
        String line = "MQTT broker monitor '" + settings.name + "': " + text;
        log.warn(line);
        console.println(line);
    }

    public String name() {
        return settings.name;
    }

    public List<BrokerSample> samples() {
        synchronized (samples) {
            return new ArrayList<>(samples);
        }
    }

    /**
     * CPU and memory between {@code fromMillis} and {@code toMillis} (the steady phase: production after the
     * warm-up, before the drain), as the seeds report them; null when no sample there has them.
     */
    public Stats stats(long fromMillis, long toMillis) {
        double cpuSum = 0;
        double cpuMax = 0;
        long rssSum = 0;
        long rssMax = 0;
        int cpuCount = 0;
        int rssCount = 0;
        for (BrokerSample s : samples()) {
            if (s.timeMillis < fromMillis || s.timeMillis > toMillis) {
                continue;
            }
            if (!Double.isNaN(s.cpuPercentOfCore)) {
                cpuSum += s.cpuPercentOfCore;
                cpuMax = Math.max(cpuMax, s.cpuPercentOfCore);
                cpuCount++;
            }
            if (s.rssBytes >= 0) {
                rssSum += s.rssBytes;
                rssMax = Math.max(rssMax, s.rssBytes);
                rssCount++;
            }
        }
        if (cpuCount == 0 && rssCount == 0) {
            return null;
        }
        return new Stats(settings.name, cpuCount == 0 ? Double.NaN : cpuSum / cpuCount, cpuCount == 0 ? Double.NaN : cpuMax,
                rssCount == 0 ? -1 : rssSum / rssCount, rssCount == 0 ? -1 : rssMax, cpuCount);
    }

    /** The seeds' broker columns: CPU average and maximum (% of one core), memory average and maximum. */
    public static final class Stats {
        public final String broker;
        public final double cpuAvg;
        public final double cpuMax;
        public final long rssAvg;
        public final long rssMax;
        public final int samples;

        @JsonCreator
        Stats(@JsonProperty("broker") String broker, @JsonProperty("cpuAvg") double cpuAvg,
                @JsonProperty("cpuMax") double cpuMax, @JsonProperty("rssAvg") long rssAvg,
                @JsonProperty("rssMax") long rssMax, @JsonProperty("samples") int samples) {
            this.broker = broker;
            this.cpuAvg = cpuAvg;
            this.cpuMax = cpuMax;
            this.rssAvg = rssAvg;
            this.rssMax = rssMax;
            this.samples = samples;
        }
    }

    /**
     * Takes one more sample now, on the monitor's thread, and returns its time: the end of production closes
     * the measured window with a reading, so a window shorter than the interval still has one.
     */
    public long sampleNow(long timeoutMillis) {
        try {
            timer.submit(this::sample).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            warn("no broker sample at the end of production: " + e);
        }
        return System.currentTimeMillis();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sys != null) {
            sys.close();
        }
    }
}
