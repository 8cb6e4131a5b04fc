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
 * One step of a sweep as it ended, judged: how the JMeter process ended and, when it wrote one, the figures of its run
 * report ({@code report-<run>.json}, written by the MQTT Run Report), grouped by what they measure. Immutable: a
 * {@link Builder} gathers the figures while the step runs, and the step is built once, where it is judged.
 */
final class StepResult {
    /** Keys of the sweep's JSON and names of its tables, in the order of {@link Latencies#pubToSubMillis}. */
    static final String[] LATENCY_KEYS = {"mean", "p50", "p90", "p99", "p99.9", "max"};
    static final String[] LATENCY_NAMES = {"avg", "p50", "p90", "p99", "p99.9", "max"};
    /** The index of p99 in {@link Latencies#pubToSubMillis}. */
    static final int P99 = 3;

    final int index;
    final String label;
    final SweepOptions.Step step;
    final String runId;
    /** Relative to the sweep directory. */
    final String dir;
    final Run run;
    /** The window's rates and the drain beside them, and what reached the subscribers within the window. */
    final Throughput throughput;
    final Latencies latency;
    final Delivery delivery;
    /** What the generator offered and how busy it and its machine were. */
    final GeneratorLoad load;
    /** The monitored brokers, their nodes added up; null when no broker was monitored. */
    final BrokerUse broker;
    /** The run report's verdict; null when the run wrote no report. */
    final Verdict verdict;
    final String verdictText;
    /** From {@link StepCriteria#judge}: the one decision on the step; null before it is judged. */
    final StepCriteria.Judgement judgement;

    /** How the JMeter process of the step ended, and where its report is. */
    static final class Run {
        final Integer exitCode;
        final boolean timedOut;
        final boolean skipped;
        final double seconds;
        /** How the wait for the broker to be quiet before the step ended; null when there was none. */
        final BrokerSettle.Result settle;
        /** report-<run>.json and .html relative to the sweep directory, or null when the run wrote none. */
        final String reportJson;
        final String reportHtml;

        Run(Builder b) {
            exitCode = b.exitCode;
            timedOut = b.timedOut;
            skipped = b.skipped;
            seconds = b.seconds;
            settle = b.settle;
            reportJson = b.reportJson;
            reportHtml = b.reportHtml;
        }
    }

    static final class Throughput {
        /** From the report: connections made over every engine (connectsOk), not what the step's properties promise. */
        final long clients;
        /** The window's rates and the drain beside them, as the report declares them. */
        final Rates rates;
        /** The measured window (warm-up end to production end), in seconds. */
        final double measuredSeconds;
        /** Deliveries owed per message the broker took (subscribers matching, over the run); 0 without subscribers. */
        final double fanOut;
        /** Deliveries received within the window, drain excluded, per second. */
        final double windowReceiveRate;
        /**
         * Publishes per second that made it through within the window: deliveries received ÷ fan-out, or, without
         * subscribers, publishes the broker acknowledged; comparable with {@link GeneratorLoad#offeredRate}.
         */
        final double deliveredRate;
        /** How much the deliveries owed but not made, and the publishes not acknowledged, rose over the window. */
        final double backlogGrowth;

        Throughput(Builder b) {
            clients = b.clients;
            rates = b.rates;
            measuredSeconds = b.measuredSeconds;
            fanOut = b.fanOut;
            windowReceiveRate = b.windowReceiveRate;
            deliveredRate = b.deliveredRate;
            backlogGrowth = b.backlogGrowth;
        }
    }

    static final class Latencies {
        /** Pub-to-sub latency in ms, in the order of {@link #LATENCY_KEYS}. */
        private final double[] pubToSubMillis;
        /** p99 in ms from the intended send time (pub-to-sub, or publish ack without subscribers); NaN: not measured. */
        final double intendedP99Millis;
        final double intendedP50Millis;
        /** p99 schedule lag in ms; 0 when nothing was paced. */
        final double lagP99Millis;

        Latencies(Builder b) {
            pubToSubMillis = b.latencyMillis.clone();
            intendedP99Millis = b.intendedP99Millis;
            intendedP50Millis = b.intendedP50Millis;
            lagP99Millis = b.lagP99Millis;
        }

        /** Pub-to-sub in ms at {@code k} of {@link #LATENCY_KEYS}. */
        double pubToSubMillis(int k) {
            return pubToSubMillis[k];
        }
    }

    static final class Delivery {
        final long expected;
        final long received;
        final long lost;
        final long duplicates;
        final long errors;

        Delivery(Builder b) {
            expected = b.expected;
            received = b.received;
            lost = b.lost;
            duplicates = b.duplicates;
            errors = b.errors;
        }
    }

    static final class GeneratorLoad {
        /** Publishes per second the throughput timers scheduled over the window; 0 when nothing was paced. */
        final double offeredRate;
        final long generatorSaturatedSeconds;
        final long machineSaturatedSeconds;

        GeneratorLoad(Builder b) {
            offeredRate = b.offeredRate;
            generatorSaturatedSeconds = b.generatorSaturatedSeconds;
            machineSaturatedSeconds = b.machineSaturatedSeconds;
        }
    }

