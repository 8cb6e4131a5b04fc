package io.mqttload.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Pub-to-sub latency per publishing engine, on the receiving engine: each (publisher engine, this engine) pair's
 * latencies as measured, never floored (a subscriber clock behind the publisher's gives values below 0, kept as
 * such), and corrected by the two engines' clock offsets measured before production, recorded as each message
 * arrives, so that a corrected value has the recording's precision at its own size (a few µs at a few ms), not at
 * the size of the clock difference it was measured with. A message from this engine needs no correction; one that
 * arrives before the pair's clock difference is known is measured and counted as not corrected.
 */
public final class PubToSubPairs {
    /** The correction of a pair whose clock difference is not known (yet). */
    private static final long UNKNOWN = Long.MIN_VALUE;

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
        final LongAdder uncorrectedInterval = new LongAdder();
        long uncorrected;
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
            if (c == UNKNOWN) {
                uncorrectedInterval.increment();
            } else {
                corrected.record(micros - c);
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
            long n = uncorrectedInterval.sumThenReset();
            if (countInTotal) {
                uncorrected += n;
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
            f.notCorrected = uncorrected;
            return f;
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
        /** Messages received before the clock difference was known (all of them when it never was). */
        public long notCorrected;
    }
}
