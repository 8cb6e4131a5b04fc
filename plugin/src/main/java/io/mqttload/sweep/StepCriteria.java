package io.mqttload.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mqttload.delivery.Verdict;

/**
 * Whether a step sustained its load: the one place that decides, for the sweep's table and the capacity search's
 * bisection alike. A step passes only if the run itself held (ended by itself, wrote its report, its verdict is a
 * pass or loss within the tolerance) and every criterion below holds, each with a threshold a user can set:
 * <ol>
 * <li>loss within {@link #maxLossPercent} (0 by default; a tolerance is meant for QoS 0, where the protocol allows
 * loss);</li>
 * <li>delivered at least {@link #minDeliveredPercent} of the offered rate (received within the measured window, drain
 * excluded, against what the throughput timers scheduled);</li>
 * <li>p99 latency from the intended send time within {@link #p99SlaMillis}: what a device waiting on its schedule
 * sees, which hides no queue in front of the client;</li>
 * <li>p99 schedule lag within {@link #maxScheduleLagMillis}: the publishers kept to their schedule;</li>
 * <li>no growing backlog: the deliveries owed but not yet made, and the publishes not yet acknowledged, rose over
 * the window by no more than {@link #maxBacklogGrowthPercent} of the window's deliveries, or one second's (or the
 * SLA's, if longer) deliveries, whichever is larger;</li>
 * <li>only when asked ({@link #maxBrokerCpuPercent}, the recommended operating point): the monitored broker's CPU,
 * averaged over the window, within that share of {@link #brokerCores} cores;</li>
 * <li>the load generator (its process, or the machine it runs on) saturated for at most
 * {@link #maxSaturatedPercent} of the window, or for one second.</li>
 * </ol>
 * A step whose generator or machine was saturated and that fails is the generator's limit, not the broker's: the
 * judgement says so rather than name the criterion that broke.
 */
final class StepCriteria {
    static final double DEFAULT_MAX_LOSS_PERCENT = 0;
    static final double DEFAULT_MIN_DELIVERED_PERCENT = 98;
    static final double DEFAULT_P99_SLA_MILLIS = 100;
    static final double DEFAULT_MAX_BACKLOG_GROWTH_PERCENT = 1;
    static final double DEFAULT_MAX_SATURATED_PERCENT = 10;
    /** The criterion of how the run itself ended. */
    static final String RUN = "run";
    /** The operating point's criterion, as a failed step names it. */
    static final String BROKER_CPU = "broker CPU";
    /** Saturated seconds up to this many fail nothing however short the window: a GC pause, the JIT at the start. */
    static final long SATURATED_SECONDS_FORGIVEN = 1;

    /** What held a step back, when it did not pass. */
    enum Limit {
        /** The broker (or whatever stands between the clients): the criteria are about it. */
        BROKER,
        /** The engine's process used nearly every core: add engines. */
        GENERATOR,
        /** The engine's machine was busy nearly throughout (a broker beside it, say): neither figure is clean. */
        MACHINE,
        /**
         * The run produced nothing to judge: no report, a timeout, a run that was stopped or incomplete, or no figure
         * for a criterion that was asked for (the broker's CPU).
         */
        RUN
    }

    double maxLossPercent = DEFAULT_MAX_LOSS_PERCENT;
    double minDeliveredPercent = DEFAULT_MIN_DELIVERED_PERCENT;
    double p99SlaMillis = DEFAULT_P99_SLA_MILLIS;
    /** Negative: the SLA's value. */
    double maxScheduleLagMillis = -1;
    double maxBacklogGrowthPercent = DEFAULT_MAX_BACKLOG_GROWTH_PERCENT;
    double maxSaturatedPercent = DEFAULT_MAX_SATURATED_PERCENT;
    /**
     * The broker's CPU averaged over the window may be at most this share of {@link #brokerCores} cores; 0: not asked.
     * The Broker Monitor reads CPU in % of one core (the nodes of a cluster added up), so a multi-core broker's
     * "75 % of its CPU" is 75 % of the cores it has, which the monitor cannot know (cpusets, containers, a broker's own
     * scheduler count): the user says how many, one by default, what a single-threaded broker such as Mosquitto uses.
     */
    double maxBrokerCpuPercent;
    double brokerCores = 1;
    /**
     * The capacity search's steps need an offered rate and latency from the intended send time, so their absence fails
     * a step; a sweep may run an unpaced plan (as fast as it goes), and then judges without them and says so.
     */
    boolean paceRequired;

