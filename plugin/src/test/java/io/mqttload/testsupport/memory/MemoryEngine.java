package io.mqttload.testsupport.memory;

import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.PublishProperties;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.OutageSettings;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.common.settings.SubscribeSettings;
import io.mqttload.engine.ConnectOperation;
import io.mqttload.engine.DisconnectOperation;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.OutageOperation;
import io.mqttload.engine.PayloadSource;
import io.mqttload.engine.PublishOperation;
import io.mqttload.engine.PublishSlots;
import io.mqttload.engine.RunConfig;
import io.mqttload.engine.RunContext;
import io.mqttload.engine.SubscribeOperation;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.summary.RunSummary;

/**
 * One engine's run on an {@link InMemoryBroker}, driven without JMeter: the real {@link EngineRuntime} and operations,
 * called as the MQTT samplers call them (a failed sample the operation did not count is counted as the sampler
 * counts it), one thread of one thread group per call. Short waits by default, so a run takes milliseconds.
 */
public final class MemoryEngine {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private final EngineRuntime runtime;
    /** Concurrent: a test may run two threads' samples at once, as JMeter does. */
    private final Map<String, Object> threads = new ConcurrentHashMap<>();

    /**
     * @param properties run properties ({@link RunConfig}'s keys) over this harness's defaults: results in
     *                   {@code resultsDir}, no progress lines, short drain, close and broker version timeouts
     */
    public MemoryEngine(InMemoryBroker broker, Path resultsDir, Map<String, String> properties) {
        Map<String, String> p = new HashMap<>();
        p.put(RunConfig.RESULTS_DIR, resultsDir.toString());
        p.put(RunConfig.PROGRESS_SECONDS, "0");
        p.put(RunConfig.DRAIN_TIMEOUT_MS, "200");
        p.put(RunConfig.DRAIN_QUIET_MS, "50");
        p.put(RunConfig.CLOSE_TIMEOUT_MS, "1000");
        p.put(RunConfig.BROKER_VERSION_TIMEOUT_MS, "500");
        p.put(RunConfig.ENGINE_ID, "engine");
        p.put(RunConfig.ENGINE_NUMBER, "1");
        p.put(RunConfig.RUN_ID, "memory-run");
        p.putAll(properties);
        this.runtime = new EngineRuntime(RunConfig.from(p::get, "memory"), QUIET, broker);
    }

    /** Settings of the in-memory broker: MQTT 5, clean start, and a short CONNACK timeout. */
    public static ConnectionSettings.Builder settings() {
        return ConnectionSettings.builder().host("memory").port(1883).connectTimeoutMs(500);
    }

    public EngineRuntime runtime() {
        return runtime;
    }

    public RunContext context() {
        return runtime.context();
    }

    /** Opens {@code count} clients for thread {@code thread} into its client group {@code group}. */
    public OperationResult connect(String label, String group, int thread, ConnectionSettings settings, int count,
            String idTemplate, ReconnectPolicy reconnects) {
        ConnectOperation op = new ConnectOperation(settings, SettingValues.of(ConnectSettings.ALL, Map.of(
                ConnectSettings.CLIENT_COUNT.name(), Integer.toString(count), ConnectSettings.CLIENT_ID_TEMPLATE.name(),
                idTemplate, ConnectSettings.CLIENT_IDS_WITHIN_23.name(), "false")), reconnects);
        return sample(label, s -> op.run(context(), context().group(thread(thread), group), threadGroup(),
                thread, s));
    }

    public OperationResult subscribe(String label, String group, int thread, String filters, int qos) {
        SubscribeOperation op = new SubscribeOperation(SettingValues.of(SubscribeSettings.ALL, Map.of(
                SubscribeSettings.TOPIC_FILTERS.name(), filters, SubscribeSettings.QOS.name(), Integer.toString(qos),
                SubscribeSettings.SUBACK_TIMEOUT_MS.name(), "2000")));
        return sample(label, s -> op.run(context(), context().existingGroup(thread(thread), group),
                threadGroup(), thread, s));
    }

