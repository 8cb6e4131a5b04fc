package io.mqttload.engine;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;

/**
 * Where production ended: the last Publish sample's end, with the acknowledged and received counts taken there, so
 * that the measured window's counts end where its seconds do and what arrives after (the end barrier, the
 * disconnects, the drain) is the drain's.
 */
final class ProductionEnd {
    private final EngineMetrics metrics;
    /** Elapsed ms of the run, acknowledged, received; -1 ms before any sample ended. */
    private long[] last = {-1, 0, 0};

    ProductionEnd(EngineMetrics metrics) {
        this.metrics = metrics;
    }

    /** A Publish sample ended {@code elapsedMillis} into the run. */
    void sampleEnded(long elapsedMillis) {
        long[] end = {elapsedMillis, metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED)};
        synchronized (this) {
            // Threads end samples at once: the latest end wins, whichever thread got here first.
            if (end[0] >= last[0]) {
                last = end;
            }
        }
    }

    /**
     * Elapsed ms, acknowledged and received at the end of production: at the last Publish sample that ended after
     * {@code productionStart}, or now ({@code nowMillis}) when none did.
     */
    synchronized long[] at(long productionStart, long nowMillis) {
        return last[0] > productionStart ? last
                : new long[] {nowMillis, metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED)};
    }
}
