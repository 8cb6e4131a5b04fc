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
            atOrAbove0.recordValue(clamped(micros));
        } else {
            below0.recordValue(clamped(-micros));
        }
    }

    /** A magnitude within what the histograms track ({@code -Long.MIN_VALUE} stays negative: the maximum too). */
    private static long clamped(long magnitude) {
        return magnitude < 0 || magnitude > LatencyRecorder.HIGHEST_TRACKABLE_MICROS
                ? LatencyRecorder.HIGHEST_TRACKABLE_MICROS : magnitude;
    }

    /** Records a value of an interval already taken and counted straight into the run's total. */
    synchronized void recordInTotal(long micros) {
        if (micros >= 0) {
            totalAtOrAbove0.recordValue(clamped(micros));
        } else {
            totalBelow0.recordValue(clamped(-micros));
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
