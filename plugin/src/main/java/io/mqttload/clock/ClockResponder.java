package io.mqttload.clock;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.measure.MicroClock;

/**
 * The answering side of the clock exchange, and its wire format: a request is (requester's engine number, sequence,
 * phase, t1), an answer (this engine's number, sequence, t1, t2, t3), big-endian. Every engine answers, since any may
 * be the reference; it keeps answering at the end of the run until every engine that asked before production has
 * said it is done (a request with sequence {@link #DONE}), within a bound.
 */
final class ClockResponder {
    private static final Logger log = LoggerFactory.getLogger(ClockResponder.class);
    static final byte BEFORE = 0;
    static final byte AFTER = 1;
    /** A request's sequence number telling the reference that the requester has measured its last sample. */
    static final int DONE = -1;
    static final int REQUEST_BYTES = 17;
    static final int ANSWER_BYTES = 32;

    private final int engineNumber;
    /** Publishes an answer to the requester of that engine number. */
    private final BiConsumer<Integer, byte[]> send;
    private final Set<Integer> requesters = ConcurrentHashMap.newKeySet();
    private final Set<Integer> done = ConcurrentHashMap.newKeySet();
    private final Object changed = new Object();
    private final ExecutorService thread;

    ClockResponder(int engineNumber, String engineId, BiConsumer<Integer, byte[]> send) {
        this.engineNumber = engineNumber;
        this.send = send;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mqttload-clock-answers-" + engineId);
            t.setDaemon(true);
            return t;
        });
    }

    static byte[] request(int requester, int sequence, byte phase, long t1) {
        return ByteBuffer.allocate(REQUEST_BYTES).putInt(requester).putInt(sequence).put(phase).putLong(t1).array();
    }

    /** A request received at {@code t2} (this engine's clock), on the control client's event loop: nothing blocks. */
    void onRequest(ByteBuffer b, long t2) {
        int requester = b.getInt();
        int sequence = b.getInt();
        byte phase = b.get();
        long t1 = b.getLong();
        if (sequence == DONE) {
            done.add(requester);
            synchronized (changed) {
                changed.notifyAll();
            }
            return;
        }
        if (phase == BEFORE) {
            requesters.add(requester);
        }
        // Answered from a thread of its own: a publish is never called from the client's event loop. The hop is not in
        // the round trip: t3 is read just before the answer is handed to the client.
        try {
            thread.execute(() -> {
                long t3 = MicroClock.nowMicros();
                send.accept(requester, ByteBuffer.allocate(ANSWER_BYTES).putInt(engineNumber).putInt(sequence).putLong(t1)
                        .putLong(t2).putLong(t3).array());
            });
        } catch (RejectedExecutionException e) {
            // Closing: the requester counts an unanswered request, as for a lost message.
            log.debug("MQTT clock exchange: request {} of engine {} not answered, closing", sequence, requester);
        }
    }

    /** Waits until every engine that asked before production said it is done, at most until {@code deadlineNanos}. */
    void awaitRequestersDone(long deadlineNanos) {
        synchronized (changed) {
            while (!done.containsAll(requesters)) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
                if (left <= 0) {
                    Set<Integer> waiting = new TreeSet<>(requesters);
                    waiting.removeAll(done);
                    log.info("MQTT clock exchange: engine(s) {} did not say they were done within the clock timeout",
                            waiting);
                    return;
                }
                try {
                    changed.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    void close() {
        thread.shutdownNow();
    }
}
