package io.mqttload.live;

import java.util.EnumMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.LatencyStats;

/**
 * The live figures of every latency kind the engine keeps, interval by interval: the last interval's, and the steady
 * phase's so far, as the report counts them (after the warm-up; connects from the start).
 */
public final class LiveLatency {
    private final Map<Latency, Histogram> steady = new EnumMap<>(Latency.class);

    public LiveLatency() {
        for (Latency kind : Latency.keptBy(Latency.Level.ENGINE)) {
            steady.put(kind, LatencyRecorder.newHistogram());
        }
    }

    /** Adds {@code interval} to the steady figures and puts both figures of every kind into {@code into}. */
    public void add(Interval interval, LiveFigures into) {
        steady.forEach((kind, total) -> {
            Histogram last = interval.of(kind);
            if (interval.countedInTotal || kind.countsDuringWarmUp()) {
                total.add(last);
            }
            into.lastSecond.put(kind.key(), new LatencyStats(last));
            into.steady.put(kind.key(), new LatencyStats(total));
        });
    }
}
