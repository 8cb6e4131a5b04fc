package io.mqttload.measure;

/**
 * What one sampler (by its label) did, beside the engine's totals: so that live metrics can tell a
 * latency probe from the flood it measures, or one publisher group from another. Connections and
 * what they receive belong to the Connect and Subscribe samplers that made them.
 */
public final class SamplerMetrics {
    /** Where a sampler not met at test start (a failure counted under a made-up label) sorts: after the plan's. */
    public static final int NOT_IN_PLAN = Integer.MAX_VALUE;
    public final String label;
    /** The sampler's place among the plan's MQTT samplers (0 first), or {@link #NOT_IN_PLAN}. */
    public final int planPosition;
    /**
     * The sampler's latency figures, one per kind it keeps ({@link Latency.Level#SAMPLER}): what its clients connected,
     * published and received. Only pub-to-sub kinds keep run totals; the others are read interval by interval.
     */
    public final LatencyRecorders latency = new LatencyRecorders(Latency.Level.SAMPLER, false);
    /** The counts a sampler keeps ({@link Count.Level#SAMPLER}), updated through {@link EngineMetrics}. */
    final Counters counters = new Counters(Count.Level.SAMPLER);

    public SamplerMetrics(String label) {
        this(label, NOT_IN_PLAN);
    }

    public SamplerMetrics(String label, int planPosition) {
        this.label = label;
        this.planPosition = planPosition;
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
