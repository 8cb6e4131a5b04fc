package io.mqttload.measure;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * The latency recorded during one metrics interval, by {@link Latency} kind on every level that keeps the kind: the
 * engine's, each sampler's, each broker node's. The histograms belong to the receiver.
 */
public final class Interval {
    public final long endMillis;
    private final Map<Latency, Histogram> byKind;
    /** The same, per sampler label. */
    public final List<OfSampler> bySampler;
    /** The same, per broker node of the connection's list (the subscribers' node for pub-to-sub). */
    public final List<OfNode> byNode;
    /** Whether this interval's latencies went into the run's histograms (not warm-up): the report's figures. */
    public final boolean countedInTotal;

    /**
     * @param byKind the engine's histograms; a kind the engine keeps that is missing had nothing recorded (empty)
     */
    public Interval(long endMillis, Map<Latency, Histogram> byKind, List<OfSampler> bySampler, List<OfNode> byNode,
            boolean countedInTotal) {
        this.endMillis = endMillis;
        this.byKind = keptBy(Latency.Level.ENGINE, byKind);
        this.bySampler = bySampler;
        this.byNode = byNode;
        this.countedInTotal = countedInTotal;
    }

    /** The engine's histogram of {@code kind} in the interval. */
    public Histogram of(Latency kind) {
        return byKind.get(kind);
    }

    /** Acknowledged publishes in the interval (each has one publish-latency value). */
    public long publishCount() {
        return of(Latency.PUBLISH).getTotalCount();
    }

    /** One sampler's latency in the interval, and its (cumulative) counters. */
    public static final class OfSampler {
        public final SamplerMetrics sampler;
        private final Map<Latency, Histogram> byKind;

        /** @param byKind a kind samplers keep that is missing had nothing recorded (empty) */
        public OfSampler(SamplerMetrics sampler, Map<Latency, Histogram> byKind) {
            this.sampler = sampler;
            this.byKind = keptBy(Latency.Level.SAMPLER, byKind);
        }

        /** The sampler's histogram of {@code kind}; null for a kind samplers do not keep ({@link Latency#keptAt}). */
        public Histogram of(Latency kind) {
            return byKind.get(kind);
        }
    }

    /** One broker node's latency in the interval, and its (cumulative) counters. */
    public static final class OfNode {
        public final NodeMetrics node;
        private final Map<Latency, Histogram> byKind;

        /** @param byKind a kind nodes keep that is missing had nothing recorded (empty) */
        public OfNode(NodeMetrics node, Map<Latency, Histogram> byKind) {
            this.node = node;
            this.byKind = keptBy(Latency.Level.NODE, byKind);
        }

        /** The node's histogram of {@code kind}; null for a kind nodes do not keep ({@link Latency#keptAt}). */
        public Histogram of(Latency kind) {
            return byKind.get(kind);
        }
    }

    /** Every kind {@code level} keeps, from {@code given} or empty; a kind the level does not keep is refused. */
    private static Map<Latency, Histogram> keptBy(Latency.Level level, Map<Latency, Histogram> given) {
        Map<Latency, Histogram> m = new EnumMap<>(Latency.class);
        for (Map.Entry<Latency, Histogram> e : given.entrySet()) {
            if (!e.getKey().keptAt(level)) {
                throw new IllegalArgumentException(e.getKey().key() + " is not kept at level " + level);
            }
            m.put(e.getKey(), e.getValue());
        }
        for (Latency kind : Latency.keptBy(level)) {
            m.computeIfAbsent(kind, k -> LatencyRecorder.newHistogram());
        }
        return Collections.unmodifiableMap(m);
    }
}
