package io.mqttload.bench;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.with;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.apache.jorphan.collections.HashTree;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttMetricsConfig;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;

/**
 * Publish throughput against local Mosquitto, 100 clients, 64-byte payloads, no subscribers (the
 * mqtt-benchmark publish test): a raw HiveMQ-client loop, then the suite through a real JMeter plan,
 * alternating, same windows per client, same measured span after the same warm-up.
 */
public final class ThroughputBenchmark {
    private static final int CLIENTS = 100;
    private static final int THREADS = 2;
    private static final int PAYLOAD = 64;
    private static final int WARMUP_SECONDS = 2;
    private static final int MEASURE_SECONDS = 10;

    private ThroughputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        Path results = Files.createTempDirectory("mqttload-bench");
        boolean withInflux = Files.isExecutable(Path.of("/usr/bin/influxd"));
        try (MosquittoBroker broker = MosquittoBroker.builder().start();
                InfluxDbServer influx = withInflux ? InfluxDbServer.start() : null) {
            if (influx != null) {
                influx.query("", "CREATE DATABASE mqttload");
            }
            List<String> lines = new ArrayList<>();
            for (int qos = 0; qos <= 1; qos++) {
                int window = qos == 0 ? 100 : 20;
                for (int rep = 1; rep <= repetitions; rep++) {
                    double raw = rawLoop(broker.tcpPort(), qos, window);
                    double suite = suite(broker.tcpPort(), qos, window, results, null);
                    double metrics = influx == null ? Double.NaN : suite(broker.tcpPort(), qos, window, results, influx.url());
                    String line = String.format(Locale.ROOT,
                            "QoS %d run %d: raw HiveMQ loop %.0f msg/s, suite (JMeter plan) %.0f msg/s, ratio %.2f;"
                                    + " suite with metrics to InfluxDB %.0f msg/s (%.2f of the suite without)",
                            qos, rep, raw, suite, suite / raw, metrics, metrics / suite);
                    System.out.println(line);
                    lines.add(line);
                }
            }
            System.out.println();
            System.out.println("throughput benchmark: " + CLIENTS + " clients, " + PAYLOAD + "-byte payload, "
                    + WARMUP_SECONDS + " s warm-up, " + MEASURE_SECONDS + " s measured, per-client window 100 (QoS 0) / 20 (QoS 1)");
            lines.forEach(System.out::println);
        }
    }

    /** Each thread drives its clients round-robin, waiting for room in each client's window, as the suite does. */
    private static double rawLoop(int port, int qos, int window) throws Exception {
        List<Mqtt5AsyncClient> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            Mqtt5AsyncClient c = MqttClient.builder().identifier("raw-" + i).serverHost("127.0.0.1").serverPort(port)
                    .useMqttVersion5().buildAsync();
            c.connect().get(30, TimeUnit.SECONDS);
            clients.add(c);
        }
        LongAdder acked = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        MqttQos mqttQos = MqttQos.fromCode(qos);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            List<Mqtt5AsyncClient> mine = clients.subList(t * CLIENTS / THREADS, (t + 1) * CLIENTS / THREADS);
            Thread worker = new Thread(() -> {
                Semaphore[] windows = new Semaphore[mine.size()];
                for (int i = 0; i < windows.length; i++) {
                    windows[i] = new Semaphore(window);
                }
                int seq = 0;
                while (running.get()) {
                    for (int i = 0; i < mine.size(); i++) {
                        Semaphore w = windows[i];
                        try {
                            if (!w.tryAcquire(10, TimeUnit.SECONDS)) {
                                return;
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                        byte[] payload = new byte[PAYLOAD];
                        PayloadHeader.write(payload, System.currentTimeMillis() * 1000, i, ++seq);
                        mine.get(i).publish(Mqtt5Publish.builder().topic("raw/" + i).qos(mqttQos).payload(payload).build())
                                .whenComplete((r, e) -> {
                                    w.release();
                                    if (e == null) {
                                        acked.increment();
                                    }
                                });
                    }
                }
            }, "raw-publisher-" + t);
            worker.start();
            workers.add(worker);
        }
        TimeUnit.SECONDS.sleep(WARMUP_SECONDS);
        long before = acked.sum();
        long start = System.nanoTime();
        TimeUnit.SECONDS.sleep(MEASURE_SECONDS);
        double rate = (acked.sum() - before) / ((System.nanoTime() - start) / 1e9);
        running.set(false);
        for (Thread w : workers) {
            w.join(10_000);
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Mqtt5AsyncClient c : clients) {
            closing.add(c.disconnect());
        }
        CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
        return rate;
    }

    /** The same load as a JMeter plan: MQTT Connect once, then MQTT Publish ASYNC in batches of 1,000. */
    private static double suite(int port, int qos, int window, Path results, String influxUrl) {
        MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
        metrics.setProperty("influxUrl", influxUrl == null ? "" : influxUrl);
        HashTree plan = PlanBuilder.testPlan("throughput")
                .config(connection("127.0.0.1", port, "MQTT_5"))
                .config(metrics)
                .threadGroup("publishers", THREADS, PlanBuilder.FOREVER)
                .duration(java.time.Duration.ofSeconds(WARMUP_SECONDS + MEASURE_SECONDS))
                .add(onceOnly(), connect("pub", CLIENTS / THREADS, "s{thread}-{client}"))
                .add(with(with(with(publish("pub", "suite/{thread}/{client}", qos, 1000, "ASYNC"), "maxInFlight",
                        Integer.toString(CLIENTS / THREADS * window)), "maxInFlightPerClient", Integer.toString(window)),
                        "payloadSize", Integer.toString(PAYLOAD)))
                .build();
        JMeterTestEngine.run(plan, java.time.Duration.ofSeconds(120), Map.of("mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.warmupSeconds", Integer.toString(WARMUP_SECONDS)));
        RunSummary summary = JvmRun.lastSummary();
        return summary.publishRate();
    }
}
