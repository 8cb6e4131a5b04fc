package io.mqttload.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.engine.ConnectOperation;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.RunConfig;
import io.mqttload.engine.RunContext;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * One engine holds N idle connections (keep-alive 300 s) to one local Mosquitto: connect rate, connect
 * latency, heap per connection (after full GCs), threads and RSS. Runs the engine runtime the MQTT
 * Connect sampler drives, with one worker per simulated JMeter thread.
 */
public final class ConnectionsBenchmark {
    private ConnectionsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 19_000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 19;
        double rate = args.length > 2 ? Double.parseDouble(args[2]) : 4000;
        Path results = Files.createTempDirectory("mqttload-bench");
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_connections -1").start()) {
            Map<String, String> props = new HashMap<>();
            props.put(RunConfig.RESULTS_DIR, results.toString());
            props.put(RunConfig.PROGRESS_SECONDS, "0");
            props.put(RunConfig.CLOSE_TIMEOUT_MS, "60000");
            EngineRuntime runtime = new EngineRuntime(RunConfig.from(props::get, "connections"), System.out);
            RunContext run = runtime.context();
            ConnectionSettings settings = ConnectionSettings.builder().host("127.0.0.1").port(broker.tcpPort())
                    .keepAliveSeconds(300).connectTimeoutMs(60_000).build();
            long heapBefore = usedHeapAfterGc();
            int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();

            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<OperationResult>> done = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int thread = t + 1;
                int count = total / threads + (t < total % threads ? 1 : 0);
                done.add(pool.submit(() -> new ConnectOperation(settings, SettingValues.of(ConnectSettings.ALL, Map.of(
                        ConnectSettings.CLIENT_COUNT.name(), Integer.toString(count), ConnectSettings.CLIENT_ID_TEMPLATE.name(),
                        "b{thread}-{client}", ConnectSettings.CONNECT_RATE.name(), Double.toString(rate))),
                        ReconnectPolicy.none()).run(run, run.group(Thread.currentThread(), "c"), 1, thread,
                        run.samplerMetrics("connect"))));
            }
            int failedSamples = 0;
            for (Future<OperationResult> f : done) {
                OperationResult r = f.get(10, TimeUnit.MINUTES);
                if (!r.ok) {
                    failedSamples++;
                    System.out.println("connect sample failed: " + r.message);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long active = run.metrics().sum(Count.ACTIVE_CONNECTIONS);
            long heapAfter = usedHeapAfterGc();
            int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
            String rss = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("VmRSS")).findFirst().orElse("VmRSS: ?").replaceAll("\\s+", " ");
            pool.shutdown();
            RunSummary summary = runtime.shutdown();
            LatencyStats c = summary.latencyOf(Latency.CONNECT);

            System.out.printf(Locale.ROOT, "%nconnections benchmark: %d clients from %d threads, rate limit %.0f/s%n",
                    total, threads, rate);
            System.out.printf(Locale.ROOT, "connected (open at once)   %d (failed samples %d)%n", active, failedSamples);
            System.out.printf(Locale.ROOT, "connect wall time          %.2f s = %.0f connections/s%n", seconds, total / seconds);
            System.out.printf(Locale.ROOT, "connect latency ms         avg %.2f p50 %.2f p90 %.2f p99 %.2f max %.2f%n",
                    c.mean / 1000, c.percentile(50) / 1000.0, c.percentile(90) / 1000.0, c.percentile(99) / 1000.0,
                    c.max / 1000.0);
            System.out.printf(Locale.ROOT, "heap per idle connection   %.0f bytes (%.1f MB for %d)%n",
                    (heapAfter - heapBefore) / (double) total, (heapAfter - heapBefore) / 1e6, total);
            System.out.printf(Locale.ROOT, "JVM threads                %d before, %d with all connected%n", threadsBefore,
                    threadsAfter);
            System.out.printf(Locale.ROOT, "process memory             %s%n", rss);
        }
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
