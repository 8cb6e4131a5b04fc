package io.mqttload.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.mqttload.client.Errors;
import io.mqttload.client.PublishProperties;
import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.NameTemplate;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReplyTracker;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.traffic.LoadClient;

/**
 * Publishes the messages of one sample, spread round-robin over the thread's clients. Synchronous
 * mode waits for each message's PUBACK / PUBCOMP before the next (as mqtt-bm-latency does);
 * asynchronous mode keeps at most {@code maxInFlight} unacknowledged messages per thread and
 * returns once every message is handed to its client.
 */
public final class PublishOperation {
    public static final Set<String> TOPIC_PLACEHOLDERS = Set.of("engine", "engineNumber", "run", "threadGroup", "thread", "client",
            "msg");

    /** The intended send time of an unpaced publisher's messages: none. */
    public static final long NO_INTENDED_TIME = -1;

    static final String NOT_CONNECTED = "client not connected (its connect failed or the connection was lost)";

    /** Said by a send from an event loop that found an in-flight window full: nothing sent, try again later. */
    static final OperationResult WINDOW_FULL = OperationResult.failed("IN_FLIGHT_FULL", "in-flight window full");

    private final NameTemplate topic;
    private final int qos;
    private final boolean retain;
    private final PayloadSource payload;
    private final int messagesPerSample;
    /** The sampler's own schedule in messages per second; 0: none. */
    private final double rate;
    private final boolean ratePerClient;
    /** Messages held while a client is disconnected (this thread's clients: the operation is the thread's own). */
    private final OfflineBuffer offline;
    private final boolean synchronous;
    private final int maxInFlight;
    private final int maxInFlightPerClient;
    private final long ackTimeoutMillis;
    private final boolean perMessageTopic;
    /** MQTT 5 properties of every message; a response topic makes each message a request. */
    private final PublishProperties properties;
    private final NameTemplate responseTopic;
    private final SetupRecorder.StepRef step = new SetupRecorder.StepRef("publish");

    /**
     * @param settings   the sampler's settings, checked as they were read; the topic templates are checked here, where
     *                   they are compiled
     * @param payload    built from the payload settings
     * @param properties MQTT 5 properties of every message
     */
    public PublishOperation(SettingValues settings, PayloadSource payload, PublishProperties properties) {
        String topicTemplate = settings.get(PublishSettings.TOPIC);
        this.topic = NameTemplate.compile("topic", Checks.notBlank("topic", topicTemplate), TOPIC_PLACEHOLDERS);
        Checks.publishTopic("topic", topicTemplate);
        this.qos = settings.get(PublishSettings.QOS);
        this.retain = settings.get(PublishSettings.RETAIN);
        this.payload = payload;
        this.messagesPerSample = settings.get(PublishSettings.MESSAGES_PER_SAMPLE);
        this.rate = settings.get(PublishSettings.RATE);
        this.ratePerClient = settings.get(PublishSettings.RATE_PER).equals("CLIENT");
        this.offline = new OfflineBuffer(settings.get(PublishSettings.OFFLINE_BUFFER));
        if (rate > 0 && messagesPerSample != 1) {
            throw new InvalidSettingException("messagesPerSample", messagesPerSample, "applies to a sampler without a"
                    + " rate; with rate set, the schedule says when each message goes, and a sample is one second of the"
                    + " thread's slots (leave messagesPerSample at 1)");
        }
        this.synchronous = settings.get(PublishSettings.MODE).equals("SYNC");
        this.maxInFlight = settings.get(PublishSettings.MAX_IN_FLIGHT);
        this.maxInFlightPerClient = settings.get(PublishSettings.MAX_IN_FLIGHT_PER_CLIENT);
        this.ackTimeoutMillis = settings.get(PublishSettings.ACK_TIMEOUT_MS);
        this.perMessageTopic = topic.uses("msg");
        this.properties = properties;
        String responseTopicTemplate = settings.get(PublishSettings.RESPONSE_TOPIC);
        String response = responseTopicTemplate == null ? "" : responseTopicTemplate.trim();
        if (response.isEmpty()) {
            this.responseTopic = null;
        } else {
            Checks.publishTopic("responseTopic", response);
            if (!payload.isMeasured()) {
                throw new InvalidSettingException("responseTopic", response, "needs measureLatency = true: a reply"
                        + " carries its request's measurement header back, which says which request it answers");
            }
            this.responseTopic = NameTemplate.compile("responseTopic", response, TOPIC_PLACEHOLDERS);
        }
    }

