package io.mqttload.measure;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one sampler (by its label) did, beside the engine's totals: so that live metrics can tell a
 * latency probe from the flood it measures, or one publisher group from another. Connections and
 * what they receive belong to the Connect and Subscribe samplers that made them.
 */
public final class SamplerMetrics {
    public final String label;
    /** What this sampler's subscribers received: latency, summed from the engine's pub-to-sub recorders. */
    public final LatencyTotal pubToSubLatency = new LatencyTotal();
    public final LatencyRecorder publishLatency = new LatencyRecorder();
    public final LatencyRecorder connectLatency = new LatencyRecorder();
    public final LongAdder connectsOk = new LongAdder();
    public final LongAdder connectsFailed = new LongAdder();
    public final LongAdder activeConnections = new LongAdder();
    public final LongAdder subscribeOk = new LongAdder();
    public final LongAdder subscribeFailed = new LongAdder();
    public final LongAdder published = new LongAdder();
    public final LongAdder acknowledged = new LongAdder();
    public final LongAdder publishFailed = new LongAdder();
    public final LongAdder received = new LongAdder();
    public final LongAdder receivedBytes = new LongAdder();

    public SamplerMetrics(String label) {
        this.label = label;
    }
}