    /** {@code messages} measured messages of one sample, each acknowledgement waited for when {@code synchronous}. */
    public OperationResult publish(String label, String group, int thread, String topic, int qos, int messages,
            boolean synchronous) {
        return publish(label, group, thread, new PublishOperation(publishSettings(topic, qos, messages, synchronous, ""),
                payload(), PublishProperties.NONE));
    }

    /** {@code messages} QoS 1 requests of one sample, each acknowledgement waited for, replies asked on {@code replyTo}. */
    public OperationResult request(String label, String group, int thread, String topic, String replyTo, int messages) {
        return publish(label, group, thread, new PublishOperation(publishSettings(topic, 1, messages, true, replyTo),
                payload(), PublishProperties.NONE));
    }

    /**
     * A scheduled publisher's sample: every slot of {@code slots} before {@code untilMicros} sent at its time, the
     * thread's schedule offered to the engine's judgement at its first sample.
     */
    public OperationResult publishScheduled(String label, String group, int thread, String topic, int qos,
            PublishSlots slots, long untilMicros) {
        PublishOperation op = new PublishOperation(publishSettings(topic, qos, 1, false, ""), payload(),
                PublishProperties.NONE);
        runtime.publishSchedule().offer(context().samplerMetrics(label), slots);
        slots.sampleStarted();
        OperationResult r = sample(label, s -> op.runScheduled(context(), context().existingGroup(thread(thread), group),
                threadGroup(), thread, s, slots, untilMicros));
        slots.sampleEnded(untilMicros);
        runtime.publishSampleEnded();
        return r;
    }

    private static SettingValues publishSettings(String topic, int qos, int messages, boolean synchronous, String replyTo) {
        return SettingValues.of(PublishSettings.ALL, Map.of(PublishSettings.TOPIC.name(), topic,
                PublishSettings.QOS.name(), Integer.toString(qos),
                PublishSettings.MESSAGES_PER_SAMPLE.name(), Integer.toString(messages),
                PublishSettings.MODE.name(), synchronous ? "SYNC" : "ASYNC",
                PublishSettings.MAX_IN_FLIGHT.name(), "1000", PublishSettings.MAX_IN_FLIGHT_PER_CLIENT.name(), "1000",
                PublishSettings.ACK_TIMEOUT_MS.name(), "2000", PublishSettings.RESPONSE_TOPIC.name(), replyTo));
    }

    /** A publisher of QoS {@code qos} that holds up to {@code bound} messages per disconnected client. */
    public static PublishOperation bufferingPublisher(String topic, int qos, int bound) {
        Map<String, String> v = new java.util.HashMap<>(Map.of(PublishSettings.TOPIC.name(), topic,
                PublishSettings.QOS.name(), Integer.toString(qos), PublishSettings.MODE.name(), "SYNC",
                PublishSettings.ACK_TIMEOUT_MS.name(), "2000", PublishSettings.OFFLINE_BUFFER.name(), Integer.toString(bound)));
        return new PublishOperation(SettingValues.of(PublishSettings.ALL, v), payload(), PublishProperties.NONE);
    }

    /** One sample of {@code op}, which keeps its state (an offline buffer) from one sample to the next. */
    public OperationResult publish(String label, String group, int thread, PublishOperation op) {
        OperationResult r = sample(label, s -> op.run(context(), context().existingGroup(thread(thread), group),
                threadGroup(), thread, s));
        runtime.publishSampleEnded();
        return r;
    }

    private static PayloadSource payload() {
        return PayloadSource.create(PayloadSource.Kind.RANDOM, null, 32, null, true);
    }

    public OperationResult disconnect(String label, String group, int thread) {
        return disconnect(label, group, thread, 100);
    }

