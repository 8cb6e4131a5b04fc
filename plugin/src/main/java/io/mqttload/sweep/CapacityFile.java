package io.mqttload.sweep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.mqttload.delivery.Verdict;

/**
 * {@code capacity.json}, mapped by {@link ResultJson}: the search's settings and criteria, its answer, and every step
 * as judged, the figures of a step without a report left out. Field names are read by tools and the ITs;
 * {@link #FORMAT_VERSION} says when a field changes meaning.
 */
final class CapacityFile {
    /**
     * 2: {@code sustained} is the recommended operating point when {@code criteria.maxBrokerCpuPercent} is present (a
     * plugin reading format 1 would take it for the highest sustained load, so format 2 is refused there). Format 1 is
     * format 2 without the broker-CPU criterion, and is read as such.
     */
    static final int FORMAT_VERSION = 2;
    static final int OLDEST_FORMAT_VERSION = 1;

    public int formatVersion = FORMAT_VERSION;
    public String searchId;
    public String plan;
    /** The property searched. */
    public String property;
    public String started;
    public String finished;
    public List<String> remote = new ArrayList<>();
    /** The command line, secrets masked. */
    public List<String> arguments = new ArrayList<>();
    public Settings settings = new Settings();
    public Criteria criteria = new Criteria();
    /** A {@link CapacitySearch.Outcome}. */
    public String outcome;
    /** Whether the outcome is a limit of the broker the user may quote. */
    public boolean answered;
    /** Absent: nothing passed, or nothing failed. */
    public Double sustained;
    public Double failed;
    /** {@code --require}; absent when not given. */
    public Double required;
    /** The verdict's sentence, as the Markdown and the console give it. */
    public String verdict;
    public int exitCode;
    public List<Step> steps = new ArrayList<>();
    /** Chart name → its SVG file. */
    public Map<String, String> charts = new LinkedHashMap<>();

    static final class Settings {
        public double start;
        /** 0: no maximum. */
        public double max;
        public double factor;
        public double tolerancePercent;
        public double resolution;
        public int maxSteps;
        public long stepSeconds;
        public long confirmSeconds;
        public long warmupSeconds;
        public String durationProperty;
    }

    static final class Criteria {
        public double maxLossPercent;
        public double minDeliveredPercent;
        public double p99SlaMillis;
        /** The SLA's value unless set apart. */
        public double maxScheduleLagMillis;
        public double maxBacklogGrowthPercent;
        public double maxSaturatedPercent;
        /**
         * The operating point's criterion: the broker's CPU averaged over a step's window at most this share of
         * {@link #brokerCores} cores (the Broker Monitor's % of one core, nodes added up, ÷ the cores); both absent
         * when not asked, and then {@code sustained} is the highest sustained load.
         */
        public Double maxBrokerCpuPercent;
        public Double brokerCores;
    }

    /** A criterion a step broke, and the figure that broke it. */
    static final class Reason {
        public String criterion;
        public String figure;
    }

    /** One step; the figures from {@code report} on only when its run wrote a report. */
    static final class Step {
        public int index;
        /** A {@link CapacitySearch.Phase}. */
        public String phase;
        public double value;
        public String runId;
        public String dir;
        public boolean passed;
        /** The whole run, rounded to tenths. */
        public double seconds;
        /** The index of the disturbed step this one runs again. */
        public Integer repeatOf;
        /** Whether a later step ran this one again because it was disturbed. */
        public boolean repeated;
        /**
         * A {@link StepCriteria.Limit}, only in a judged step: there {@code null} says it passed, and the field is
         * written as such, so the holder tells a judged step's null apart from an unjudged step's absent field.
         */
        public AtomicReference<String> limit;
        public String saturationCaveat;
        public List<Reason> reasons;
        public Integer exitCode;
        public boolean timedOut;
        public ResultJson.Settle brokerSettle;
        public String report;
        public Double measuredSeconds;
        public Double offeredRate;
        public Double deliveredRate;
        public Double windowReceiveRate;
        public Double fanOut;
        public Double backlogGrowth;
        public Long clients;
        public Long expected;
        public Long lost;
        public Double lagP99Millis;
        public Double pubToSubP99Millis;
        public Long generatorSaturatedSeconds;
        public Long machineSaturatedSeconds;
        public Verdict verdict;
        public Long receivedInDrain;
        public Double drainSeconds;
        public Double drainRate;
        /** Absent: no message carried an intended send time. */
        public Double intendedP50Millis;
        public Double intendedP99Millis;
        /** CPU only. */
        public ResultJson.Broker broker;
    }

