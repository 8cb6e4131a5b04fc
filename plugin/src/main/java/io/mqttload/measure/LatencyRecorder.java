package io.mqttload.measure;

import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One latency distribution in microseconds: written from any thread without locks (HdrHistogram's
 * {@link Recorder}), read as interval histograms that are also accumulated into the whole-run
 * histogram. Values above the trackable maximum are clamped and counted, never dropped.
 */
public final class LatencyRecorder {
    /** One hour: anything slower is a stuck message, still recorded at the maximum. */
    public static final long HIGHEST_TRACKABLE_MICROS = 3_600_000_000L;
    public static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    /** The run's total; null for a recorder whose intervals its owner adds up elsewhere. */
    private final Histogram total;
    private Histogram recycled;
    private final LongAdder clampedAdder = new LongAdder();
    private final LongAdder negativeAdder = new LongAdder();

    public LatencyRecorder() {
        this(true);
    }

    private LatencyRecorder(boolean keepsTotal) {
        this.total = keepsTotal ? newHistogram() : null;
    }

    /** A recorder whose intervals are added up by its owner (a {@link LatencyTotal}): it keeps no total of its own. */
    static LatencyRecorder intervalsOnly() {
        return new LatencyRecorder(false);
    }

    public static Histogram newHistogram() {
        return new Histogram(HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    }

    /**
     * Records one latency. A negative value (receiver clock behind the sender's, across hosts) is
     * recorded as 0 and counted, so clock skew is visible rather than silently hidden.
     */
    public void record(long micros) {
        long v = micros;
        if (v < 0) {
            negativeAdder.increment();
            v = 0;
        } else if (v > HIGHEST_TRACKABLE_MICROS) {
            clampedAdder.increment();
            v = HIGHEST_TRACKABLE_MICROS;
        }
        recorder.recordValue(v);
    }

    /**
     * Takes what was recorded since the previous call, adds it to the run's total when
     * {@code countInTotal} (false during warm-up), and returns a copy the caller owns.
     */
    public synchronized Histogram takeInterval(boolean countInTotal) {
        Histogram interval = recorder.getIntervalHistogram(recycled);
        if (countInTotal && total != null) {
            total.add(interval);
        }
        Histogram copy = interval.copy();
        recycled = interval;
        return copy;
    }

    /** The run's histogram so far (as of the last {@link #takeInterval}); a copy. */
    public synchronized Histogram totalCopy() {
        if (total == null) {
            throw new IllegalStateException("this recorder's intervals are added up by its owner; it keeps no total");
        }
        return total.copy();
    }

    public long clampedCount() {
        return clampedAdder.sum();
    }

    public long negativeCount() {
        return negativeAdder.sum();
    }
}
