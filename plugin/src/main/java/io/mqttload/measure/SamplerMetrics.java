package io.mqttload.measure;

/**
 * What one sampler (by its label) did, beside the engine's totals: so that live metrics can tell a
 * latency probe from the flood it measures, or one publisher group from another. Connections and
 * what they receive belong to the Connect and Subscribe samplers that made them.
 */
public final class SamplerMetrics {
    public final String label;
    /** What this sampler's subscribers received: latency, summed from the engine's pub-to-sub recorders. */
    public final LatencyTotal pubToSubLatency = new LatencyTotal();
    /** The same from the intended send time, of the messages that had one. */
    public final LatencyTotal pubToSubIntendedLatency = new LatencyTotal();
    public final LatencyRecorder publishLatency = new LatencyRecorder();
    /** What this sampler published: ack latency from the intended send time, and the schedule lag. */
    public final LatencyRecorder publishIntendedLatency = new LatencyRecorder();
    public final LatencyRecorder scheduleLag = new LatencyRecorder();
    public final LatencyRecorder connectLatency = new LatencyRecorder();
    public final ConnectPhaseRecorders connectPhases = new ConnectPhaseRecorders();
    /** The counts a sampler keeps ({@link Count.Level#SAMPLER}), updated through {@link EngineMetrics}. */
    final Counters counters = new Counters(Count.Level.SAMPLER);

    public SamplerMetrics(String label) {
        this.label = label;
    }

    /** The sampler's count so far; a count samplers do not keep is refused. */
    public long sum(Count c) {
        return counters.sum(c);
    }

    /** The sampler's failed connects, subscribes and publishes so far. */
    public long errors() {
        return counters.errors();
    }
}
