package io.mqttload.summary;

import java.util.LinkedHashMap;
import java.util.Map;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.LatencyStats;

/** One engine's line in the report. */
public final class EngineRow {
    public final String engineId;
    public final int engineNumber;
    public final double publishRate;
    public final double receiveRate;
    public final Map<String, Long> counts;
    public final long pubToSubP99;
    public final Verdict verdict;

    EngineRow(EngineSummary s) {
        engineId = s.engineId;
        engineNumber = s.engineNumber;
        publishRate = s.publishRate;
        receiveRate = s.receiveRate;
        counts = new LinkedHashMap<>(s.counts);
        LatencyStats pubToSub = s.latencyMicros.get("pubToSub");
        pubToSubP99 = pubToSub == null ? 0 : pubToSub.percentile(99.0);
        verdict = s.verdict;
    }

    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }
}
