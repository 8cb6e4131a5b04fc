package io.mqttload.summary;

import java.util.EnumMap;
import java.util.Map;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.PubToSubPairs;
import io.mqttload.measure.SignedLatencyStats;

/** One engine's line in the report. */
public final class EngineRow {
    public final String engineId;
    public final int engineNumber;
    public final double publishRate;
    public final double receiveRate;
    /** The engine's window rates and drain, as {@link Rates} reads its summary. */
    public final Rates rates;
    /** The counts the engine's summary carries. */
    public final Map<Count, Long> counts = new EnumMap<>(Count.class);
    /** The p99 of what the engine received, as {@link MergedReport#pubToSubHeadline} reads it. */
    public final long pubToSubP99;
    public final Verdict verdict;

    EngineRow(EngineSummary s) {
        engineId = s.engineId;
        engineNumber = s.engineNumber;
        rates = Rates.of(s);
        publishRate = rates.publish;
        receiveRate = rates.receive;
        for (Count c : Count.SUMMARY) {
            Long v = s.counts.get(c.key());
            if (v != null) {
                counts.put(c, v);
            }
        }
        SignedLatencyStats measured = SignedLatencyStats.empty();
        boolean acrossClocks = false;
        for (PubToSubPairs.Figures pair : s.pubToSubPairs) {
            measured = measured.plus(pair.measured);
            acrossClocks |= pair.publisherEngine != s.engineNumber;
        }
        LatencyStats pubToSub = MergedReport.pubToSubHeadline(s.latencyMicros.get("pubToSub"), measured, acrossClocks);
        pubToSubP99 = pubToSub == null ? 0 : pubToSub.percentile(99.0);
        verdict = s.verdict;
    }

    /** The count, 0 when the engine's summary does not carry it. */
    public long count(Count c) {
        Long v = counts.get(c);
        return v == null ? 0 : v;
    }
}
