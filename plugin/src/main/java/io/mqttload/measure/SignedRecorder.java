package io.mqttload.measure;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A {@link SignedLatencyStats} written from any thread without locks: two HdrHistogram {@link Recorder}s, one for the
 * values at or above 0 and one for the magnitudes below, taken at each tick as {@link LatencyRecorder} is. Nothing is
 * floored: a negative value keeps its magnitude. Magnitudes above the trackable maximum are recorded at it.
 */
final class SignedRecorder {
    private final Recorder atOrAbove0 = new Recorder(LatencyRecorder.HIGHEST_TRACKABLE_MICROS,
            LatencyRecorder.SIGNIFICANT_DIGITS);
    private final Recorder below0 = new Recorder(LatencyRecorder.HIGHEST_TRACKABLE_MICROS,
            LatencyRecorder.SIGNIFICANT_DIGITS);
    private final Histogram totalAtOrAbove0 = LatencyRecorder.newHistogram();
    private final Histogram totalBelow0 = LatencyRecorder.newHistogram();
    private Histogram recycledAtOrAbove0;
    private Histogram recycledBelow0;

    void record(long micros) {
        if (micros >= 0) {
            atOrAbove0.recordValue(Math.min(micros, LatencyRecorder.HIGHEST_TRACKABLE_MICROS));
        } else {
            below0.recordValue(micros == Long.MIN_VALUE ? LatencyRecorder.HIGHEST_TRACKABLE_MICROS
                    : Math.min(-micros, LatencyRecorder.HIGHEST_TRACKABLE_MICROS));
        }
    }

    /** Takes what was recorded since the previous call into the run's total when {@code countInTotal}. */
    synchronized void takeInterval(boolean countInTotal) {
        Histogram up = atOrAbove0.getIntervalHistogram(recycledAtOrAbove0);
        Histogram down = below0.getIntervalHistogram(recycledBelow0);
        if (countInTotal) {
            totalAtOrAbove0.add(up);
            totalBelow0.add(down);
        }
        recycledAtOrAbove0 = up;
        recycledBelow0 = down;
    }

    /** The run's distribution so far (as of the last {@link #takeInterval}). */
    synchronized SignedLatencyStats total() {
        return new SignedLatencyStats(totalAtOrAbove0.copy(), totalBelow0.copy());
    }
}
