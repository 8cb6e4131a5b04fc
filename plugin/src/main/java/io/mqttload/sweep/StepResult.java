package io.mqttload.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.Latency;
import io.mqttload.summary.Rates;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;

/**
 * One step of a sweep as it ended: how the JMeter process ended and, when it wrote one, the figures of its
 * run report ({@code report-<run>.json}, written by the MQTT Run Report).
 */
final class StepResult {
    /** Keys of the sweep's JSON and names of its tables, in the order of {@link #latencyMillis}. */
    static final String[] LATENCY_KEYS = {"mean", "p50", "p90", "p99", "p99.9", "max"};
    static final String[] LATENCY_NAMES = {"avg", "p50", "p90", "p99", "p99.9", "max"};

    final int index;
    final String label;
    final SweepOptions.Step step;
    final String runId;
    /** Relative to the sweep directory. */
    final String dir;
    Integer exitCode;
    boolean timedOut;
    boolean skipped;
    double seconds;
    /** report-<run>.json and .html relative to the sweep directory, or null when the run wrote none. */
    String reportJson;
    String reportHtml;

    /** From the report: connections made over every engine (connectsOk), not what the step's properties promise. */
    long clients;
    /** The window's rates and the drain beside them, as the report declares them. */
    Rates rates = Rates.UNKNOWN;
    double publishRate;
    double receiveRate;
    long expected;
    long received;
    long lost;
    long duplicates;
    long errors;
    /** Pub-to-sub latency in ms, in the order of {@link #LATENCY_KEYS}. */
    final double[] latencyMillis = new double[LATENCY_KEYS.length];
    boolean hasBroker;
    double brokerCpuAvg;
    double brokerCpuMax;
    long brokerRssAvg;
    long brokerRssMax;
    Verdict verdict;
    String verdictText;

    /** The measured window (warm-up end to production end), in seconds. */
    double measuredSeconds;
    /** Publishes per second the throughput timers scheduled over the window; 0 when nothing was paced. */
    double offeredRate;
    /** Deliveries owed per message the broker took (subscribers matching, over the run); 0 without subscribers. */
    double fanOut;
    /** Deliveries received within the window, drain excluded, per second. */
    double windowReceiveRate;
    /**
     * Publishes per second that made it through within the window: deliveries received ÷ fan-out, or, without
     * subscribers, publishes the broker acknowledged; comparable with {@link #offeredRate}.
     */
    double deliveredRate;
    /** How much the deliveries owed but not made, and the publishes not acknowledged, rose over the window. */
    double backlogGrowth;
    /** p99 in ms from the intended send time (pub-to-sub, or publish ack without subscribers); NaN: not measured. */
    double intendedP99Millis = Double.NaN;
    double intendedP50Millis = Double.NaN;
    /** p99 schedule lag in ms; 0 when nothing was paced. */
    double lagP99Millis;
    long generatorSaturatedSeconds;
    long machineSaturatedSeconds;
    /** How the wait for the broker to be quiet before the step ended; null when there was none. */
    BrokerSettle.Result settle;
    /** Set by whoever ran the step, from {@link StepCriteria#judge}: the one decision on it. */
    StepCriteria.Judgement judgement;

    StepResult(int index, String label, SweepOptions.Step step, String runId, String dir) {
        this.index = index;
        this.label = label;
        this.step = step;
        this.runId = runId;
        this.dir = dir;
    }

    boolean hasReport() {
        return verdict != null;
    }

    /** Passed by {@link StepCriteria}: the run held and every criterion did. */
    boolean ok() {
        return !skipped && judgement != null && judgement.passed;
    }

    /** "ok", or why the step did not pass: the first reason its judgement gives. */
    String status() {
        if (skipped || judgement == null) {
            return runStatus();
        }
        return judgement.passed ? "ok" : judgement.reason();
    }

    /** How the run itself ended: skipped, timed out, its exit code, no report, or its verdict. */
    String runStatus() {
        if (skipped) {
            return "skipped (an earlier step failed)";
        }
        if (timedOut) {
            return "timed out";
        }
        if (exitCode == null || exitCode != 0) {
            return "JMeter exit code " + exitCode;
        }
        if (!hasReport()) {
            return "no report";
        }
        return verdict.passed() ? "ok" : "verdict " + verdict;
    }