    double scheduleLagLimitMillis() {
        return maxScheduleLagMillis < 0 ? p99SlaMillis : maxScheduleLagMillis;
    }

    /** The thresholds as one line, for the record in every output. */
    String describe() {
        return String.format(Locale.ROOT, "loss <= %s %%, delivered >= %s %% of offered, p99 from intended <= %s ms,"
                + " schedule lag p99 <= %s ms, backlog growth <= %s %% of the window's deliveries (or 1 s of them, or the"
                + " SLA's), %sgenerator or machine saturated <= %s %% of the window", plain(maxLossPercent),
                plain(minDeliveredPercent), plain(p99SlaMillis), plain(scheduleLagLimitMillis()),
                plain(maxBacklogGrowthPercent), brokerCpuAsked() ? brokerCpuLimit() + ", " : "",
                plain(maxSaturatedPercent));
    }

    boolean brokerCpuAsked() {
        return maxBrokerCpuPercent > 0;
    }

    /** "broker CPU avg <= 75 % of 1 core": the operating point's criterion as the outputs name it. */
    String brokerCpuLimit() {
        return String.format(Locale.ROOT, "broker CPU avg <= %s %% of %s", plain(maxBrokerCpuPercent), cores());
    }

    private String cores() {
        return plain(brokerCores) + (brokerCores == 1 ? " core" : " cores");
    }

    /**
     * The step's broker CPU as the criterion reads it: the monitored brokers' average over the window (% of one core,
     * nodes added up) as a share of {@link #brokerCores}; NaN when no monitor gave a CPU figure.
     */
    double brokerCpuPercent(StepResult s) {
        return s.broker == null ? Double.NaN : s.broker.cpuAvg / brokerCores;
    }

    /** One criterion that did not hold: what it is, and the figure that broke it. */
    static final class Breach {
        final String criterion;
        final String figure;

        Breach(String criterion, String figure) {
            this.criterion = criterion;
            this.figure = figure;
        }

        /** "criterion: figure"; how the run itself ended ("timed out", "no report") reads as it is. */
        @Override
        public String toString() {
            return criterion.equals(RUN) ? figure : criterion + ": " + figure;
        }
    }

    /** The decision on one step: passed, or what held it back and every criterion that broke, in the order above. */
    static final class Judgement {
        final boolean passed;
        final Limit limit;
        final List<Breach> breaches;
        /** Criteria the run gave no figure for, where the figure is not required: the sweep of an unpaced plan. */
        final List<String> notJudged;
        /**
         * A failed step's saturated generator or machine that a raised saturation threshold let through, or null: the
         * failure is named as the broker's, and this says it may not be the broker's alone.
         */
        final String saturationCaveat;

        Judgement(boolean passed, Limit limit, List<Breach> breaches, List<String> notJudged) {
            this(passed, limit, breaches, notJudged, null);
        }

        Judgement(boolean passed, Limit limit, List<Breach> breaches, List<String> notJudged, String saturationCaveat) {
            this.passed = passed;
            this.limit = limit;
            this.breaches = List.copyOf(breaches);
            this.notJudged = List.copyOf(notJudged);
            this.saturationCaveat = passed ? null : saturationCaveat;
        }

        /** "passed", or the first reason: the one the capacity verdict names, with what to do about a saturated one. */
        String reason() {
            if (passed) {
                return "passed";
            }
            String first = breaches.get(0).toString();
            switch (limit) {
                case GENERATOR:
                    return first + ": add engines";
                case MACHINE:
                    return first + ": give the broker and the engines machines of their own, or a larger one";
                default:
                    return first;
            }
        }

        /** Every reason, in the order judged (a saturated generator or machine first), for the step's row. */
        String reasons() {
            if (passed) {
                return "passed";
            }
            List<String> all = new ArrayList<>();
            breaches.forEach(b -> all.add(b.toString()));
            if (saturationCaveat != null) {
                all.add("while " + saturationCaveat);
            }
            return String.join("; ", all);
        }
    }

