package io.mqttload.sweep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mqttload.delivery.Verdict;

/**
 * {@code sweep.json}, mapped by {@link ResultJson}: the sweep's settings and every step's figures, those of a step
 * without a report left out. Field names are read by tools and the ITs; {@link ResultJson#FORMAT_VERSION} says when a
 * field changes meaning.
 */
final class SweepFile {
    public int formatVersion = ResultJson.FORMAT_VERSION;
    public String sweepId;
    public String plan;
    public String started;
    public String finished;
    public List<String> remote = new ArrayList<>();
    /** The command line, secrets masked. */
    public List<String> arguments = new ArrayList<>();
    /** Every step passed. */
    public boolean ok;
    public List<Step> steps = new ArrayList<>();
    /** Chart name → its SVG file. */
    public Map<String, String> charts = new LinkedHashMap<>();

    /** One step; the figures from {@code clients} on only when its run wrote a report. */
    static final class Step {
        public int index;
        public String label;
        public Map<String, String> properties = new LinkedHashMap<>();
        public String runId;
        public String dir;
        public String status;
        public boolean ok;
        public Integer exitCode;
        public boolean timedOut;
        public ResultJson.Settle brokerSettle;
        /** The whole run, rounded to tenths. */
        public double seconds;
        public String report;
        public String reportHtml;
        public Long clients;
        /** Over the measured window, the drain after production excluded. */
        public Double receiveRate;
        public Double publishRate;
        public Long receivedInDrain;
        public Double drainSeconds;
        public Double drainRate;
        /** Keyed as {@link StepResult#LATENCY_KEYS}. */
        public Map<String, Double> pubToSubMillis;
        public ResultJson.Broker broker;
        public Long expected;
        public Long received;
        public Long lost;
        public Long duplicates;
        public Long errors;
        public Verdict verdict;
        public String verdictText;
    }

    static SweepFile of(SweepOptions options, List<StepResult> results, Instant started, Instant finished,
            Iterable<String> chartNames) {
        SweepFile f = new SweepFile();
        f.sweepId = options.sweepId;
        f.plan = options.plan.toString();
        f.started = started.toString();
        f.finished = finished.toString();
        f.remote.addAll(options.remote);
        f.arguments.addAll(options.arguments);
        f.ok = results.stream().allMatch(StepResult::ok);
        for (StepResult s : results) {
            f.steps.add(step(s));
        }
        chartNames.forEach(k -> f.charts.put(k, k + ".svg"));
        return f;
    }

    private static Step step(StepResult s) {
        Step n = new Step();
        n.index = s.index;
        n.label = s.label;
        n.properties.putAll(s.step.properties);
        n.runId = s.runId;
        n.dir = s.dir;
        n.status = s.status();
        n.ok = s.ok();
        n.exitCode = s.run.exitCode;
        n.timedOut = s.run.timedOut;
        n.brokerSettle = ResultJson.Settle.of(s.run.settle);
        n.seconds = Math.round(s.run.seconds * 10) / 10.0;
        if (!s.hasReport()) {
            return n;
        }
        n.report = s.run.reportJson;
        n.reportHtml = s.run.reportHtml;
        n.clients = s.throughput.clients;
        n.receiveRate = s.throughput.rates.receive;
        n.publishRate = s.throughput.rates.publish;
        if (s.throughput.rates.drainKnown) {
            n.receivedInDrain = s.throughput.rates.drainReceived;
            n.drainSeconds = s.throughput.rates.drainSeconds;
            n.drainRate = s.throughput.rates.drainRate;
        }
        n.pubToSubMillis = new LinkedHashMap<>();
        for (int k = 0; k < StepResult.LATENCY_KEYS.length; k++) {
            n.pubToSubMillis.put(StepResult.LATENCY_KEYS[k], s.latency.pubToSubMillis(k));
        }
        n.broker = ResultJson.Broker.of(s.broker, true);
        n.expected = s.delivery.expected;
        n.received = s.delivery.received;
        n.lost = s.delivery.lost;
        n.duplicates = s.delivery.duplicates;
        n.errors = s.delivery.errors;
        n.verdict = s.verdict;
        n.verdictText = s.verdictText;
        return n;
    }
}