    /** Reads the step's report; several monitored brokers are the nodes of one cluster and add up, as in the run report. */
    void readReport(Path sweepDir, Path json) throws IOException {
        ReportFigures r;
        try {
            r = SummaryJson.readReport(Files.readString(json));
        } catch (IllegalArgumentException e) {
            throw new IOException(json + ": " + e.getMessage(), e);
        }
        reportJson = sweepDir.relativize(json).toString().replace('\\', '/');
        Path html = json.resolveSibling(String.valueOf(json.getFileName()).replaceAll("\\.json$", ".html"));
        reportHtml = Files.isRegularFile(html) ? sweepDir.relativize(html).toString().replace('\\', '/') : null;
        clients = r.count(Count.CONNECTS_OK);
        rates = Rates.of(r);
        publishRate = rates.publish;
        receiveRate = rates.receive;
        expected = r.count(Count.EXPECTED);
        received = r.count(Count.RECEIVED_OF_EXPECTED);
        lost = r.count(Count.LOST);
        duplicates = r.count(Count.DUPLICATES);
        errors = Count.errors(r::count);
        LatencyStats p = r.latencyMicros.get("pubToSub");
        if (p != null) {
            double[] micros = {p.mean, p.percentile(50.0), p.percentile(90.0), p.percentile(99.0), p.percentile(99.9),
                p.max};
            for (int i = 0; i < micros.length; i++) {
                latencyMillis[i] = micros[i] / 1000.0;
            }
        }
        for (ReportFigures.BrokerLine b : r.brokers.values()) {
            hasBroker = true;
            brokerCpuAvg += b.cpuAvg;
            brokerCpuMax += b.cpuMax;
            brokerRssAvg += b.rssAvg;
            brokerRssMax += b.rssMax;
        }
        verdict = r.verdict;
        verdictText = r.verdictText;
        readLoadFigures(r);
    }

    /** What a capacity judgement reads: offered, delivered within the window, backlog, intended latency, saturation. */
    private void readLoadFigures(ReportFigures r) {
        measuredSeconds = r.measuredSeconds;
        double window = Math.max(1e-9, measuredSeconds);
        offeredRate = r.count(Count.SCHEDULED_IN_WINDOW) / window;
        long acknowledged = r.count(Count.ACKNOWLEDGED);
        fanOut = acknowledged > 0 ? (double) expected / acknowledged : 0;
        long acknowledgedInWindow = r.count(Count.ACKNOWLEDGED_IN_WINDOW);
        long receivedInWindow = r.count(Count.RECEIVED_IN_WINDOW);
        long inFlightGrowth = r.count(Count.IN_FLIGHT_AT_WINDOW_END) - r.count(Count.IN_FLIGHT_AT_WINDOW_START);
        windowReceiveRate = rates.receive;
        if (fanOut > 0) {
            deliveredRate = windowReceiveRate / fanOut;
            backlogGrowth = fanOut * (acknowledgedInWindow + inFlightGrowth) - receivedInWindow;
        } else {
            deliveredRate = rates.publish;
            backlogGrowth = inFlightGrowth;
        }
        LatencyStats intended = r.latencyMicros.get(fanOut > 0 ? Latency.PUB_TO_SUB_INTENDED.key()
                : Latency.PUBLISH_INTENDED.key());
        if (intended != null && intended.count > 0) {
            intendedP99Millis = intended.percentile(99.0) / 1000.0;
            intendedP50Millis = intended.percentile(50.0) / 1000.0;
        }
        LatencyStats lag = r.latencyMicros.get(Latency.SCHEDULE_LAG.key());
        lagP99Millis = lag != null && lag.count > 0 ? lag.percentile(99.0) / 1000.0 : 0;
        generatorSaturatedSeconds = r.count(Count.GENERATOR_SATURATED_SECONDS);
        machineSaturatedSeconds = r.count(Count.MACHINE_SATURATED_SECONDS);
    }
}
