package io.mqttload.summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;

/**
 * The merged report of a run as it is written to {@code report-<run>.json} and read by the sweep: the figures of
 * {@link MergedReport}, mapped by {@link SummaryJson}.
 */
public final class ReportFigures {
    public int formatVersion = SummaryJson.FORMAT_VERSION;
    public String runId;
    public String scenario;
    public int engines;
    public double measuredSeconds;
    public long warmupMillis;
    /** The engines' window rates added up ({@link Rates}); before format 5 the receive rate counted the drain in. */
    public double publishRate;
    public double receiveRate;
    /** What every engine received after production over the longest engine's drain, per second; null before format 5. */
    public Double drainRate;
    /** The engines' connect phases on one clock and the connect rate achieved; null when no connect succeeded. */
    public ConnectPhase connectPhase;
    /** The merged counts by their keys ({@link Count#key()}). */
    public Map<String, Long> counts = new LinkedHashMap<>();
    public Map<String, LatencyStats> latencyMicros = new LinkedHashMap<>();
    public Map<String, LatencyStats> pubToSubBySampler = new TreeMap<>();
    public Map<String, EngineLine> engineSummaries = new LinkedHashMap<>();
    public Map<String, SamplerDelivery> lossBySampler = new TreeMap<>();
    /** Per broker node, merged over the engines. */
    public Map<String, NodeFigures> nodes = new TreeMap<>();
    public Map<String, BrokerLine> brokers = new LinkedHashMap<>();
    /** By barrier name and generation, "start #1". */
    public Map<String, BarrierLine> rendezvous = new LinkedHashMap<>();
    public List<String> missingEngines = new ArrayList<>();
    public List<String> problems = new ArrayList<>();
    public Verdict verdict;
    public String verdictText;
    public double failureTolerancePercent;
    public List<FailureTally.Row> failures = new ArrayList<>();
    /** The engines' clock offsets and their warnings; null in a report written before clocks were measured. */
    public ClockReport clocks;
    /** What the run was asked to do, over every engine; null in a report written before the setup was recorded. */
    public RunSetup setup;

    /** The count, 0 when the report does not carry it. */
    public long count(Count c) {
        return counts.getOrDefault(c.key(), 0L);
    }

    /** One engine's line. */
    public static final class EngineLine {
        public int engineNumber;
        public double publishRate;
        public double receiveRate;
        public Verdict verdict;
    }

    /** One monitored broker over the steady phase, and the engine that watched it. */
    public static final class BrokerLine {
        public String engineId;
        public double cpuAvg;
        public double cpuMax;
        public long rssAvg;
        public long rssMax;
    }

    /** One barrier passage over every engine; the spread only when every engine was released. */
    public static final class BarrierLine {
        public int groupSize;
        /** Threads of the engines whose summaries arrived. */
        public int threads;
        /** Threads that arrived, as the engines counted them: an engine whose summary is missing included. */
        public int arrived;
        public int engines;
        public int enginesReleased;
        public Double spreadMillis;
        /** The spread with the engines' measured clock offsets taken out, and its bound; null when not corrected. */
        public Double correctedSpreadMillis;
        public Double correctedSpreadBoundMillis;
    }
}
