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
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;

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
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.PayloadHeader;
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
    /** Topic roots of the two sides, of equal length: both run against one broker at once. */
    private static final String RAW_ROOT = "r";
    private static final String SUITE_ROOT = "d";
    /** Seconds a continued side runs before its window starts: its timers and windows back in step. */
    private static final int SETTLE_SECONDS = 2;
    /** Longest wait for a side's answer, and the publish timeouts of both sides (which a stop must not trip). */
    private static final int SIDE_ANSWER_SECONDS = 120;
    /** The suite side's plan duration: longer than any benchmark; the side is ended by the orchestrator. */
    private static final int SIDE_LIFETIME_SECONDS = 3600;
    private static final String READY = "READY";
    private static final String SAMPLE = "SAMPLE";
    /** Linux's USER_HZ, the unit of /proc's CPU times. */
    private static final int TICKS_PER_SECOND = 100;
    private static final String SIDE = "--side";
    private static final String RAW = "raw";
    private static final String SUITE = "suite";

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

        /**
         * Topic of publisher {@code p} of thread {@code t} under {@code root} (a side's own, as both sides share the
         * broker); subscriber {@code s} of the thread subscribes to it. A negative {@code t}: the suite's template.
         */
        String topic(String root, int t, int p) {
            return this == FAN_OUT ? root + "/0" : root + "/" + perClient(t, p);
        }

        String filter(String root, int t, int s) {
            return fanIn() ? root + "/#" : topic(root, t, s);
        }

        private static String perClient(int t, int c) {
            return t < 0 ? "{thread}/{client}" : t + "/" + c;
        }
    }

    /** What one measured window of one side saw. */
    private static final class Figures {
        double deliveredPerSecond;
        double clientCpuMicrosPerMessage;
        double brokerCpuMicrosPerMessage;
        double meanMillis;
        double p99Millis;
        /** The JIT compiler's share: a one-off cost of a JVM's first minutes that a short window weighs heavily. */
        double jitMicrosPerMessage;
        /** The client's CPU µs (and context switches) per message by kind of thread. */
        String byThread;

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%9.0f msg/s  client %6.2f us/msg  broker %6.2f us/msg  mean %7.3f ms"
                    + "  p99 %7.3f ms%n        client threads us/msg (context switches per msg): %s", deliveredPerSecond,
                    clientCpuMicrosPerMessage, brokerCpuMicrosPerMessage, meanMillis, p99Millis, byThread);
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
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int window = args.length > 2 ? Integer.parseInt(args[2]) : 5;
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
                lines.add(interleaved(shape, rounds, warmup, window, target));
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "delivered-path benchmark: %d-byte payload, %d s warm-up, %d rounds of a %d s window"
                + " per side (after %d s of settling), window per client 100 (QoS 0) / 20 (QoS 1), each side in its own JVM,"
                + " the idle side stopped (SIGSTOP)%n", PAYLOAD, warmup, rounds, window, SETTLE_SECONDS);
        lines.forEach(System.out::println);
    }

    /**
     * Both sides of one shape, each in its own JVM, running at once but measured in turn: while one side has its
     * window, the other is stopped (SIGSTOP), so each window has the machine to itself, and the windows alternate
     * often enough that a machine whose speed drifts (this one is shared) favours neither side. Both warm up
     * together first.
     */
    private static String interleaved(Shape shape, int rounds, int warmup, int window, Target broker) throws Exception {
        Side raw = Side.start(RAW, shape, broker);
        Side suite = Side.start(SUITE, shape, broker);
        List<Figures[]> results = new ArrayList<>();
        try {
            raw.awaitReady();
            suite.awaitReady();
            TimeUnit.SECONDS.sleep(warmup);
            raw.pause();
            suite.pause();
            for (int round = 1; round <= rounds; round++) {
                // Alternate who goes first: a machine that speeds up or slows down favours neither.
                boolean rawFirst = round % 2 == 1;
                Figures first = (rawFirst ? raw : suite).measure(window, broker);
                Figures second = (rawFirst ? suite : raw).measure(window, broker);
                Figures[] pair = rawFirst ? new Figures[] {first, second} : new Figures[] {second, first};
                results.add(pair);
                System.out.printf(Locale.ROOT, "%-48s round %d%n  raw   %s%n  suite %s%n  ratio suite/raw: delivered %.2f,"
                        + " client CPU per message %.2f (%.2f without the JIT compiler)%n", shape.title, round, pair[0],
                        pair[1], pair[1].deliveredPerSecond / pair[0].deliveredPerSecond, cpuRatio(pair, false),
                        cpuRatio(pair, true));
            }
        } finally {
            raw.close();
            suite.close();
        }
        return summary(shape, results);
    }

    private static double cpuRatio(Figures[] pair, boolean withoutJit) {
        double jitRaw = withoutJit ? pair[0].jitMicrosPerMessage : 0;
        double jitSuite = withoutJit ? pair[1].jitMicrosPerMessage : 0;
        return (pair[1].clientCpuMicrosPerMessage - jitSuite) / (pair[0].clientCpuMicrosPerMessage - jitRaw);
    }

    /** One line per shape: medians over the rounds, and the range of the per-round CPU ratios. */
    private static String summary(Shape shape, List<Figures[]> rounds) {
        double[] ratios = rounds.stream().mapToDouble(p -> cpuRatio(p, false)).sorted().toArray();
        double[] withoutJit = rounds.stream().mapToDouble(p -> cpuRatio(p, true)).sorted().toArray();
        return String.format(Locale.ROOT, "%-48s %d rounds | delivered msg/s raw %.0f suite %.0f | client CPU us/msg raw %.2f"
                + " suite %.2f | broker CPU us/msg raw %.2f suite %.2f | mean ms raw %.2f suite %.2f | p99 ms raw %.2f suite %.2f"
                + " | ratio median %.2f"
                + " (%.2f-%.2f), without JIT %.2f", shape.title, rounds.size(), median(rounds, 0, f -> f.deliveredPerSecond),
                median(rounds, 1, f -> f.deliveredPerSecond), median(rounds, 0, f -> f.clientCpuMicrosPerMessage),
                median(rounds, 1, f -> f.clientCpuMicrosPerMessage), median(rounds, 0, f -> f.brokerCpuMicrosPerMessage),
                median(rounds, 1, f -> f.brokerCpuMicrosPerMessage), median(rounds, 0, f -> f.meanMillis),
                median(rounds, 1, f -> f.meanMillis), median(rounds, 0, f -> f.p99Millis),
                median(rounds, 1, f -> f.p99Millis), median(ratios), ratios[0], ratios[ratios.length - 1],
                median(withoutJit));
    }

    private static double median(List<Figures[]> rounds, int side, ToDoubleFunction<Figures> value) {
        return median(rounds.stream().mapToDouble(p -> value.applyAsDouble(p[side])).sorted().toArray());
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * One side's JVM: its load runs from start to close; the orchestrator stops and continues the process around
     * its windows and asks it for its delivered count and latency (a line on its standard input, answered on its
     * standard output). JVM_ARGS are passed on, with {run} replaced by the shape and side (e.g. a JFR file each).
     */
    private static final class Side implements AutoCloseable {
        private final String name;
        private final Process process;
        private final BufferedReader out;
        private final Writer in;

        private Side(String name, Process process) {
            this.name = name;
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        static Side start(String name, Shape shape, Target target) throws IOException {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xms1g", "-Xmx2g", "-XX:+UseG1GC", "-Djmeter.home=" + System.getProperty("jmeter.home")));
            String extra = System.getenv().getOrDefault("JVM_ARGS", "").trim();
            if (!extra.isEmpty()) {
                for (String arg : extra.split("\\s+")) {
                    command.add(arg.replace("{run}", shape.name() + "-" + name));
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), DeliveredPathBenchmark.class.getName(),
                    SIDE, name, shape.name(), target.host, Integer.toString(target.port)));
            return new Side(name, new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        void awaitReady() throws IOException {
            expect(READY);
        }

        /** Continues the side, lets it settle, measures one window, and stops it again. */
        Figures measure(int seconds, Target broker) throws Exception {
            signal("CONT");
            TimeUnit.SECONDS.sleep(SETTLE_SECONDS);
            long cpu0 = ProcessStats.read(process.pid()).cpuTicks;
            long broker0 = ProcessStats.read(broker.pid).cpuTicks;
            ThreadCpu threads0 = ThreadCpu.read(process.pid());
            String[] first = sample();
            long t0 = System.nanoTime();
            TimeUnit.SECONDS.sleep(seconds);
            String[] last = sample();
            double elapsed = (System.nanoTime() - t0) / 1e9;
            long cpu1 = ProcessStats.read(process.pid()).cpuTicks;
            long broker1 = ProcessStats.read(broker.pid).cpuTicks;
            ThreadCpu threads1 = ThreadCpu.read(process.pid());
            pause();
            double messages = Math.max(1, Long.parseLong(last[1]) - Long.parseLong(first[1]));
            Figures f = new Figures();
            f.deliveredPerSecond = messages / elapsed;
            f.clientCpuMicrosPerMessage = (cpu1 - cpu0) * 1e6 / TICKS_PER_SECOND / messages;
            f.brokerCpuMicrosPerMessage = (broker1 - broker0) * 1e6 / TICKS_PER_SECOND / messages;
            f.meanMillis = Double.parseDouble(last[2]);
            f.p99Millis = Double.parseDouble(last[3]);
            f.byThread = threads1.perMessageSince(threads0, messages);
            f.jitMicrosPerMessage = threads1.perMessageSince(threads0, messages, ThreadCpu.JIT);
            return f;
        }

        void pause() throws IOException, InterruptedException {
            signal("STOP");
        }

        /** Delivered count and the latency since the previous sample, as the side reports them. */
        private String[] sample() throws IOException {
            in.write(SAMPLE + "\n");
            in.flush();
            return expect(SAMPLE).split("\t");
        }

        /** The side's next line starting with {@code marker}; a side that dies or says nothing ends the benchmark. */
        private String expect(String marker) throws IOException {
            CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String l = out.readLine(); l != null; l = out.readLine()) {
                        if (l.startsWith(marker)) {
                            return l;
                        }
                        if (l.contains("Exception") || l.startsWith("suite run") || l.startsWith("raw publisher")) {
                            System.err.println(name + ": " + l);
                        }
                    }
                    return null;
                } catch (IOException e) {
                    return null;
                }
            });
            try {
                String l = line.get(SIDE_ANSWER_SECONDS, TimeUnit.SECONDS);
                if (l == null) {
                    throw new IllegalStateException(name + " side ended without '" + marker + "'");
                }
                return l;
            } catch (TimeoutException | ExecutionException e) {
                throw new IllegalStateException(name + " side did not say '" + marker + "' within "
                        + SIDE_ANSWER_SECONDS + " s", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        private void signal(String which) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + which, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + which + " " + process.pid() + " failed");
            }
        }

        @Override
        public void close() throws Exception {
            if (process.isAlive()) {
                signal("CONT");
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }
    }

    /** A side's JVM: starts its load, says READY once messages arrive, then answers samples until it is ended. */
    private static void runSide(String[] args) throws Exception {
        Shape shape = Shape.valueOf(args[2]);
        Target target = new Target(args[3], Integer.parseInt(args[4]), 0);
        Probe probe = args[1].equals(RAW) ? raw(target, shape) : suite(target, shape,
                Files.createTempDirectory("mqttload-bench"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SIDE_ANSWER_SECONDS);
        while (probe.delivered() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(args[1] + " side delivered nothing in " + SIDE_ANSWER_SECONDS + " s");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        System.out.println(READY);
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String c = commands.readLine(); c != null; c = commands.readLine()) {
            if (c.equals(SAMPLE)) {
                Histogram h = probe.latencySinceLastSample();
                System.out.printf(Locale.ROOT, "%s\t%d\t%.3f\t%.3f%n", SAMPLE, probe.delivered(), h.getMean() / 1000.0,
                        h.getValueAtPercentile(99) / 1000.0);
                System.out.flush();
            }
        }
        // The orchestrator closed our input: the run is over; the JMeter side leaves non-daemon pools behind.
        System.exit(0);
    }

    /** What the orchestrator reads of a running side. */
    private interface Probe {
        long delivered();

        /** Pub-to-sub latency (µs) of the messages delivered since the previous call. */
        Histogram latencySinceLastSample();
    }

    private static Probe raw(Target broker, Shape shape) throws Exception {
        LongAdder delivered = new LongAdder();
        Recorder latency = new Recorder(3);
        MqttQos qos = MqttQos.fromCode(shape.qos);
        List<List<Mqtt5AsyncClient>> publishers = new ArrayList<>();
        for (int t = 0; t < shape.threads; t++) {
            for (int s = 0; s < shape.subscribersPerThread; s++) {
                Mqtt5AsyncClient c = client(broker, "raw-s" + t + "-" + s);
                c.subscribeWith().topicFilter(shape.filter(RAW_ROOT, t, s)).qos(qos).callback(p -> {
                    long now = MicroClock.nowMicros();
                    delivered.increment();
                    byte[] body = p.getPayloadAsBytes();
                    latency.recordValue(Math.max(0, now - PayloadHeader.sendMicros(body)));
                }).executor(Runnable::run).send().get(30, TimeUnit.SECONDS);
            }
            List<Mqtt5AsyncClient> mine = new ArrayList<>();
            for (int p = 0; p < shape.publishersPerThread; p++) {
                mine.add(client(broker, "raw-p" + t + "-" + p));
            }
            publishers.add(mine);
        }
        for (int t = 0; t < shape.threads; t++) {
            int thread = t;
            List<Mqtt5AsyncClient> mine = publishers.get(t);
            Thread worker = new Thread(() -> publishLoop(shape, thread, mine, qos), "raw-publisher-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        return new Probe() {
            @Override
            public long delivered() {
                return delivered.sum();
            }

            @Override
            public Histogram latencySinceLastSample() {
                return latency.getIntervalHistogram();
            }
        };
    }

    private static Mqtt5AsyncClient client(Target broker, String id) throws Exception {
        Mqtt5AsyncClient c = MqttClient.builder().identifier(id).serverHost(broker.host).serverPort(broker.port)
                .useMqttVersion5().buildAsync();
        c.connect().get(30, TimeUnit.SECONDS);
        return c;
    }

    /** One thread's publishers in turn: waiting for each PUBACK (sync) or for room in the client's window. */
    private static void publishLoop(Shape shape, int thread, List<Mqtt5AsyncClient> mine, MqttQos qos) {
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
            while (true) {
                for (int i = 0; i < mine.size(); i++) {
                    if (intervalNanos > 0 && sent++ % OPEN_LOOP_BURST == 0) {
                        next += intervalNanos;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        } else if (wait < -intervalNanos) {
                            // Back from a stop: no burst to catch up (JMeter's timer does not catch up either).
                            next = System.nanoTime();
                        }
                    }
                    byte[] payload = new byte[PAYLOAD];
                    PayloadHeader.write(payload, MicroClock.nowMicros(), thread * 1000 + i, ++seq);
                    Mqtt5Publish message = Mqtt5Publish.builder().topic(shape.topic(RAW_ROOT, thread, i)).qos(qos)
                            .payload(payload).build();
                    if (shape.sync) {
                        mine.get(i).publish(message).get(SIDE_ANSWER_SECONDS, TimeUnit.SECONDS);
                        continue;
                    }
                    Semaphore w = windows[i];
                    if (!w.tryAcquire(SIDE_ANSWER_SECONDS, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("no room in the window of raw-p" + thread + "-" + i);
                    }
                    mine.get(i).publish(message).whenComplete((r, e) -> w.release());
                }
            }
        } catch (Exception e) {
            System.err.println("raw publisher " + thread + " stopped: " + e);
        }
    }

    /** The same load as a JMeter plan, run in the background for as long as the side lives. */
    private static Probe suite(Target broker, Shape shape, Path results) {
        int perSample = shape.sync ? 100 : shape.offeredRate > 0 ? OPEN_LOOP_BURST : 1000;
        ConstantThroughputTimer pace = PlanBuilder.testBean(new ConstantThroughputTimer(), "pace");
        // All active threads together: samples per minute that offer the shape's rate.
        pace.setProperty("calcMode", 1);
        pace.setProperty("throughput", Double.toString(shape.offeredRate * 60.0 / perSample));
        TestElement publisher = with(with(with(with(publish("pub", shape.topic(SUITE_ROOT, -1, -1), shape.qos, perSample,
                shape.sync ? "SYNC" : "ASYNC"), "maxInFlight", Integer.toString(shape.publishersPerThread * shape.window())),
                "maxInFlightPerClient", Integer.toString(shape.window())), "payloadSize", Integer.toString(PAYLOAD)),
                "ackTimeoutMs", Long.toString(TimeUnit.SECONDS.toMillis(SIDE_ANSWER_SECONDS)));
        HashTree plan = PlanBuilder.testPlan("delivered-" + shape.name())
                .config(connection(broker.host, broker.port, "MQTT_5"))
                .threadGroup("t", shape.threads, PlanBuilder.FOREVER)
                .duration(Duration.ofSeconds(SIDE_LIFETIME_SECONDS))
                .add(onceOnly(), connect("sub", shape.subscribersPerThread, SUITE_ROOT + "s{thread}-{client}"),
                        subscribe("sub", shape.filter(SUITE_ROOT, -1, -1), shape.qos),
                        connect("pub", shape.publishersPerThread, SUITE_ROOT + "p{thread}-{client}"))
                .add(publisher, shape.offeredRate > 0 ? new TestElement[] {pace} : new TestElement[0])
                .build();
        Thread run = new Thread(() -> JMeterTestEngine.run(plan, Duration.ofSeconds(SIDE_LIFETIME_SECONDS + 60),
                Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0")), "bench-suite-run");
        run.setDaemon(true);
        run.start();
        return new Probe() {
            private Histogram total = LatencyRecorder.newHistogram();

            @Override
            public long delivered() {
                return JvmRun.running().map(r -> r.context().metrics().sum(Count.RECEIVED)).orElse(0L);
            }

            @Override
            public Histogram latencySinceLastSample() {
                // The engine adds its recorders into the total once a second: a window's figures lag by up to 1 s.
                Histogram now = JvmRun.running().orElseThrow().context().metrics().latency.totalCopy(Latency.PUB_TO_SUB);
                Histogram since = now.copy();
                since.subtract(total);
                total = now;
                return since;
            }
        };
    }
}
