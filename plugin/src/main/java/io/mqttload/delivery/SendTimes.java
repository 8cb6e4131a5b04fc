package io.mqttload.delivery;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When a stream's messages were sent, in a few words however long the stream: checkpoints (sequence number, send
 * time in {@link io.mqttload.measure.MicroClock} µs), a new one once the time has moved on by a 32nd of the stream's
 * age (at least 1 ms), together with the send before it, at most {@link #MAX_CHECKPOINTS} of them (every other one
 * dropped when full), the first and the last send always kept. A stream's messages leave in sequence order from one
 * thread, so any sequence number was sent between the checkpoints either side of it, no further apart than that step
 * until the index is thinned: a pause in publishing (where subscriptions are usually made) is bracketed by the sends
 * either side of it. Written by the stream's owning thread; read by any.
 */
final class SendTimes {
    /**
     * 32: about 90 bytes a stream in a summary and 0.6 KB of heap at most (a 10-minute stream at 1 msg/s reaches it);
     * 64 doubled both for twice the precision late in long streams.
     */
    static final int MAX_CHECKPOINTS = 32;
    /** Arrays grow from this: most streams of a short run, or of a slow one, never need the cap. */
    private static final int FIRST_CAPACITY = 4;
    static final long MIN_STEP_MICROS = 1_000;
    /** A new checkpoint once the time since the last one exceeds the stream's age over this. */
    private static final int AGE_SHARE = 32;

    /** Guarded by this. */
    private long[] sequences = new long[FIRST_CAPACITY];
    private long[] micros = new long[FIRST_CAPACITY];
    private int count;
    /** Owner thread only. */
    private boolean started;
    private long firstMicros;
    private long checkpointMicros;
    private long checkpointSequence;
    /** The latest send: its time is written before its sequence number, so a reader that sees the number sees its time or a later one. */
    private final AtomicLong lastMicros = new AtomicLong();
    private final AtomicLong lastSequence = new AtomicLong();

    /** Message {@code sequence} left the client at {@code nowMicros}; called by the stream's owning thread. */
    void sent(long sequence, long nowMicros) {
        if (!started || nowMicros - checkpointMicros >= Math.max(MIN_STEP_MICROS, (nowMicros - firstMicros) / AGE_SHARE)) {
            if (!started) {
                started = true;
                firstMicros = nowMicros;
            }
            checkpointMicros = nowMicros;
            long previous = lastSequence.get();
            if (previous > checkpointSequence) {
                // The send before this one ends the step before it: what was sent in between is known to the step.
                checkpoint(previous, lastMicros.get());
            }
            checkpointSequence = sequence;
            checkpoint(sequence, nowMicros);
        }
        lastMicros.lazySet(nowMicros);
        lastSequence.lazySet(sequence);
    }

    /** The latest sequence number sent (0: none): every one up to it had left the client when this was read. */
    long lastSent() {
        return lastSequence.get();
    }

    private synchronized void checkpoint(long sequence, long nowMicros) {
        if (count == MAX_CHECKPOINTS) {
            // Every other one goes, the first stays: the precision halves evenly rather than forgetting the start.
            int kept = 0;
            for (int i = 0; i < count; i += 2) {
                sequences[kept] = sequences[i];
                micros[kept] = micros[i];
                kept++;
            }
            count = kept;
        } else if (count == sequences.length) {
            sequences = Arrays.copyOf(sequences, Math.min(MAX_CHECKPOINTS, 2 * count));
            micros = Arrays.copyOf(micros, sequences.length);
        }
        sequences[count] = sequence;
        micros[count] = nowMicros;
        count++;
    }

    /** {@code [sequence, micros, ...]} in sequence order, the latest send last; null before the first send. */
    long[] snapshot() {
        long[] out;
        synchronized (this) {
            if (count == 0) {
                return null;
            }
            out = new long[2 * count + 2];
            for (int i = 0; i < count; i++) {
                out[2 * i] = sequences[i];
                out[2 * i + 1] = micros[i];
            }
        }
        int n = out.length - 2;
        // Read as the writer wrote them, backwards, and again when a send came in between: a pair that belongs together.
        for (int attempt = 0; attempt < 3; attempt++) {
            long timeBefore = lastMicros.get();
            long sequence = lastSequence.get();
            if (lastMicros.get() == timeBefore) {
                if (sequence > out[n - 2]) {
                    out[n] = sequence;
                    out[n + 1] = timeBefore;
                    return out;
                }
                break;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