    /** A Disconnect that waits up to {@code drainTimeoutMillis} for what the group's subscribers are still owed. */
    public OperationResult disconnect(String label, String group, int thread, long drainTimeoutMillis) {
        DisconnectOperation op = new DisconnectOperation(SettingValues.of(DisconnectSettings.ALL, Map.of(
                DisconnectSettings.DISCONNECT_TIMEOUT_MS.name(), "2000", DisconnectSettings.DRAIN_TIMEOUT_MS.name(),
                Long.toString(drainTimeoutMillis))));
        return sample(label, s -> op.run(context(), context().existingGroup(thread(thread), group)));
    }

    /** An MQTT Outage sample: {@code outage} DROP or BROKER_RESTART, as the Outage sampler runs it. */
    public OperationResult outage(String label, String group, int thread, String outage, int clientPercent,
            long recoveryBoundMs, long awaitRecoveryMs) {
        return outage(label, group, thread, outage, clientPercent, 0, recoveryBoundMs, awaitRecoveryMs);
    }

    /** An MQTT Outage sample whose DROP keeps its clients away {@code offlineMs} at least. */
    public OperationResult outage(String label, String group, int thread, String outage, int clientPercent,
            long offlineMs, long recoveryBoundMs, long awaitRecoveryMs) {
        OutageOperation op = new OutageOperation(SettingValues.of(OutageSettings.ALL, Map.of(
                OutageSettings.OUTAGE.name(), outage, OutageSettings.CLIENT_PERCENT.name(), Integer.toString(clientPercent),
                OutageSettings.OFFLINE_MS.name(), Long.toString(offlineMs),
                OutageSettings.RECOVERY_BOUND_MS.name(), Long.toString(recoveryBoundMs),
                OutageSettings.AWAIT_RECOVERY_MS.name(), Long.toString(awaitRecoveryMs))));
        return sample(label, s -> op.run(context(), context().existingGroup(thread(thread), group)));
    }

    /** An MQTT Outage sample expecting a broker restart within {@code restartWindowMs} of it (0: until the run's end). */
    public OperationResult restartExpected(String label, long restartWindowMs, long recoveryBoundMs) {
        OutageOperation op = new OutageOperation(SettingValues.of(OutageSettings.ALL, Map.of(
                OutageSettings.OUTAGE.name(), "BROKER_RESTART", OutageSettings.RECOVERY_BOUND_MS.name(),
                Long.toString(recoveryBoundMs), OutageSettings.RESTART_WINDOW_MS.name(), Long.toString(restartWindowMs))));
        return sample(label, s -> op.run(context(), null));
    }

    /** Waits, at most 2 s, until the engine's {@code count} is {@code value}: an event of the broker's reached it. */
    public void awaitCount(Count count, long value) {
        await().atMost(Duration.ofSeconds(2)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                .until(() -> context().metrics().sum(count) == value);
    }

    /**
     * Returns once this JVM's clock (every in-memory engine's) has moved on by {@code micros}: the send-time index and
     * the clocks' bound resolve time, not order, so a test that needs a publish placed before or after a subscription
     * leaves more than both between them.
     */
    public static void letTheClockMoveOn(long micros) {
        long until = MicroClock.nowMicros() + micros;
        await().atMost(Duration.ofSeconds(2)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> MicroClock.nowMicros() > until);
    }

    /** Ends the run: drain, close, summary (written to the results directory). */
    public RunSummary shutdown() {
        return runtime.shutdown();
    }

    private interface Operation {
        OperationResult run(SamplerMetrics sampler);
    }

    private OperationResult sample(String label, Operation op) {
        SamplerMetrics sampler = context().samplerMetrics(label);
        OperationResult r = op.run(sampler);
        if (!r.ok && !r.counted) {
            context().metrics().failed(FailureTally.Kind.SAMPLE, sampler, r.code + ": " + r.message);
        }
        return r;
    }

    private Object thread(int thread) {
        return threads.computeIfAbsent("thread-" + thread, k -> new Object());
    }

    private int threadGroup() {
        return runtime.threadGroupNumber("threads");
    }
}
