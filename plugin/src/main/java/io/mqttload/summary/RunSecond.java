package io.mqttload.summary;

import org.HdrHistogram.Histogram;

/** One second of the run, summed over the engines; latency merged from their histograms. */
public final class RunSecond {
    public final long timeMillis;
    public long acknowledged;
    public long received;
    public long connections;
    public long connects;
    public long errors;
    public final Histogram pubToSub = new Histogram(3);

    RunSecond(long timeMillis) {
        this.timeMillis = timeMillis;
    }
}
