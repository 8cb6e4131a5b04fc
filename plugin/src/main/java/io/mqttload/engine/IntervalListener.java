package io.mqttload.engine;

import io.mqttload.measure.Interval;
import io.mqttload.summary.RunSummary;

/** Receives the engine's metrics every interval and the summary at the end (the InfluxDB writer, reports). */
public interface IntervalListener {
    void onInterval(Interval interval);

    default void onRunEnd(RunSummary summary) {
    }

    /**
     * Something that happened once (phase change, rendezvous released, errors in the last interval), for
     * annotations. Called on the thread that noticed it: implementations only queue, never block.
     */
    default void onEvent(String type, String text, long timeMillis) {
    }

    /** A broker resource sample (see {@link io.mqttload.broker.BrokerMonitor}), on the monitor's thread. */
    default void onBrokerSample(String broker, io.mqttload.broker.BrokerSample sample) {
    }
}