    /** Refuses MQTT 5 properties for a thread whose clients speak MQTT 3.1.1, naming the first one set. */
    private void checkVersion(ClientGroup group) {
        String field = responseTopic != null ? "responseTopic" : properties.firstFieldSet();
        if (field != null) {
            group.requireMqtt5("property", field, field.equals("responseTopic") ? responseTopic.source()
                    : properties.valueOf(field));
        }
    }

    public int messagesPerSample() {
        return messagesPerSample;
    }

    long ackTimeoutMillis() {
        return ackTimeoutMillis;
    }

    /** What a sample's messages share; a scheduled sample sent from the clients' event loops has a batch per client. */
    PublishBatch batch(RunContext run, ClientGroup group, int threadGroup, int thread, SamplerMetrics sampler) {
        return new PublishBatch(run.metrics(), sampler, group, new PlaceholderValues(run.config(), threadGroup, thread),
                synchronous ? null : group.inFlight(maxInFlight), new PublishCounts(run.metrics(), sampler),
                step.in(run, sampler, this::setup));
    }

    /** Whether the sampler keeps a schedule of its own ({@code rate} set). */
    public boolean scheduled() {
        return rate > 0;
    }

    /** A new schedule for a thread of {@code clients} clients, starting at {@code anchorMicros}. */
    public PublishSlots slots(int clients, int seed, long anchorMicros) {
        return new PublishSlots(rate, ratePerClient, clients, seed, anchorMicros);
    }

