package io.mqttload.engine;

import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;

/**
 * What the engine says about itself while it runs: the console's progress line, and failures since the last tick
 * as one event (a point per failure would flood InfluxDB at message rate). Used by the ticker thread only.
 */
final class ProgressReport {
    private final EngineMetrics metrics;
    private final String engineId;
    /** Error counts at the previous tick, in the order of {@link Count#ERRORS}. */
    private final long[] errorsAtLastTick = new long[Count.ERRORS.size()];

    ProgressReport(EngineMetrics metrics, String engineId) {
        this.metrics = metrics;
        this.engineId = engineId;
    }

    /** The failures since the last call ("2 connects failed, 1 connections lost; most frequent so far: ..."), or null. */
    String newErrors() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < errorsAtLastTick.length; i++) {
            Count error = Count.ERRORS.get(i);
            long now = metrics.sum(error);
            long delta = now - errorsAtLastTick[i];
            if (delta > 0) {
                text.append(text.length() == 0 ? "" : ", ").append(delta).append(' ').append(error.errorText());
            }
            errorsAtLastTick[i] = now;
        }
        if (text.length() == 0) {
            return null;
        }
        List<FailureTally.Row> rows = metrics.failures.rows();
        return text + (rows.isEmpty() ? "" : "; most frequent so far: " + rows.get(0).count + " x "
                + rows.get(0).kind.text() + ": " + rows.get(0).reason);
    }

    String line(Interval interval, long elapsedMillis, boolean steady) {
        Histogram pubToSub = interval.of(Latency.PUB_TO_SUB);
        long p99 = pubToSub.getTotalCount() == 0 ? 0 : pubToSub.getValueAtPercentile(99);
        String line = String.format(Locale.ROOT,
                "[mqtt %s] %4ds %s connections %d, published %d (+%d/s), received %d (+%d/s), p99 %.3f ms, errors %d",
                engineId, elapsedMillis / 1000, steady ? "steady " : "warm-up", metrics.sum(Count.ACTIVE_CONNECTIONS),
                metrics.sum(Count.PUBLISHED), interval.publishCount(), metrics.sum(Count.RECEIVED),
                pubToSub.getTotalCount(), p99 / 1000.0, metrics.errors());
        List<FailureTally.Row> rows = metrics.failures.rows();
        if (rows.isEmpty()) {
            return line;
        }
        FailureTally.Row top = rows.get(0);
        return line + " (most: " + top.count + " x " + top.kind.text() + ": " + top.reason + ")";
    }
}
