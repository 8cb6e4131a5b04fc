package io.mqttload.summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.clock.ClockFigures;
import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.PubToSubPairs;

/**
 * What one engine sends the controller at the end of a run and writes to its summary file: its counts, latency
 * histograms, failures, barrier passages, broker figures, second-by-second timeline and delivery ledger. Mapped to
 * JSON by {@link SummaryJson} only; {@link MergedReport} merges these, never JSON text.
 */
public final class EngineSummary {
    public int formatVersion = SummaryJson.FORMAT_VERSION;
    public String runId;
    public String engineId;
    public int engineNumber;
    public String scenario;
    public long startedAtMillis;
    public long endedAtMillis;
    public long warmupMillis;
    /** Length of the measured window: from the end of warm-up to the end of production. */
    public double measuredSeconds;
    /**
     * Acknowledged and received per second of the measured window ({@link Rates}); before format 5, the receive rate
     * counted the messages that arrived during the drain too, and the publish rate the acknowledgements then.
     */
    public double publishRate;
    public double receiveRate;
    /**
     * Messages per second received after production ({@link Count#RECEIVED_IN_DRAIN} over {@link Count#DRAIN_MILLIS});
     * null in a summary written before format 5.
     */
    public Double drainRate;
    /** Each count of {@link Count#SUMMARY} by its key: a summary saved by an earlier version may lack newer ones. */
    public Map<String, Long> counts = new LinkedHashMap<>();
    /**
     * By {@link io.mqttload.measure.Latency#key()}: the kinds a report shows figures of (round trips and intended-time
     * ones only where there are).
     */
    public Map<String, LatencyStats> latencyMicros = new LinkedHashMap<>();
    public Map<String, LatencyStats> pubToSubBySampler = new TreeMap<>();
    /**
     * Pub-to-sub per publishing engine (by engine number), measured and corrected by the clock offsets before
     * production, never floored; empty in a summary written before pairs were recorded.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public List<PubToSubPairs.Figures> pubToSubPairs = new ArrayList<>();
    public String lastConnectionLoss;
    /** When the Connect samplers connected and the rate they achieved; null when none did, or written before it was kept. */
    public ConnectPhase connectPhase;
    public Verdict verdict;
    public String verdictText;
    public double failureTolerancePercent;
    public List<FailureTally.Row> failures = new ArrayList<>();
    public List<BrokerMonitor.Stats> broker = new ArrayList<>();
    public List<BarrierFigures> rendezvous = new ArrayList<>();
    public Map<String, SamplerDelivery> lossBySampler = new TreeMap<>();
    /** Per broker node of the connection's list (one entry for a single broker). */
    public List<NodeFigures> nodes = new ArrayList<>();
    /** The engine's machine, JVM and JMeter. */
    public Map<String, String> engine = new LinkedHashMap<>();
    /** The properties the run set. */
    public Map<String, String> parameters = new LinkedHashMap<>();
    public TimelineFigures timeline = new TimelineFigures();
    public DeliveryCheck.Ledger ledger = new DeliveryCheck.Ledger(List.of(), List.of());
    /** This engine's clock against the run's reference engine; null in a summary written before clocks were measured. */
    public ClockFigures clock;
    /** What the run was asked to do; null in a summary written before the setup was recorded. */
    public RunSetup setup;

    /** The count, 0 when the summary does not carry it. */
    public long count(Count c) {
        return counts.getOrDefault(c.key(), 0L);
    }
}