    /** The settings a report's setup shows. */
    Map<String, String> setup() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("topic", topic.source());
        s.put("QoS", Integer.toString(qos));
        s.put("payload", payload.describe());
        if (retain) {
            s.put("retain", "yes");
        }
        if (rate > 0) {
            s.put("schedule", rate + " msg/s per " + (ratePerClient ? "client" : "thread") + ", each message in its slot");
        } else {
            s.put("messages per sample", Integer.toString(messagesPerSample));
        }
        if (offline.enabled()) {
            s.put("offline buffer", "up to " + offline.bound() + " messages per disconnected client");
        }
        s.put("acks", synchronous ? "waited for each" : "up to " + maxInFlight + " in flight per thread");
        if (responseTopic != null) {
            s.put("response topic", responseTopic.source());
        }
        return s;
    }

    public OperationResult run(RunContext run, ClientGroup group, int threadGroup, int thread,
            SamplerMetrics sampler) {
        return run(run, group, threadGroup, thread, sampler, NO_INTENDED_TIME);
    }

    /**
     * One sample whose messages were meant to be sent at {@code intendedMicros} (wall clock, µs; {@link
     * #NO_INTENDED_TIME}: the publisher is not paced, and its messages have no intended time).
     */
    public OperationResult run(RunContext run, ClientGroup group, int threadGroup, int thread,
            SamplerMetrics sampler, long intendedMicros) {
        if (group == null || group.size() == 0) {
            return OperationResult.failed("NOT_CONNECTED", "no MQTT client in the sampler's client group");
        }
        checkVersion(group);
        String earlierFailures = group.takeAsyncFailures();
        PublishBatch b = batch(run, group, threadGroup, thread, sampler);
        try {
            return publishAll(b, earlierFailures, intendedMicros);
        } finally {
            // Counted once per sample and node rather than per message: shared counters less on the hot path.
            b.counts.book();
        }
    }

    /**
     * One sample of a scheduled sampler: sends every slot of {@code slots} before {@code untilMicros} (wall clock, µs),
     * each at its time, the ones already due at once (catching up, as fast as the in-flight bounds allow); each message's
     * intended send time is its slot. The sample lasts until {@code untilMicros}, not until its last slot: a thread's
     * samples then tile its time, so a Runtime Controller or a thread group's duration ends every thread after the same
     * number of whole periods (ending at the last slot, a thread began one more period whenever that slot fell less
     * than the controller's own head start before the period's end, and production ended ragged by up to a period).
     */
    public OperationResult runScheduled(RunContext run, ClientGroup group, int threadGroup, int thread,
            SamplerMetrics sampler, PublishSlots slots, long untilMicros) {
        if (group == null || group.size() == 0) {
            return OperationResult.failed("NOT_CONNECTED", "no MQTT client in the sampler's client group");
        }
        checkVersion(group);
        List<LoadClient> clients = group.clients();
        if (!synchronous && LoopSlots.everyClientHasALoop(clients)) {
            return new LoopSlots(this, run, group, threadGroup, thread, sampler, slots, untilMicros).run();
        }
        PublishBatch b = batch(run, group, threadGroup, thread, sampler);
        PublishCounts counts = b.counts;
        String earlierFailures = group.takeAsyncFailures();
        long messages = 0;
        try {
            while (true) {
                int c = slots.earliestClient();
                long at = slots.nextSlotMicros(c);
                if (at >= untilMicros) {
                    break;
                }
                if (!waitUntil(at)) {
                    return OperationResult.failed("INTERRUPTED", "interrupted after " + counts.sent + " messages",
                            counts.bytes);
                }
                long intended = slots.take(c);
                OperationResult stop = publishOne(b, clients.get(c % clients.size()), (int) Math.min(Integer.MAX_VALUE,
                        messages), intended, messages + 1);
                messages++;
                if (stop != null) {
                    return stop;
                }
            }
            // Interrupted here, every slot of the period was sent: the sample stands.
            waitUntil(untilMicros);
            return outcome(b, earlierFailures, messages);
        } finally {
            counts.book();
        }
    }

    /** Parks until {@code micros} (wall clock); false when interrupted. */
    static boolean waitUntil(long micros) {
        long left;
        while ((left = micros - MicroClock.nowMicros()) > 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(left));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private OperationResult publishAll(PublishBatch b, String earlierFailures, long intendedMicros) {
        for (int i = 0; i < messagesPerSample; i++) {
            OperationResult stop = publishOne(b, b.group.nextClient(), i, intendedMicros, messagesPerSample);
            if (stop != null) {
                return stop;
            }
        }
        return outcome(b, earlierFailures, messagesPerSample);
    }

    private OperationResult outcome(PublishBatch b, String earlierFailures, long messages) {
        return outcome(b.failed, b.firstError, b.counts.sent, b.counts.bytes, earlierFailures, messages);
    }

    OperationResult outcome(int failed, String firstError, long sent, long bytes, String earlierFailures, long messages) {
        if (failed > 0) {
            return OperationResult.failedCounted("PUBLISH_FAILED", failed + " of " + messages
                    + " publishes failed; first: " + firstError, bytes);
        }
        if (earlierFailures != null) {
            return OperationResult.failedCounted("ASYNC_PUBLISH_FAILED", earlierFailures, bytes);
        }
        return OperationResult.ok((synchronous ? "published and acknowledged " : "published ") + sent
                + " message(s)", bytes);
    }

    /**
     * Publishes message {@code i} of the sample on {@code client}, meant to be sent at {@code intendedMicros}: null when
     * the sample goes on (a failure of this message is counted in {@code b}), or the result that ends the sample.
     */
    OperationResult publishOne(PublishBatch b, LoadClient client, int i, long intendedMicros, long messages) {
        if (!offline.enabled()) {
            return send(b, client, i, intendedMicros, messages);
        }
        if (!client.isConnected()) {
            // A device keeps what it meant to send while away, up to its buffer; not a failure.
            b.metrics.count(offline.hold(client, intendedMicros, i) ? Count.PUBLISH_BUFFERED : Count.PUBLISH_BUFFER_DROPPED);
            return null;
        }
        // Connected again: what was held goes first, in order, each with its own intended send time.
        for (OfflineBuffer.Held h = offline.peek(client); h != null && client.isConnected(); h = offline.peek(client)) {
            int sentBefore = b.counts.sent;
            OperationResult stop = send(b, client, h.msg, h.intendedMicros, messages);
            if (b.counts.sent > sentBefore) {
                offline.remove(client);
                b.metrics.count(Count.PUBLISHED_FROM_BUFFER);
            }
            if (stop != null) {
                return stop;
            }
            if (b.counts.sent == sentBefore) {
                break;
            }
        }
        return send(b, client, i, intendedMicros, messages);
    }

    /** Sends message {@code i} now: null when the sample goes on, or the result that ends it. */
    private OperationResult send(PublishBatch b, LoadClient client, int i, long intendedMicros, long messages) {
        EngineMetrics metrics = b.metrics;
        SamplerMetrics sampler = b.sampler;
        PlaceholderValues values = b.values;
        Semaphore window = b.window;
        PublishCounts counts = b.counts;
        values.client = client.index();
        values.msg = i;
        String topicName = perMessageTopic ? topic.expand(values) : client.topic(topic, values);
        if (!topic.isConstant() && (topicName.isEmpty() || topicName.indexOf('+') >= 0 || topicName.indexOf('#') >= 0)) {
            return OperationResult.failed("BAD_TOPIC", "topic = '" + topic.source() + "' expands to '" + topicName
                    + "', which is not a valid publish topic");
        }
        if (!client.isConnected()) {
            // An attempt without a connection: failed, not published, and no sequence number spent on it.
            metrics.publishNotSent(sampler, NOT_CONNECTED);
            metrics.publishFailedOf(client.clientId(), false);
            b.failed++;
            if (b.firstError == null) {
                b.firstError = client.clientId() + " on '" + topicName + "': " + NOT_CONNECTED;
            }
            return null;
        }
        PublishStream stream = client.stream(topicName);
        Semaphore clientWindow = window == null ? null : client.inFlight(maxInFlightPerClient);
        if (window != null && b.onLoop) {
            if (!tryAcquire(window, clientWindow)) {
                return WINDOW_FULL;
            }
        } else if (window != null) {
            String full = acquire(window, clientWindow, client);
            if (full != null) {
                return OperationResult.failed(full.startsWith("interrupted") ? "INTERRUPTED" : "IN_FLIGHT_FULL",
                        "published " + counts.sent + " of " + messages + ": " + full, counts.bytes);
            }
        }
        int sequence = stream.nextSequence();
        long start = MicroClock.nowMicros();
        // A message sent before its intended time (a timer's rounding) is on time: the lag is never negative.
        long lag = intendedMicros == NO_INTENDED_TIME ? -1 : Math.max(0, start - intendedMicros);
        byte[] body = payload.next(start, lag, stream.id(), sequence, client.nodeIndex());
        CompletableFuture<Void> ack = null;
        PublishProperties messageProperties = responseTopic == null ? properties
                : properties.withResponseTopic(responseTopic.expand(values));
        ReplyTracker request = null;
        if (responseTopic != null) {
            request = client.replies();
            request.expect(stream.id());
        }
        ClientGroup group = b.group;
        try {
            if (window != null) {
                ReplyTracker replies = request;
                client.publish(topicName, body, qos, retain, messageProperties, error -> {
                    clientWindow.release();
                    window.release();
                    settle(metrics, sampler, client, stream, sequence, start, lag, error, group, replies);
                });
            } else {
                ack = client.publish(topicName, body, qos, retain, messageProperties);
            }
        } catch (RuntimeException e) {
            if (window != null) {
                window.release();
                clientWindow.release();
            }
            stream.failed(sequence);
            metrics.publishNotSent(sampler, Errors.reason(e));
            metrics.publishFailedOf(client.clientId(), client.isConnected());
            return OperationResult.failedCounted("PUBLISH_FAILED", "publish to '" + topicName + "' rejected: "
                    + Errors.describe(e), counts.bytes);
        }
        stream.sent(sequence, start);
        counts.sent(client.node(), body.length);
        b.setupStep.ranOn(client);
        if (lag >= 0) {
            metrics.sentAfterIntended(sampler, lag);
        }
        if (window != null) {
            return null;
        }
        try {
            ack.get(ackTimeoutMillis, TimeUnit.MILLISECONDS);
            settle(metrics, sampler, client, stream, sequence, start, lag, null, null, request);
        } catch (ExecutionException e) {
            settle(metrics, sampler, client, stream, sequence, start, lag, e, null, request);
            b.failed++;
            if (b.firstError == null) {
                b.firstError = client.clientId() + " on '" + topicName + "': " + Errors.describe(e);
            }
        } catch (TimeoutException e) {
            String what = "no " + (qos == 2 ? "PUBCOMP" : "PUBACK") + " within " + ackTimeoutMillis + " ms";
            stream.failed(sequence);
            metrics.failed(FailureTally.Kind.PUBLISH, sampler, what);
            metrics.publishFailedOf(client.clientId(), client.isConnected());
            return OperationResult.failedCounted("ACK_TIMEOUT", what + " for " + client.clientId() + " on '" + topicName
                    + "'; sent " + counts.sent + " of " + messages, counts.bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OperationResult.failed("INTERRUPTED", "interrupted after " + counts.sent + " messages", counts.bytes);
        }
        return null;
    }

    /** Takes a place in the thread's and the client's windows if both have one now. */
    private static boolean tryAcquire(Semaphore threadWindow, Semaphore clientWindow) {
        if (threadWindow.tryAcquire()) {
            if (clientWindow.tryAcquire()) {
                return true;
            }
            threadWindow.release();
        }
        return false;
    }

    /** Takes a slot in the thread's and the client's windows, or says why not (null when taken). */
    private String acquire(Semaphore threadWindow, Semaphore clientWindow, LoadClient client) {
        if (tryAcquire(threadWindow, clientWindow)) {
            return null;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ackTimeoutMillis);
        try {
            if (!threadWindow.tryAcquire(ackTimeoutMillis, TimeUnit.MILLISECONDS)) {
                return maxInFlight + " messages of this thread stayed unacknowledged for " + ackTimeoutMillis + " ms";
            }
            if (!clientWindow.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                threadWindow.release();
                return maxInFlightPerClient + " messages of " + client.clientId() + " stayed unacknowledged for "
                        + ackTimeoutMillis + " ms";
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for an in-flight slot";
        }
    }

    private static void settle(EngineMetrics metrics, SamplerMetrics sampler, LoadClient client, PublishStream stream,
            int sequence, long startMicros, long lagMicros, Throwable error, ClientGroup asyncGroup, ReplyTracker request) {
        if (error == null) {
            metrics.acknowledged(sampler, client.node(), MicroClock.nowMicros() - startMicros, lagMicros);
            stream.acknowledged();
            if (request != null) {
                // Taken by the broker: from now on a reply is owed.
                metrics.count(Count.REQUESTS_PUBLISHED);
                request.requestAcknowledged();
            }
        } else {
            stream.failed(sequence);
            metrics.failed(FailureTally.Kind.PUBLISH, sampler, Errors.reason(error));
            metrics.publishFailedOf(client.clientId(), client.isConnected() && !Errors.isConnectionGone(error));
            if (asyncGroup != null) {
                asyncGroup.recordAsyncFailure(error);
            }
        }
    }
}
