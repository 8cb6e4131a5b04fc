package io.mqttload.measure;

import org.HdrHistogram.Histogram;

/**
 * A run's latency histogram that is the sum of other recorders' intervals (a node's, a sampler's, the engine's
 * pub-to-sub latency): each message is recorded once, in the recorder of its most specific scope, and every wider
 * figure is added up from those at each tick.
 */
public final class LatencyTotal {
    private final Histogram total = LatencyRecorder.newHistogram();

    synchronized void add(Histogram interval) {
        total.add(interval);
    }

    /** The run's histogram so far (as of the last tick); a copy. */
    public synchronized Histogram totalCopy() {
        return total.copy();
    }
}
