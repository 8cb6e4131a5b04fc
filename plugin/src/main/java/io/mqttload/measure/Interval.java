package io.mqttload.measure;

import java.util.List;

import org.HdrHistogram.Histogram;

/** The latency recorded during one metrics interval; the histograms belong to the receiver. */
public final class Interval {
    public final long endMillis;
    public final Histogram pubToSub;
    public final Histogram publish;
    public final Histogram connect;

    /** The same, per sampler label. */
    public final List<OfSampler> bySampler;

    /** One sampler's latency in the interval, and its (cumulative) counters. */
    public static final class OfSampler {
        public final SamplerMetrics sampler;
        public final Histogram pubToSub;
        public final Histogram publish;
        public final Histogram connect;

        public OfSampler(SamplerMetrics sampler, Histogram pubToSub, Histogram publish, Histogram connect) {
            this.sampler = sampler;
            this.pubToSub = pubToSub;
            this.publish = publish;
            this.connect = connect;
        }
    }

    public Interval(long endMillis, Histogram pubToSub, Histogram publish, Histogram connect, List<OfSampler> bySampler) {
        this.endMillis = endMillis;
        this.bySampler = bySampler;
        this.pubToSub = pubToSub;
        this.publish = publish;
        this.connect = connect;
    }

    /** Acknowledged publishes in the interval (each has one publish-latency value). */
    public long publishCount() {
        return publish.getTotalCount();
    }
}