    /** Judges a step as it ended; see the class comment for the criteria and their order. */
    Judgement judge(StepResult s) {
        List<Breach> breaches = new ArrayList<>();
        if (!s.hasReport()) {
            breaches.add(new Breach(RUN, s.runStatus()));
            return new Judgement(false, Limit.RUN, breaches, List.of());
        }
        if (s.run.timedOut) {
            breaches.add(new Breach(RUN, s.runStatus()));
            return new Judgement(false, Limit.RUN, breaches, List.of());
        }
        switch (s.verdict) {
            case NO_LOSS:
            case LOSS:
            case LOSS_UNCERTAIN:
                break;
            case FAILED:
                if (s.throughput.clients == 0) {
                    // Not one connection: a wrong address or port, a broker down, credentials refused. The plan never
                    // ran, so no load was judged; at a lower load it would fail the same way.
                    breaches.add(new Breach(RUN, "no connection succeeded, so no load was offered: " + s.verdictText));
                    return new Judgement(false, Limit.RUN, breaches, List.of());
                }
                // The broker refused or broke what the plan asked (connections, subscriptions, publishes): its limit.
                breaches.add(new Breach("verdict FAILED", s.verdictText));
                break;
            default:
                breaches.add(new Breach("verdict " + s.verdict.name(), s.verdictText));
                return new Judgement(false, Limit.RUN, breaches, List.of());
        }
        if (s.run.exitCode == null || s.run.exitCode != 0) {
            breaches.add(new Breach(RUN, s.runStatus()));
        }
        double lossPercent = s.delivery.expected > 0 ? 100.0 * s.delivery.lost / s.delivery.expected : 0;
        boolean lossVerdict = s.verdict == Verdict.LOSS || s.verdict == Verdict.LOSS_UNCERTAIN;
        if (lossPercent > maxLossPercent) {
            breaches.add(new Breach("loss", String.format(Locale.ROOT, "%d of %d deliveries lost (%s %%, at most %s %%"
                    + " allowed)", s.delivery.lost, s.delivery.expected, percent(lossPercent), plain(maxLossPercent))));
        } else if (lossVerdict && s.delivery.lost == 0) {
            breaches.add(new Breach("loss", s.verdictText));
        }
        List<String> notJudged = new ArrayList<>();
        if (s.load.offeredRate > 0) {
            double deliveredPercent = 100.0 * s.throughput.deliveredRate / s.load.offeredRate;
            if (deliveredPercent < minDeliveredPercent) {
                breaches.add(new Breach("delivered", String.format(Locale.ROOT, "%.1f msg/s of %.1f offered (%s %%,"
                        + " at least %s %% needed)", s.throughput.deliveredRate, s.load.offeredRate, percent(deliveredPercent),
                        plain(minDeliveredPercent))));
            }
        } else if (paceRequired) {
            breaches.add(new Breach("offered rate", "unknown: no Publish sampler was paced by a Constant Throughput"
                    + " Timer the engine reads, so nothing says what load was offered"));
        } else {
            notJudged.add("delivered against offered (no throughput timer paced the publishers)");
        }
        if (!Double.isNaN(s.latency.intendedP99Millis)) {
            if (s.latency.intendedP99Millis > p99SlaMillis) {
                breaches.add(new Breach("p99 from intended", String.format(Locale.ROOT, "%.1f ms, over the %s ms SLA",
                        s.latency.intendedP99Millis, plain(p99SlaMillis))));
            }
        } else if (paceRequired) {
            breaches.add(new Breach("p99 from intended", "not measured: no message carried an intended send time"));
        } else {
            notJudged.add("p99 from the intended send time (no message carried one)");
        }
        if (s.latency.lagP99Millis > scheduleLagLimitMillis()) {
            breaches.add(new Breach("schedule lag", String.format(Locale.ROOT, "p99 %.1f ms, over %s ms",
                    s.latency.lagP99Millis, plain(scheduleLagLimitMillis()))));
        }
        double allowed = backlogAllowance(s);
        if (s.throughput.backlogGrowth > allowed) {
            breaches.add(new Breach("backlog", String.format(Locale.ROOT, "grew by %d over the %.0f s window (%+.1f/s),"
                    + " more than the %.0f allowed", Math.round(s.throughput.backlogGrowth), s.throughput.measuredSeconds,
                    s.throughput.backlogGrowth / Math.max(1e-9, s.throughput.measuredSeconds), allowed)));
        }
        double brokerCpu = brokerCpuPercent(s);
        if (brokerCpuAsked() && brokerCpu > maxBrokerCpuPercent) {
            breaches.add(new Breach(BROKER_CPU, String.format(Locale.ROOT, "%.1f %% > %s %% (average over the window%s)",
                    brokerCpu, plain(maxBrokerCpuPercent), brokerCores == 1 ? ", of 1 core" : String.format(Locale.ROOT,
                            ": %.1f %% of one core, of %s", s.broker.cpuAvg, cores()))));
        }
        double generatorPercent = saturatedPercent(s.load.generatorSaturatedSeconds, s);
        double machinePercent = saturatedPercent(s.load.machineSaturatedSeconds, s);
        String caveat = saturationAllowed(s, generatorPercent, machinePercent);
        Limit limit = Limit.BROKER;
        if (generatorPercent > maxSaturatedPercent) {
            limit = Limit.GENERATOR;
            breaches.add(0, new Breach("generator", String.format(Locale.ROOT, "its process used over 90 %% of every core"
                    + " for %d of %.0f s", Math.min(s.load.generatorSaturatedSeconds, Math.round(s.throughput.measuredSeconds)),
                    s.throughput.measuredSeconds)));
        } else if (machinePercent > maxSaturatedPercent) {
            limit = Limit.MACHINE;
            breaches.add(0, new Breach("machine", String.format(Locale.ROOT, "the engine's machine was over 90 %% busy"
                    + " for %d of %.0f s", Math.min(s.load.machineSaturatedSeconds, Math.round(s.throughput.measuredSeconds)),
                    s.throughput.measuredSeconds)));
        }
        if (brokerCpuAsked() && Double.isNaN(brokerCpu)) {
            // Passing without the figure would answer the highest sustained load under the operating point's name, and
            // failing would send the search down through loads that never broke it: the step is not judged at all.
            breaches.add(0, new Breach(BROKER_CPU, "not measured: no Broker Monitor reported the broker's CPU over this"
                    + " step's window (a process not found, or not readable), so --max-broker-cpu cannot judge it"));
            return new Judgement(false, Limit.RUN, breaches, notJudged);
        }
        return new Judgement(breaches.isEmpty(), breaches.isEmpty() ? null : limit, breaches, notJudged,
                limit == Limit.BROKER ? caveat : null);
    }

