package io.mqttload.core;

/** Receives the engine's metrics every interval and the summary at the end (the InfluxDB writer, reports). */
public interface IntervalListener {
    void onInterval(Interval interval);

    default void onRunEnd(RunSummary summary) {
    }
}