    static CapacityFile of(SweepOptions options, CapacityOutput output, CapacitySearch.Result result,
            Instant started, Instant finished, Iterable<String> chartNames) {
        SearchOptions o = options.capacity;
        CapacityFile f = new CapacityFile();
        f.searchId = options.sweepId;
        f.plan = options.plan.toString();
        f.property = o.property;
        f.started = started.toString();
        f.finished = finished.toString();
        f.remote.addAll(options.remote);
        f.arguments.addAll(options.arguments);
        CapacitySearch.Settings t = o.settings;
        f.settings.start = t.start;
        f.settings.max = t.max;
        f.settings.factor = t.factor;
        f.settings.tolerancePercent = t.tolerancePercent;
        f.settings.resolution = t.resolution;
        f.settings.maxSteps = t.maxSteps;
        f.settings.stepSeconds = o.stepSeconds;
        f.settings.confirmSeconds = o.confirmSeconds;
        f.settings.warmupSeconds = o.warmupSeconds;
        f.settings.durationProperty = o.durationProperty;
        StepCriteria c = o.criteria;
        f.criteria.maxLossPercent = c.maxLossPercent;
        f.criteria.minDeliveredPercent = c.minDeliveredPercent;
        f.criteria.p99SlaMillis = c.p99SlaMillis;
        f.criteria.maxScheduleLagMillis = c.scheduleLagLimitMillis();
        f.criteria.maxBacklogGrowthPercent = c.maxBacklogGrowthPercent;
        f.criteria.maxSaturatedPercent = c.maxSaturatedPercent;
        if (c.brokerCpuAsked()) {
            f.criteria.maxBrokerCpuPercent = c.maxBrokerCpuPercent;
            f.criteria.brokerCores = c.brokerCores;
        }
        f.outcome = result.outcome.name();
        f.answered = result.outcome.answered;
        f.sustained = Double.isNaN(result.sustained) ? null : result.sustained;
        f.failed = Double.isNaN(result.failed) ? null : result.failed;
        f.required = o.required > 0 ? o.required : null;
        f.verdict = output.verdict();
        f.exitCode = output.exitCode();
        for (CapacitySearch.Step step : result.steps) {
            f.steps.add(step(step, output.repeated(step)));
        }
        chartNames.forEach(k -> f.charts.put(k, k + ".svg"));
        return f;
    }

    private static Step step(CapacitySearch.Step step, boolean repeated) {
        StepResult s = step.result;
        Step n = new Step();
        n.index = s.index;
        n.phase = step.phase.name();
        n.value = step.value;
        n.runId = s.runId;
        n.dir = s.dir;
        n.passed = step.passed();
        n.seconds = Math.round(s.run.seconds * 10) / 10.0;
        n.repeatOf = step.repeatOf == null ? null : step.repeatOf.result.index;
        n.repeated = repeated;
        if (s.judgement != null) {
            n.limit = new AtomicReference<>(s.judgement.limit == null ? null : s.judgement.limit.name());
            n.saturationCaveat = s.judgement.saturationCaveat;
            n.reasons = new ArrayList<>();
            for (StepCriteria.Breach b : s.judgement.breaches) {
                Reason r = new Reason();
                r.criterion = b.criterion;
                r.figure = b.figure;
                n.reasons.add(r);
            }
        }
        n.exitCode = s.run.exitCode;
        n.timedOut = s.run.timedOut;
        n.brokerSettle = ResultJson.Settle.of(s.run.settle);
        if (s.hasReport()) {
            figures(s, n);
        }
        return n;
    }

    private static void figures(StepResult s, Step n) {
        n.report = s.run.reportJson;
        n.measuredSeconds = s.throughput.measuredSeconds;
        n.offeredRate = s.load.offeredRate;
        n.deliveredRate = s.throughput.deliveredRate;
        n.windowReceiveRate = s.throughput.windowReceiveRate;
        n.fanOut = s.throughput.fanOut;
        n.backlogGrowth = s.throughput.backlogGrowth;
        n.clients = s.throughput.clients;
        n.expected = s.delivery.expected;
        n.lost = s.delivery.lost;
        n.lagP99Millis = s.latency.lagP99Millis;
        n.pubToSubP99Millis = s.latency.pubToSubMillis(StepResult.P99);
        n.generatorSaturatedSeconds = s.load.generatorSaturatedSeconds;
        n.machineSaturatedSeconds = s.load.machineSaturatedSeconds;
        n.verdict = s.verdict;
        if (s.throughput.rates.drainKnown) {
            n.receivedInDrain = s.throughput.rates.drainReceived;
            n.drainSeconds = s.throughput.rates.drainSeconds;
            n.drainRate = s.throughput.rates.drainRate;
        }
        if (!Double.isNaN(s.latency.intendedP99Millis)) {
            n.intendedP50Millis = s.latency.intendedP50Millis;
            n.intendedP99Millis = s.latency.intendedP99Millis;
        }
        n.broker = ResultJson.Broker.of(s.broker, false);
    }
}
