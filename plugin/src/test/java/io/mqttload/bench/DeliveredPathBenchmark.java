package io.mqttload.bench;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jorphan.collections.HashTree;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

import io.mqttload.broker.ProcessStats;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;

/**
 * The delivered path side by side: for each shape, a raw HiveMQ-client loop (the same connections, topics, QoS and
 * windows, a direct receive callback that only counts and records latency) and the suite through a real JMeter plan
 * (header, ledger, histograms on), alternated, against one Mosquitto. Per run: delivered msg/s, the whole client
 * process's CPU per delivered message, the broker's CPU per delivered message, mean and p99 pub-to-sub latency.
 */
public final class DeliveredPathBenchmark {
    private static final int PAYLOAD = 100;
    /** Messages per paced burst at a fixed offered rate: one Publish sample's worth in the suite. */
    private static final int OPEN_LOOP_BURST = 50;
    /** Linux's USER_HZ, the unit of /proc's CPU times. */
    private static final int TICKS_PER_SECOND = 100;
    private static final String SIDE = "--side";
    private static final String RAW = "raw";
    private static final String SUITE = "suite";
    /** Marks the line on which a side's JVM hands its figures back. */
    private static final String FIGURES = "FIGURES\t";

    /** One shape of load: who publishes to whom, how. */
    private enum Shape {
        PAIRS_SYNC_QOS1("pairs, synchronous QoS 1 (seed 001)", 100, 1, 1, 1, true, 0),
        PAIRS_ASYNC_QOS0("pairs, asynchronous QoS 0", 2, 50, 50, 0, false, 0),
        PAIRS_ASYNC_QOS1("pairs, asynchronous QoS 1", 2, 50, 50, 1, false, 0),
        FAN_IN("fan-in, 100 publishers -> 1 subscriber, QoS 1", 1, 100, 1, 1, false, 0),
        FAN_OUT("fan-out, 1 publisher -> 100 subscribers, QoS 1", 1, 1, 100, 1, false, 0),
        // Offered at a fixed rate below what either side saturates at: CPU per message compared at equal rates.
        PAIRS_QOS0_FIXED("pairs, QoS 0 at a fixed 20,000 msg/s", 2, 50, 50, 0, false, 20_000),
        FAN_IN_FIXED("fan-in, QoS 1 at a fixed 10,000 msg/s", 1, 100, 1, 1, false, 10_000);

        final String title;
        final int threads;
        final int publishersPerThread;
        final int subscribersPerThread;
        final int qos;
        final boolean sync;
        /** Messages per second offered over all publishers; 0: as fast as the windows allow. */
        final int offeredRate;

        Shape(String title, int threads, int publishersPerThread, int subscribersPerThread, int qos, boolean sync,
                int offeredRate) {
            this.offeredRate = offeredRate;
            this.title = title;
            this.threads = threads;
            this.publishersPerThread = publishersPerThread;
            this.subscribersPerThread = subscribersPerThread;
            this.qos = qos;
            this.sync = sync;
        }

        int window() {
            return qos == 0 ? 100 : 20;
        }

        boolean fanIn() {
            return this == FAN_IN || this == FAN_IN_FIXED;
        }

        /** Topic of publisher {@code p} of thread {@code t}; subscriber {@code s} of the thread subscribes to it. */
        String topic(int t, int p) {
            return this == FAN_OUT ? "d/0" : "d/" + t + "/" + p;
        }

        String filter(int t, int s) {
            return fanIn() ? "d/#" : this == FAN_OUT ? "d/0" : "d/" + t + "/" + s;
        }
    }

    /** What one run measured over its window. */
    private static final class Figures {
        double deliveredPerSecond;
        double clientCpuMicrosPerMessage;
        double brokerCpuMicrosPerMessage;
        double meanMillis;
        double p99Millis;
        /** The JIT compiler's share: a one-off cost of a JVM's first minutes that a short window weighs heavily. */
        double jitMicrosPerMessage;
        /** The client's CPU µs per message by kind of thread. */
        String byThread;

