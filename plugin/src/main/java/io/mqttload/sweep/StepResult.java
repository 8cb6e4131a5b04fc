package io.mqttload.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
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

    /** OK only for a run that ended by itself with exit code 0 and a report that found every message. */
    boolean ok() {
        return !skipped && !timedOut && exitCode != null && exitCode == 0 && verdict != null && verdict.passed();
    }

    /** Why the step counts as failed, or "ok". */
    String status() {
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
        publishRate = r.publishRate;
        receiveRate = r.receiveRate;
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
    }
}
