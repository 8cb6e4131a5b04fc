package io.mqttload.core;

import org.HdrHistogram.Histogram;

/** The latency recorded during one metrics interval; the histograms belong to the receiver. */
public final class Interval {
    public final long endMillis;
    public final Histogram pubToSub;
    public final Histogram publish;
    public final Histogram connect;

    Interval(long endMillis, Histogram pubToSub, Histogram publish, Histogram connect) {
        this.endMillis = endMillis;
        this.pubToSub = pubToSub;
        this.publish = publish;
        this.connect = connect;
    }

    /** Acknowledged publishes in the interval (each has one publish-latency value). */
    public long publishCount() {
        return publish.getTotalCount();
    }
}