    /**
     * When the user raised {@link #maxSaturatedPercent} above its default (a broker sharing the engine's machine, say)
     * and the step's generator or machine was saturated for more than the default allows: what that leaves open. The
     * step is judged on the other criteria, but a failure there may be the machine's as much as the broker's.
     */
    private String saturationAllowed(StepResult s, double generatorPercent, double machinePercent) {
        long window = Math.round(s.throughput.measuredSeconds);
        if (generatorPercent > DEFAULT_MAX_SATURATED_PERCENT && generatorPercent <= maxSaturatedPercent) {
            return String.format(Locale.ROOT, "the generator's process used over 90 %% of every core for %d of %d s"
                    + " (allowed: saturated <= %s %%)", Math.min(s.load.generatorSaturatedSeconds, window), window,
                    plain(maxSaturatedPercent));
        }
        if (machinePercent > DEFAULT_MAX_SATURATED_PERCENT && machinePercent <= maxSaturatedPercent) {
            return String.format(Locale.ROOT, "the engine's machine was over 90 %% busy for %d of %d s (allowed:"
                    + " saturated <= %s %%)", Math.min(s.load.machineSaturatedSeconds, window), window,
                    plain(maxSaturatedPercent));
        }
        return null;
    }

    /**
     * How far the backlog may rise over a step: a share of the window's deliveries, or one second's deliveries, or
     * the deliveries the SLA lets be in transit, whichever is larger. Below a second's worth the rise is within what a
     * window's edges cut from bursts in transit (a sample's messages leave together); a queue that grew by more than
     * the SLA's worth of a short window also shows in the latency from the intended time, which counts the messages the
     * drain delivers late.
     */
    double backlogAllowance(StepResult s) {
        double owedPerSecond = s.load.offeredRate > 0 && s.throughput.fanOut > 0 ? s.load.offeredRate * s.throughput.fanOut
                : s.throughput.windowReceiveRate;
        double share = maxBacklogGrowthPercent / 100.0 * owedPerSecond * s.throughput.measuredSeconds;
        double inTransit = owedPerSecond * Math.max(1, p99SlaMillis / 1000.0);
        return Math.max(share, inTransit);
    }

    /**
     * The share of the window a count of saturated seconds covers; the count runs to the disconnects, a little past
     * the window, so it is bounded by the window.
     */
    private static double saturatedPercent(long seconds, StepResult s) {
        if (seconds <= SATURATED_SECONDS_FORGIVEN || s.throughput.measuredSeconds <= 0) {
            return 0;
        }
        return Math.min(100, 100.0 * seconds / s.throughput.measuredSeconds);
    }

    private static String percent(double p) {
        return p >= 0.1 || p == 0 ? String.format(Locale.ROOT, "%.1f", p) : String.format(Locale.ROOT, "%.4f", p);
    }

    /** A threshold as written: 2, 0.5, not 2.0. */
    static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
