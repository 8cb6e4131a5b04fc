package io.mqttload.summary;

import org.HdrHistogram.Histogram;

/** One second of the run, summed over the engines; latency merged from their histograms. */
public final class RunSecond {
    /**
     * An engine's share of a second shorter than this is a partial interval (the run's last, cut by its end): a rate
     * over it is noise around the true one, so the second has no rate to chart.
     */
    static final long SHORTEST_RATED_INTERVAL_MILLIS = 900;

    public final long timeMillis;
    public long acknowledged;
    public long received;
    public long connections;
    public long connects;
    public long errors;
    /** Reconnect attempts after lost connections in this second. */
    public long reconnectAttempts;
    /**
     * Acknowledged and received messages per second: each engine's counts over the time its intervals in this second
     * cover, summed over the engines; NaN when an engine covers only part of a second here.
     */
    private double acknowledgedPerSecond;
    private double receivedPerSecond;
    private double errorsPerSecond;
    public final Histogram pubToSub = new Histogram(3);
    public final Histogram publishAck = new Histogram(3);

    RunSecond(long timeMillis) {
        this.timeMillis = timeMillis;
    }

    public double acknowledgedPerSecond() {
        return acknowledgedPerSecond;
    }

    public double receivedPerSecond() {
        return receivedPerSecond;
    }

    public double errorsPerSecond() {
        return errorsPerSecond;
    }

    /** One engine's counts in this second, over {@code intervalMillis} of its time. */
    void addEngineRates(long engineAcknowledged, long engineReceived, long engineErrors, long intervalMillis) {
        if (intervalMillis < SHORTEST_RATED_INTERVAL_MILLIS) {
            acknowledgedPerSecond = Double.NaN;
            receivedPerSecond = Double.NaN;
            errorsPerSecond = Double.NaN;
            return;
        }
        double seconds = intervalMillis / 1000.0;
        acknowledgedPerSecond += engineAcknowledged / seconds;
        receivedPerSecond += engineReceived / seconds;
        errorsPerSecond += engineErrors / seconds;
    }
}