        String serialise() {
            return deliveredPerSecond + "\t" + clientCpuMicrosPerMessage + "\t" + brokerCpuMicrosPerMessage + "\t"
                    + meanMillis + "\t" + p99Millis + "\t" + jitMicrosPerMessage + "\t" + byThread;
        }

        static Figures parse(String line) {
            String[] v = line.split("\t");
            Figures f = new Figures();
            f.deliveredPerSecond = Double.parseDouble(v[0]);
            f.clientCpuMicrosPerMessage = Double.parseDouble(v[1]);
            f.brokerCpuMicrosPerMessage = Double.parseDouble(v[2]);
            f.meanMillis = Double.parseDouble(v[3]);
            f.p99Millis = Double.parseDouble(v[4]);
            f.jitMicrosPerMessage = Double.parseDouble(v[5]);
            f.byThread = v[6];
            return f;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%9.0f msg/s  client %6.2f us/msg  broker %6.2f us/msg  mean %7.3f ms"
                    + "  p99 %7.3f ms%n        client threads us/msg: %s", deliveredPerSecond, clientCpuMicrosPerMessage,
                    brokerCpuMicrosPerMessage, meanMillis, p99Millis, byThread);
        }
    }

    private DeliveredPathBenchmark() {
    }

    /** The broker both sides load: its address and its process, for the broker's CPU. */
    private static final class Target {
        final String host;
        final int port;
        final long pid;

        Target(String host, int port, long pid) {
            this.host = host;
            this.port = port;
            this.pid = pid;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(SIDE)) {
            runSide(args);
            return;
        }
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int measure = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        // Optional: the shapes to run, by name (e.g. PAIRS_SYNC_QOS1 for a profile of the seed's shape alone).
        List<Shape> shapes = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            shapes.add(Shape.valueOf(args[i]));
        }
        if (shapes.isEmpty()) {
            shapes.addAll(List.of(Shape.values()));
        }
        List<String> lines = new ArrayList<>();
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 0").start()) {
            Target target = new Target(broker.host(), broker.tcpPort(), broker.pid());
            for (Shape shape : shapes) {
                for (int rep = 1; rep <= repetitions; rep++) {
                    // Alternate which side goes first: a machine that warms up or slows down favours neither.
                    boolean rawFirst = rep % 2 == 1;
                    Figures raw = null;
                    Figures suite = null;
                    for (int side = 0; side < 2; side++) {
                        if ((side == 0) == rawFirst) {
                            raw = inOwnJvm(RAW, shape, rep, warmup, measure, target);
                        } else {
                            suite = inOwnJvm(SUITE, shape, rep, warmup, measure, target);
                        }
                    }
                    String line = String.format(Locale.ROOT, "%-48s run %d%n  raw   %s%n  suite %s%n  ratio suite/raw:"
                            + " delivered %.2f, client CPU per message %.2f (%.2f without the JIT compiler)", shape.title,
                            rep, raw, suite, suite.deliveredPerSecond / raw.deliveredPerSecond,
                            suite.clientCpuMicrosPerMessage / raw.clientCpuMicrosPerMessage,
                            (suite.clientCpuMicrosPerMessage - suite.jitMicrosPerMessage)
                                    / (raw.clientCpuMicrosPerMessage - raw.jitMicrosPerMessage));
                    System.out.println(line);
                    lines.add(line);
                }
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "delivered-path benchmark: %d-byte payload, %d s warm-up, %d s measured, %d"
                + " repetition(s), window per client 100 (QoS 0) / 20 (QoS 1), each side in its own JVM%n", PAYLOAD,
                warmup, measure, repetitions);
        lines.forEach(System.out::println);
    }

    /**
     * Runs one side in a JVM of its own: the JIT compiles and profiles only that side's code, as in a real run,
     * instead of each side deoptimising the other's shared client and Netty code. JVM_ARGS are passed on, with
     * {run} replaced by the shape, side and repetition (e.g. a JFR file per side).
     */
    private static Figures inOwnJvm(String side, Shape shape, int rep, int warmup, int measure, Target target)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms1g", "-Xmx2g", "-XX:+UseG1GC", "-Djmeter.home=" + System.getProperty("jmeter.home")));
        String extra = System.getenv().getOrDefault("JVM_ARGS", "").trim();
        if (!extra.isEmpty()) {
            for (String arg : extra.split("\\s+")) {
                command.add(arg.replace("{run}", shape.name() + "-" + side + "-" + rep));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DeliveredPathBenchmark.class.getName(), SIDE,
                side, shape.name(), Integer.toString(warmup), Integer.toString(measure), target.host,
                Integer.toString(target.port), Long.toString(target.pid)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        Figures figures = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(FIGURES)) {
                    figures = Figures.parse(line.substring(FIGURES.length()));
                } else if (line.startsWith("suite run") || line.startsWith("raw publisher") || line.contains("Exception")) {
                    System.err.println(side + ": " + line);
                }
            }
        }
        if (!child.waitFor(warmup + measure + 120L, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException(side + " side of " + shape + " did not end");
        }
        if (figures == null) {
            throw new IllegalStateException(side + " side of " + shape + " printed no figures (exit " + child.exitValue() + ")");
        }
        return figures;
    }

    private static void runSide(String[] args) throws Exception {
        Shape shape = Shape.valueOf(args[2]);
        int warmup = Integer.parseInt(args[3]);
        int measure = Integer.parseInt(args[4]);
        Target target = new Target(args[5], Integer.parseInt(args[6]), Long.parseLong(args[7]));
        Figures f = args[1].equals(RAW) ? raw(target, shape, warmup, measure)
                : suite(target, shape, warmup, measure, Files.createTempDirectory("mqttload-bench"));
        System.out.println(FIGURES + f.serialise());
        System.out.flush();
        // The suite side's JMeter leaves daemon-less pools behind; the figures are out, the JVM may go.
        System.exit(0);
    }

    private static Figures raw(Target broker, Shape shape, int warmup, int measure) throws Exception {
        LongAdder delivered = new LongAdder();
        Recorder latency = new Recorder(3);
        MqttQos qos = MqttQos.fromCode(shape.qos);
        List<Mqtt5AsyncClient> all = new ArrayList<>();
        List<List<Mqtt5AsyncClient>> publishers = new ArrayList<>();
        for (int t = 0; t < shape.threads; t++) {
            for (int s = 0; s < shape.subscribersPerThread; s++) {
                Mqtt5AsyncClient c = client(broker, "raw-s" + t + "-" + s);
                all.add(c);
                c.subscribeWith().topicFilter(shape.filter(t, s)).qos(qos).callback(p -> {
                    long now = MicroClock.nowMicros();
                    delivered.increment();
                    byte[] body = p.getPayloadAsBytes();
                    latency.recordValue(Math.max(0, now - PayloadHeader.sendMicros(body)));
                }).executor(Runnable::run).send().get(30, TimeUnit.SECONDS);
            }
            List<Mqtt5AsyncClient> mine = new ArrayList<>();
            for (int p = 0; p < shape.publishersPerThread; p++) {
                Mqtt5AsyncClient c = client(broker, "raw-p" + t + "-" + p);
                all.add(c);
                mine.add(c);
            }
            publishers.add(mine);
        }
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < shape.threads; t++) {
            int thread = t;
            List<Mqtt5AsyncClient> mine = publishers.get(t);
            Thread worker = new Thread(() -> publishLoop(shape, thread, mine, qos, running), "raw-publisher-" + t);
            worker.start();
            workers.add(worker);
        }
        TimeUnit.SECONDS.sleep(warmup);
        Figures f = window(broker, measure, delivered::sum, latency);
        running.set(false);
        for (Thread w : workers) {
            w.join(10_000);
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        all.forEach(c -> closing.add(c.disconnect()));
        CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
        return f;
    }

    private static Mqtt5AsyncClient client(Target broker, String id) throws Exception {
        Mqtt5AsyncClient c = MqttClient.builder().identifier(id).serverHost(broker.host).serverPort(broker.port)
                .useMqttVersion5().buildAsync();
        c.connect().get(30, TimeUnit.SECONDS);
        return c;
    }

    /** One thread's publishers in turn: waiting for each PUBACK (sync) or for room in the client's window. */
    private static void publishLoop(Shape shape, int thread, List<Mqtt5AsyncClient> mine, MqttQos qos,
            AtomicBoolean running) {
        Semaphore[] windows = new Semaphore[mine.size()];
        for (int i = 0; i < windows.length; i++) {
            windows[i] = new Semaphore(shape.window());
        }
        int seq = 0;
        // Open loop in bursts of the suite's messages per sample, so both sides offer the same pattern: a burst at
        // each slot, whatever the broker did with the earlier ones.
        long intervalNanos = shape.offeredRate == 0 ? 0
                : 1_000_000_000L * shape.threads * OPEN_LOOP_BURST / shape.offeredRate;
        long next = System.nanoTime();
        long sent = 0;
        try {
            while (running.get()) {
                for (int i = 0; i < mine.size(); i++) {
                    if (intervalNanos > 0 && sent++ % OPEN_LOOP_BURST == 0) {
                        next += intervalNanos;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                    }
                    byte[] payload = new byte[PAYLOAD];
                    PayloadHeader.write(payload, MicroClock.nowMicros(), thread * 1000 + i, ++seq);
                    Mqtt5Publish message = Mqtt5Publish.builder().topic(shape.topic(thread, i)).qos(qos).payload(payload)
                            .build();
                    if (shape.sync) {
                        mine.get(i).publish(message).get(10, TimeUnit.SECONDS);
                        continue;
                    }
                    Semaphore w = windows[i];
                    if (!w.tryAcquire(10, TimeUnit.SECONDS)) {
                        return;
                    }
                    mine.get(i).publish(message).whenComplete((r, e) -> w.release());
                }
            }
        } catch (Exception e) {
            if (running.get()) {
                System.err.println("raw publisher " + thread + " stopped: " + e);
            }
        }
    }

    /** The measured window of a raw run: counts, the process's and the broker's CPU, latency. */
    private static Figures window(Target broker, int seconds, java.util.function.LongSupplier delivered,
            Recorder latency) throws Exception {
        long d0 = delivered.getAsLong();
        long c0 = clientCpuNanos();
        long b0 = brokerCpuTicks(broker);
        ThreadCpu threads0 = ThreadCpu.read();
        latency.reset();
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        long messages = delivered.getAsLong() - d0;
        double elapsed = (System.nanoTime() - t0) / 1e9;
        Histogram h = latency.getIntervalHistogram();
        Figures f = new Figures();
        f.deliveredPerSecond = messages / elapsed;
        f.clientCpuMicrosPerMessage = (clientCpuNanos() - c0) / 1000.0 / Math.max(1, messages);
        f.brokerCpuMicrosPerMessage = (brokerCpuTicks(broker) - b0) * 1e6 / TICKS_PER_SECOND / Math.max(1, messages);
        f.meanMillis = h.getMean() / 1000.0;
        f.p99Millis = h.getValueAtPercentile(99) / 1000.0;
        ThreadCpu threads1 = ThreadCpu.read();
        f.byThread = threads1.perMessageSince(threads0, messages);
        f.jitMicrosPerMessage = threads1.perMessageSince(threads0, messages, ThreadCpu.JIT);
        return f;
    }

    /** The same load as a JMeter plan; CPU is read at the end of the warm-up and of the measured window. */
    private static Figures suite(Target broker, Shape shape, int warmup, int measure, Path results)
            throws Exception {
        int perSample = shape.sync ? 100 : shape.offeredRate > 0 ? OPEN_LOOP_BURST : 1000;
        ConstantThroughputTimer pace = PlanBuilder.testBean(new ConstantThroughputTimer(), "pace");
        // All active threads together: samples per minute that offer the shape's rate.
        pace.setProperty("calcMode", 1);
        pace.setProperty("throughput", Double.toString(shape.offeredRate * 60.0 / perSample));
        TestElement publisher = with(with(with(publish("pub", shape == Shape.FAN_OUT ? "d/0" : "d/{thread}/{client}",
                shape.qos, perSample, shape.sync ? "SYNC" : "ASYNC"), "maxInFlight",
                Integer.toString(shape.publishersPerThread * shape.window())), "maxInFlightPerClient",
                Integer.toString(shape.window())), "payloadSize", Integer.toString(PAYLOAD));
        HashTree plan = PlanBuilder.testPlan("delivered-" + shape.name())
                .config(connection(broker.host, broker.port, "MQTT_5"))
                .threadGroup("t", shape.threads, PlanBuilder.FOREVER)
                // Past the CPU window, so that no JMeter thread has ended (and taken its CPU time along) inside it.
                .duration(Duration.ofSeconds(warmup + measure + 2))
                .add(onceOnly(), connect("sub", shape.subscribersPerThread, "s{thread}-{client}"),
                        subscribe("sub", shape.fanIn() ? "d/#" : shape == Shape.FAN_OUT ? "d/0" : "d/{thread}/{client}",
                                shape.qos),
                        connect("pub", shape.publishersPerThread, "p{thread}-{client}"))
                .add(publisher, shape.offeredRate > 0 ? new TestElement[] {pace} : new TestElement[0])
                .build();
        long[] cpu = new long[4];
        ThreadCpu[] threads = new ThreadCpu[2];
        Thread sampler = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(warmup);
                cpu[0] = clientCpuNanos();
                cpu[1] = brokerCpuTicks(broker);
                threads[0] = ThreadCpu.read();
                TimeUnit.SECONDS.sleep(measure);
                cpu[2] = clientCpuNanos();
                cpu[3] = brokerCpuTicks(broker);
                threads[1] = ThreadCpu.read();
            } catch (InterruptedException | IOException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-cpu-sampler");
        sampler.start();
        JMeterTestEngine.run(plan, Duration.ofSeconds(warmup + measure + 62), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.warmupSeconds", Integer.toString(warmup)));
        sampler.join(30_000);
        RunSummary summary = EngineRuntime.lastSummary();
        long messages = summary.measuredReceived;
        Figures f = new Figures();
        f.deliveredPerSecond = summary.receiveRate();
        // CPU over the sampler's window, per message delivered in it at the run's measured rate.
        double inWindow = Math.max(1, summary.receiveRate() * measure);
        f.clientCpuMicrosPerMessage = (cpu[2] - cpu[0]) / 1000.0 / inWindow;
        f.brokerCpuMicrosPerMessage = (cpu[3] - cpu[1]) * 1e6 / TICKS_PER_SECOND / inWindow;
        f.meanMillis = summary.pubToSub.mean / 1000.0;
        f.p99Millis = summary.pubToSub.percentile(99.0) / 1000.0;
        f.byThread = threads[1] == null ? "not read" : threads[1].perMessageSince(threads[0], inWindow);
        f.jitMicrosPerMessage = threads[1] == null ? 0 : threads[1].perMessageSince(threads[0], inWindow, ThreadCpu.JIT);
        if (messages == 0) {
            System.err.println("suite run of " + shape + " delivered nothing:\n" + summary.toTable());
        }
        return f;
    }

    private static long clientCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long brokerCpuTicks(Target broker) throws IOException {
        return ProcessStats.read(broker.pid).cpuTicks;
    }
}
