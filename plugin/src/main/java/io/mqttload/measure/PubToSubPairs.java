package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Pub-to-sub latency per publishing engine, on the receiving engine: each (publisher engine, this engine) pair's
 * latencies as measured, never floored (a subscriber clock behind the publisher's gives values below 0, kept as
 * such), and corrected by the two engines' clock offsets measured before production, recorded as each message
 * arrives, so that a corrected value has the recording's precision at its own size (a few µs at a few ms), not at
 * the size of the clock difference it was measured with. A message from this engine needs no correction; those that
 * arrive before the pair's clock difference is known are kept and corrected when it comes (up to a limit, beyond which
 * they are measured only and counted as not corrected).
 */
public final class PubToSubPairs {
    /** The correction of a pair whose clock difference is not known (yet). */
    private static final long UNKNOWN = Long.MIN_VALUE;
    /**
     * Messages per pair kept to be corrected once the clock difference arrives (8 bytes each): the seconds between the
     * start of production and the end of the exchange at a high rate; later ones are measured only, and counted.
     */
    static final int EARLY_LIMIT = 1 << 20;

    private final AtomicReferenceArray<Pair> pairs = new AtomicReferenceArray<>(1 << PayloadHeader.ENGINE_BITS);
    /** This engine's number; its own messages are measured on one clock. Set before any message arrives. */
    private volatile int ownEngine = -1;

    /** This engine's number ({@code mqttload.engineNumber}), given before the run's first message. */
    public void ownEngine(int engineNumber) {
        ownEngine = engineNumber;
    }

    /** One message from engine {@code publisherEngine}, {@code micros} from its send to its receipt as measured. */
    public void record(int publisherEngine, long micros) {
        pair(publisherEngine).record(micros);
    }

    /**
     * The clock difference of the messages from {@code publisherEngine} (this engine's clock minus that engine's, in µs)
     * and its bound; the first one given holds for the run, as the offsets before production are the ones applied.
     */
    public void clockDifference(int publisherEngine, long differenceMicros, long boundMicros) {
        if (publisherEngine != ownEngine) {
            pair(publisherEngine).correctBy(differenceMicros, boundMicros);
        }
    }

    private Pair pair(int publisherEngine) {
        int slot = publisherEngine & ((1 << PayloadHeader.ENGINE_BITS) - 1);
        Pair p = pairs.get(slot);
        if (p == null) {
            pairs.compareAndSet(slot, null, new Pair(slot, slot == ownEngine));
            p = pairs.get(slot);
        }
        return p;
    }

    /** Takes every pair's interval, into the run's totals when {@code countInTotal} (false during warm-up). */
    public void takeInterval(boolean countInTotal) {
        for (int i = 0; i < pairs.length(); i++) {
            Pair p = pairs.get(i);
            if (p != null) {
                p.takeInterval(countInTotal);
            }
        }
    }

    /** The pairs that received a message in the measured window, by publishing engine number. */
    public List<Figures> figures() {
        List<Figures> out = new ArrayList<>();
        for (int i = 0; i < pairs.length(); i++) {
            Pair p = pairs.get(i);
            if (p != null) {
                Figures f = p.figures();
                if (f.measured.count > 0) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    /** Messages of one publishing engine to this one. */
    private static final class Pair {
        final int publisherEngine;
        final SignedRecorder measured = new SignedRecorder();
        final SignedRecorder corrected = new SignedRecorder();
        /**
         * The measured values of the messages that arrived before the clock difference was known, this interval's and
         * (once counted) the run's, corrected exactly once it is: the difference usually comes a moment after
         * production starts (the exchange runs while the first messages flow), and those messages are not to be lost
         * to the corrected figure, nor corrected at the precision of their measured size.
         */
        private final LongBuffer earlyInInterval = new LongBuffer();
        private final LongBuffer earlyCounted = new LongBuffer();
        /** Early messages beyond {@link #EARLY_LIMIT}: measured only. */
        private long overflowInInterval;
        private long overflowCounted;
        /** Written once, after {@link #bound}: a reader that sees the correction sees its bound. */
        volatile long correction;
        volatile long bound;

        Pair(int publisherEngine, boolean ownMessages) {
            this.publisherEngine = publisherEngine;
            this.correction = ownMessages ? 0 : UNKNOWN;
        }

        void record(long micros) {
            measured.record(micros);
            long c = correction;
            if (c != UNKNOWN) {
                corrected.record(micros - c);
            } else {
                early(micros);
            }
        }

        private synchronized void early(long micros) {
            long c = correction;
            if (c != UNKNOWN) {
                // Known since the look above: as if it had been then.
                corrected.record(micros - c);
            } else if (earlyInInterval.size + earlyCounted.size < EARLY_LIMIT) {
                earlyInInterval.add(micros);
            } else {
                overflowInInterval++;
            }
        }

        synchronized void correctBy(long differenceMicros, long boundMicros) {
            if (correction == UNKNOWN) {
                bound = boundMicros;
                correction = differenceMicros;
            }
        }

        synchronized void takeInterval(boolean countInTotal) {
            measured.takeInterval(countInTotal);
            corrected.takeInterval(countInTotal);
            if (countInTotal) {
                earlyCounted.addAll(earlyInInterval);
                overflowCounted += overflowInInterval;
            }
            earlyInInterval.size = 0;
            overflowInInterval = 0;
            long c = correction;
            if (c != UNKNOWN && earlyCounted.size > 0) {
                for (int i = 0; i < earlyCounted.size; i++) {
                    corrected.recordInTotal(earlyCounted.values[i] - c);
                }
                earlyCounted.size = 0;
            }
        }

        synchronized Figures figures() {
            Figures f = new Figures();
            f.publisherEngine = publisherEngine;
            f.measured = measured.total();
            long c = correction;
            if (c != UNKNOWN) {
                f.correctionMicros = c;
                f.correctionBoundMicros = bound;
                f.corrected = corrected.total();
            }
            f.notCorrected = overflowCounted + earlyCounted.size;
            return f;
        }
    }

    /** A growable array of longs: the early values of a pair, appended under the pair's lock. */
    private static final class LongBuffer {
        long[] values = new long[64];
        int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        void addAll(LongBuffer other) {
            for (int i = 0; i < other.size; i++) {
                add(other.values[i]);
            }
        }
    }

    /** One pair's figures as they travel in the engine's summary. */
    public static final class Figures {
        /** The engine number of the publishers (the stream id's top bits). */
        public int publisherEngine;
        /** As measured: the receiving clock's receive time minus the publishing clock's send time. */
        public SignedLatencyStats measured;
        /** The clock difference subtracted (this engine's clock minus the publisher's), or null: never known. */
        public Long correctionMicros;
        /** The bound of {@link #correctionMicros}: the two engines' offset bounds added. */
        public Long correctionBoundMicros;
        /** Measured minus the correction, of the messages received once it was known; null when it never was. */
        public SignedLatencyStats corrected;
        /** Messages measured but not corrected: beyond the early limit, or all that came when the difference never did. */
        public long notCorrected;
    }
}
