package io.mqttload.clock;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ControlConnection;
import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.MqttConnector;
import io.mqttload.measure.MicroClock;

/**
 * One engine's side of the clock exchange of a run, through the broker the rendezvous uses: it answers other engines'
 * requests with its own clock's timestamps, and measures its own clock against the run's reference, the engine with
 * the lowest engine number, once around the start of production and once at the end of the run
 * ({@link OffsetEstimator}). The clock read is {@link MicroClock}'s, the one the payload header's send time comes
 * from, so what is measured is what shifts cross-engine latencies.
 *
 * <p>Every engine announces itself with a retained message before its first rendezvous announcement, so once a
 * barrier has released, every engine of that barrier is known. Requests and answers are QoS 0 (a lost one is
 * simply not a sample) on topics of their own under the run id, on a control client of their own, outside the
 * load's counters. Every wait is bounded by the clock timeout: a reference that never answers costs each phase at
 * most that, and the figures then say why they are missing. Nothing here can fail the run. The answering side, and
 * the messages' format, are {@link ClockResponder}'s.
 */
public final class ClockSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClockSync.class);
    private static final String ROOT = "mqttload/clock/";
    /** One request waits this long for its answer before the next is sent: a lost QoS 0 message is not a wait. */
    private static final long ANSWER_WAIT_MILLIS = 500;
    /** Requests in a row left unanswered after which the reference is taken as gone (it ended its run, or died). */
    private static final int UNANSWERED_IN_A_ROW = 3;
    /**
     * Bound on clearing the announcement and disconnecting at close: the announcement is tidiness, and a broker that
     * stopped answering must not hold the end of the run for the connect timeout twice.
     */
    private static final long CLOSE_WAIT_MILLIS = 1_000;

    private final ControlConnection client;
    private final String base;
    private final String engineId;
    private final int engineNumber;
    private final int engines;
    private final int samples;
    private final long timeoutMillis;
    private final long operationTimeoutMillis;
    /** Engines that announced themselves, by engine number: the lowest is the reference. */
    private final ConcurrentSkipListMap<Integer, String> present = new ConcurrentSkipListMap<>();
    /** Notified when an engine announces itself, production starts or the run ends. */
    private final Object changed = new Object();
    private final ClockResponder responder;
    private final ExecutorService measurer;
    private final AtomicInteger nextSequence = new AtomicInteger();
    private final ClockFigures figures = new ClockFigures();
    /** Every engine's offset before production, as the engines publish them under {@code offsets/<engine number>}. */
    private final SharedOffsets offsets = new SharedOffsets();
    private volatile Pending pending;
    /** System.nanoTime() when production started or the run began to end, or -1: the reference is awaited until then. */
    private volatile long goNanos = -1;
    private volatile boolean closing;
    /** System.nanoTime() at {@link #endOfRun()}, or -1: the end-of-run waits are bounded from there. */
    private volatile long endNanos = -1;
    private Future<?> afterTask;
    /** Requests sent by the last exchange; read and written on the measuring thread only. */
    private int lastRequests;

    /** The request in flight and its answer. */
    private static final class Pending {
        final int reference;
        final int sequence;
        final long t1;
        final CompletableFuture<OffsetEstimator.Sample> answer = new CompletableFuture<>();

        Pending(int reference, int sequence, long t1) {
            this.reference = reference;
            this.sequence = sequence;
            this.t1 = t1;
        }
    }

    private ClockSync(MqttConnector connector, ConnectionSettings settings, String runId, String engineId,
            int engineNumber, int engines, int samples, long timeoutMillis) {
        this.engineId = engineId;
        this.engineNumber = engineNumber;
        this.engines = engines;
        this.samples = samples;
        this.timeoutMillis = timeoutMillis;
        this.operationTimeoutMillis = settings.connectTimeoutMs();
        this.base = ROOT + runId.replaceAll("[^A-Za-z0-9_.-]", "_") + "/";
        this.measurer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mqttload-clock-" + engineId);
            t.setDaemon(true);
            return t;
        });
        // Within 23 characters, distinct per engine and run, never one of the load's or the rendezvous's client ids.
        String id = "clk-" + Integer.toHexString(engineNumber) + "-" + Integer.toHexString((runId + "/" + engineId).hashCode());
        try {
            // No reconnect: a clock exchange that loses its broker is reported as not measured, not retried for ever.
            this.client = connector.controlConnection(id, settings, operationTimeoutMillis, null, this::onMessage);
        } catch (IllegalStateException e) {
            measurer.shutdownNow();
            throw new IllegalStateException("clock exchange client " + e.getMessage(), e);
        }
        // Nothing arrives before announce() subscribes, so the responder may come after the client.
        this.responder = new ClockResponder(engineNumber, engineId, (requester, answer) -> client.publish(
                answerTopic(requester), answer, 0, false));
    }

    /**
     * Connects, subscribes, announces this engine (each bounded) and begins measuring against the reference in the
     * background; returns before any exchange.
     *
     * @param engines       how many engines take part ({@code mqttload.engines}): the reference is chosen once all of
     *                      them announced themselves, or production started
     * @param samples       exchanges per phase; the one with the smallest round trip is kept
     * @param timeoutMillis bound on each phase, and on waiting for the reference once production started
     * @throws IllegalStateException naming what failed, when the broker could not be used
     */
    public static ClockSync start(ConnectionSettings settings, String runId, String engineId, int engineNumber,
            int engines, int samples, long timeoutMillis) {
        return start(HiveMqConnector.INSTANCE, settings, runId, engineId, engineNumber, engines, samples, timeoutMillis);
    }

    /** As {@link #start(ConnectionSettings, String, String, int, int, int, long)}, through the run's transport. */
    public static ClockSync start(MqttConnector connector, ConnectionSettings settings, String runId, String engineId,
            int engineNumber, int engines, int samples, long timeoutMillis) {
        ClockSync sync = new ClockSync(connector, settings, runId, engineId, engineNumber, engines, samples,
                timeoutMillis);
        try {
            sync.announce();
        } catch (IllegalStateException e) {
            sync.close();
            throw e;
        }
        sync.measurer.execute(sync::measureBefore);
        return sync;
    }

    private String requestTopic(int number) {
        return base + number + "/request";
    }

    private String answerTopic(int number) {
        return base + number + "/answer";
    }

    private void announce() {
        present.put(engineNumber, engineId);
        client.subscribe(requestTopic(engineNumber), 0, operationTimeoutMillis);
        client.subscribe(answerTopic(engineNumber), 0, operationTimeoutMillis);
        client.subscribe(base + "engines/+", 1, operationTimeoutMillis);
        client.subscribe(base + "offsets/+", 1, operationTimeoutMillis);
        // Acknowledged before the caller announces its first rendezvous arrival: once a barrier released, every engine
        // of it is known here.
        String failure = ControlConnection.await(client.publish(base + "engines/" + engineNumber,
                engineId.getBytes(StandardCharsets.UTF_8), 1, true), operationTimeoutMillis);
        if (failure != null) {
            throw new IllegalStateException("clock exchange: announcing engine " + engineId + " failed: " + failure);
        }
    }

    /** Production started (the first barrier released): the reference is chosen now at the latest. */
    public void productionStarted() {
        if (goNanos < 0) {
            goNanos = System.nanoTime();
        }
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    /** The run is ending (before the drain): measures again in the background, then tells the reference it is done. */
    public synchronized void endOfRun() {
        if (endNanos < 0) {
            endNanos = System.nanoTime();
        }
        productionStarted();
        if (afterTask == null) {
            afterTask = measurer.submit(this::measureAfter);
        }
    }

    /**
     * What was measured: waits for the end-of-run exchange, and, as the engine others measure against, for every
     * engine that asked before production to say it is done, all within the clock timeout from {@link #endOfRun()}
     * (the drain ran meanwhile, so usually nothing is left to wait for).
     */
    public ClockFigures finish() {
        long end = endNanos;
        long deadline = Math.max((end < 0 ? System.nanoTime() : end) + TimeUnit.MILLISECONDS.toNanos(timeoutMillis),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_WAIT_MILLIS));
        Future<?> after;
        synchronized (this) {
            after = afterTask;
        }
        if (after != null) {
            try {
                after.get(Math.max(1, remainingMillis(deadline)), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                after.cancel(true);
                record(f -> f.addReason("after: not finished within " + timeoutMillis + " ms of the run's end"));
            } catch (ExecutionException e) {
                record(f -> f.addReason("after: " + e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        responder.awaitRequestersDone(deadline);
        return snapshot();
    }

    /** What has been measured so far, as a copy. */
    public ClockFigures snapshot() {
        synchronized (figures) {
            ClockFigures copy = new ClockFigures();
            copy.referenceEngine = figures.referenceEngine;
            copy.referenceNumber = figures.referenceNumber;
            copy.reference = figures.reference;
            copy.before = figures.before;
            copy.after = figures.after;
            copy.notMeasured = figures.notMeasured;
            return copy;
        }
    }

    private void record(Consumer<ClockFigures> update) {
        synchronized (figures) {
            update.accept(figures);
        }
    }

    private void measureBefore() {
        try {
            Map.Entry<Integer, String> ref = awaitReference();
            if (ref == null) {
                return;
            }
            record(f -> {
                f.referenceNumber = ref.getKey();
                f.referenceEngine = ref.getValue();
                f.reference = ref.getKey() == engineNumber;
            });
            if (ref.getKey() == engineNumber) {
                shareOffset(0, 0);
                return;
            }
            OffsetEstimator.Estimate e = exchange(ref.getKey(), ClockResponder.BEFORE);
            record(f -> {
                if (e != null) {
                    f.before = e;
                } else {
                    f.addReason("before: " + ref.getValue() + " answered none of " + lastRequests + " requests");
                }
            });
            if (e != null) {
                shareOffset(e.offsetMicros, e.boundMicros);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            record(f -> f.addReason("before: interrupted (the run ended first)"));
        } catch (RuntimeException e) {
            log.warn("MQTT clock exchange before production failed", e);
            record(f -> f.addReason("before: " + e));
        }
    }

    /**
     * This engine's offset before production, to every engine of the run (retained, so that one subscribing later
     * still gets it), and to its own listener at once.
     */
    private void shareOffset(long offsetMicros, long boundMicros) {
        offsets.known(engineNumber, offsetMicros, boundMicros);
        client.publish(base + "offsets/" + engineNumber, SharedOffsets.encode(offsetMicros, boundMicros), 1, true);
    }

    /**
     * Tells {@code listener} every engine's offset before production (engine number, {offset, bound} in µs against the
     * reference) as it becomes known here, those known already at once; one listener.
     */
    public void onOffsets(BiConsumer<Integer, long[]> listener) {
        offsets.listen(listener);
    }

    private void measureAfter() {
        int ref;
        String refId;
        synchronized (figures) {
            ref = figures.referenceNumber;
            refId = figures.referenceEngine;
        }
        if (ref < 0 || ref == engineNumber) {
            return;
        }
        try {
            OffsetEstimator.Estimate e = exchange(ref, ClockResponder.AFTER);
            record(f -> {
                if (e != null) {
                    f.after = e;
                } else {
                    f.addReason("after: " + refId + " answered none of " + lastRequests + " requests (it may have ended"
                            + " its run first)");
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            log.warn("MQTT clock exchange at the end of the run failed", e);
            record(f -> f.addReason("after: " + e));
        }
        // The reference answers until every engine that asked is done: tell it so.
        client.publish(requestTopic(ref), ClockResponder.request(engineNumber, ClockResponder.DONE, ClockResponder.AFTER, 0), 1,
                false);
    }

    /**
     * The engine with the lowest number among those announced, once all {@code engines} have announced themselves,
     * or once production started and at most the clock timeout later; null (and why) when none.
     */
    private Map.Entry<Integer, String> awaitReference() throws InterruptedException {
        synchronized (changed) {
            // Once the run ends there is nobody left to wait for: the reference is chosen among those seen.
            while (!closing && endNanos < 0 && (present.size() < engines || engines == 1 && goNanos < 0)) {
                long go = goNanos;
                if (go < 0) {
                    // Until production starts there is no bound here but the run's own: the engines are still
                    // connecting, and every engine of the first barrier announces itself before it arrives.
                    changed.wait(1000);
                    continue;
                }
                long left = timeoutMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - go);
                if (left <= 0) {
                    break;
                }
                changed.wait(left);
            }
        }
        if (closing) {
            return null;
        }
        Map.Entry<Integer, String> first = present.firstEntry();
        if (present.size() < engines) {
            record(f -> f.addReason(String.format(Locale.ROOT, "%d of %d engines announced themselves for the"
                    + " clock exchange (seen: %s); reference chosen among them", present.size(), engines, present.values())));
        }
        return first;
    }

    /** Up to {@code samples} exchanges with the reference, one at a time, within the clock timeout. */
    private OffsetEstimator.Estimate exchange(int reference, byte phase) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<OffsetEstimator.Sample> answered = new ArrayList<>();
        int unansweredInARow = 0;
        lastRequests = 0;
        for (int i = 0; i < samples && !closing && unansweredInARow < UNANSWERED_IN_A_ROW; i++) {
            long left = remainingMillis(deadline);
            if (left <= 0) {
                break;
            }
            lastRequests++;
            int sequence = nextSequence.incrementAndGet();
            long t1 = MicroClock.nowMicros();
            Pending p = new Pending(reference, sequence, t1);
            pending = p;
            client.publish(requestTopic(reference), ClockResponder.request(engineNumber, sequence, phase, t1), 0, false);
            try {
                answered.add(p.answer.get(Math.min(left, ANSWER_WAIT_MILLIS), TimeUnit.MILLISECONDS));
                unansweredInARow = 0;
            } catch (TimeoutException | ExecutionException e) {
                unansweredInARow++;
                log.debug("MQTT clock exchange: request {} to engine {} not answered: {}", sequence, reference, e.toString());
            } finally {
                pending = null;
            }
        }
        return OffsetEstimator.best(answered);
    }

    /** On the control client's event loop: timestamps first, then nothing that blocks. */
    private void onMessage(String topic, byte[] payload) {
        long now = MicroClock.nowMicros();
        if (topic.equals(requestTopic(engineNumber)) && payload.length == ClockResponder.REQUEST_BYTES) {
            responder.onRequest(ByteBuffer.wrap(payload), now);
        } else if (topic.equals(answerTopic(engineNumber)) && payload.length == ClockResponder.ANSWER_BYTES) {
            onAnswer(ByteBuffer.wrap(payload), now);
        } else if (topic.startsWith(base + "engines/")) {
            onPresence(topic.substring(base.length() + "engines/".length()), payload);
        } else if (topic.startsWith(base + "offsets/")) {
            try {
                offsets.received(Integer.parseInt(topic.substring(base.length() + "offsets/".length())), payload);
            } catch (NumberFormatException e) {
                log.debug("MQTT clock exchange: an offset on {} names no engine", topic);
            }
        }
    }

    private void onAnswer(ByteBuffer b, long t4) {
        int from = b.getInt();
        int sequence = b.getInt();
        long t1 = b.getLong();
        long t2 = b.getLong();
        long t3 = b.getLong();
        Pending p = pending;
        // A late answer to an earlier request is not a sample of this one.
        if (p != null && p.reference == from && p.sequence == sequence && p.t1 == t1) {
            p.answer.complete(new OffsetEstimator.Sample(t1, t2, t3, t4));
        }
    }

    private void onPresence(String level, byte[] payload) {
        int number;
        try {
            number = Integer.parseInt(level);
        } catch (NumberFormatException e) {
            return;
        }
        if (payload.length == 0) {
            // An engine that ended clears its announcement; the reference chosen stays.
            return;
        }
        present.put(number, new String(payload, StandardCharsets.UTF_8));
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    private static long remainingMillis(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }

    /** Clears this engine's announcement and disconnects (bounded); stops its threads. */
    @Override
    public void close() {
        closing = true;
        synchronized (changed) {
            changed.notifyAll();
        }
        measurer.shutdownNow();
        responder.close();
        String failure = ControlConnection.await(client.publish(base + "engines/" + engineNumber, new byte[0], 1, true),
                CLOSE_WAIT_MILLIS);
        String offsetFailure = ControlConnection.await(client.publish(base + "offsets/" + engineNumber, new byte[0], 1,
                true), CLOSE_WAIT_MILLIS);
        failure = failure != null ? failure : offsetFailure;
        String disconnect = client.close(CLOSE_WAIT_MILLIS);
        if (failure != null || disconnect != null) {
            log.debug("MQTT clock exchange client did not close cleanly: {}", failure != null ? failure : disconnect);
        }
    }
}