    static final class BrokerUse {
        final double cpuAvg;
        final double cpuMax;
        final long rssAvg;
        final long rssMax;

        BrokerUse(Builder b) {
            cpuAvg = b.brokerCpuAvg;
            cpuMax = b.brokerCpuMax;
            rssAvg = b.brokerRssAvg;
            rssMax = b.brokerRssMax;
        }
    }

    private StepResult(Builder b, StepCriteria.Judgement judgement) {
        index = b.index;
        label = b.label;
        step = b.step;
        runId = b.runId;
        dir = b.dir;
        run = new Run(b);
        throughput = new Throughput(b);
        latency = new Latencies(b);
        delivery = new Delivery(b);
        load = new GeneratorLoad(b);
        broker = b.hasBroker ? new BrokerUse(b) : null;
        verdict = b.verdict;
        verdictText = b.verdictText;
        this.judgement = judgement;
    }

    boolean hasReport() {
        return verdict != null;
    }

    /** Passed by {@link StepCriteria}: the run held and every criterion did. */
    boolean ok() {
        return !run.skipped && judgement != null && judgement.passed;
    }

    /** "ok", or why the step did not pass: the first reason its judgement gives. */
    String status() {
        if (run.skipped || judgement == null) {
            return runStatus();
        }
        return judgement.passed ? "ok" : judgement.reason();
    }

    /** How the run itself ended: skipped, timed out, its exit code, no report, or its verdict. */
    String runStatus() {
        if (run.skipped) {
            return "skipped (an earlier step failed)";
        }
        if (run.timedOut) {
            return "timed out";
        }
        if (run.exitCode == null || run.exitCode != 0) {
            return "JMeter exit code " + run.exitCode;
        }
        if (!hasReport()) {
            return "no report";
        }
        return verdict.passed() ? "ok" : "verdict " + verdict;
    }

    /**
     * The figures of a step while it runs, and what its report says once read; {@link #judgedBy} ends it. Its fields are
     * open because they come one at a time (the settle, the process's end, the report) and tests set a few of them.
     */
    static final class Builder {
        final int index;
        final String label;
        final SweepOptions.Step step;
        final String runId;
        final String dir;
        Integer exitCode;
        boolean timedOut;
        boolean skipped;
        double seconds;
        BrokerSettle.Result settle;
        String reportJson;
        String reportHtml;
        long clients;
        Rates rates = Rates.UNKNOWN;
        long expected;
        long received;
        long lost;
        long duplicates;
        long errors;
        final double[] latencyMillis = new double[LATENCY_KEYS.length];
        boolean hasBroker;
        double brokerCpuAvg;
        double brokerCpuMax;
        long brokerRssAvg;
        long brokerRssMax;
        Verdict verdict;
        String verdictText;
        double measuredSeconds;
        double offeredRate;
        double fanOut;
        double windowReceiveRate;
        double deliveredRate;
        double backlogGrowth;
        double intendedP99Millis = Double.NaN;
        double intendedP50Millis = Double.NaN;
        double lagP99Millis;
        long generatorSaturatedSeconds;
        long machineSaturatedSeconds;

        Builder(int index, String label, SweepOptions.Step step, String runId, String dir) {
            this.index = index;
            this.label = label;
            this.step = step;
            this.runId = runId;
            this.dir = dir;
        }

        /** The step as it ended, judged by {@code criteria}. */
        StepResult judgedBy(StepCriteria criteria) {
            return new StepResult(this, criteria.judge(unjudged()));
        }

        /** The step as it ended, before the criteria read it. */
        StepResult unjudged() {
            return new StepResult(this, null);
        }

        /** A step that did not run (an earlier one failed): nothing to judge. */
        StepResult skipped() {
            skipped = true;
            return new StepResult(this, null);
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
            expected = r.count(Count.EXPECTED);
            received = r.count(Count.RECEIVED_OF_EXPECTED);
            lost = r.count(Count.LOST);
            duplicates = r.count(Count.DUPLICATES);
            errors = Count.errors(r::count);
            LatencyStats p = r.latencyMicros.get("pubToSub");
            if (p != null) {
                double[] micros = {p.mean, p.percentile(50.0), p.percentile(90.0), p.percentile(99.0),
                    p.percentile(99.9), p.max};
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
            fanOut = SweepResults.fanOut(expected, acknowledged);
            long acknowledgedInWindow = r.count(Count.ACKNOWLEDGED_IN_WINDOW);
            long receivedInWindow = r.count(Count.RECEIVED_IN_WINDOW);
            long inFlightGrowth = r.count(Count.IN_FLIGHT_AT_WINDOW_END) - r.count(Count.IN_FLIGHT_AT_WINDOW_START);
            windowReceiveRate = rates.receive;
            deliveredRate = SweepResults.deliveredRate(rates, fanOut);
            backlogGrowth = fanOut > 0 ? fanOut * (acknowledgedInWindow + inFlightGrowth) - receivedInWindow
                    : inFlightGrowth;
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
}
