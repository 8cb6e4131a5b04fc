package io.mqttload.sweep;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The capacity search: the highest value of one plan property (an offered message rate, or a number of clients at a
 * fixed rate each) at which a step passes {@link StepCriteria}. Fixed-length steps ramp up geometrically from the
 * start until one fails, then bisect between the highest pass and the lowest fail until they are within the
 * tolerance, then a longer run confirms the highest pass. A first step that fails ramps down instead. A step the
 * load generator (or its machine) could not drive ends the search there: its failure is not the broker's limit. A
 * failed confirmation makes its value the lowest fail and the search bisects again below it (ramping down first when
 * nothing below it passed), once. A step that fails while its generator or machine was saturated for a short while
 * (a stall, long enough to have cost the step its latency) is run once more, and the repeat decides: one disturbed
 * window must not set the answer.
 *
 * <p>Decisions only: the steps are run by a {@link StepRunner} (JMeter runs in the sweep, a model in the tests).
 */
final class CapacitySearch {
    /** Two confirmations at most: a load that fails its long run twice is reported as not confirmed. */
    static final int CONFIRMATIONS = 2;
    /** Saturated seconds a step may have had and still count as disturbed rather than run on a busy machine. */
    static final long DISTURBANCE_SECONDS = 2;

    /** Why a step was run. */
    enum Phase {
        RAMP("ramp up"), RAMP_DOWN("ramp down"), BISECT("bisect"), CONFIRM("confirm");

        final String title;

        Phase(String title) {
            this.title = title;
        }
    }

    /** How the search ended. */
    enum Outcome {
        /** The highest passing value, confirmed, and a failing value above it within the tolerance. */
        SUSTAINS(true),
        /** Every step passed up to the search's maximum, confirmed there: the broker's limit is above it. */
        SUSTAINS_AT_LEAST(true),
        /** Even the lowest value tried failed. */
        SUSTAINS_NONE(false),
        /** The highest pass failed its confirmation runs. */
        NOT_CONFIRMED(false),
        /** A step failed because the load generator or its machine was saturated: not the broker's limit. */
        LIMITED_BY_GENERATOR(false),
        /** A step could not be judged (no report, a timeout, a run stopped or incomplete), or the steps ran out. */
        INCONCLUSIVE(false);

        /** Whether the answer is a limit of the broker the user may quote. */
        final boolean answered;

        Outcome(boolean answered) {
            this.answered = answered;
        }
    }

    /** Runs one step of the search at a value and returns it judged. */
    interface StepRunner {
        /** @param repeat whether this runs a disturbed step's value and phase once more */
        StepResult run(double value, Phase phase, boolean repeat) throws IOException, InterruptedException;
    }

    /** The search's settings, checked by the options. */
    static final class Settings {
        double start;
        /** 0: no maximum. */
        double max;
        double factor = 2;
        double tolerancePercent = 2;
        /** Values are rounded to multiples of it (the start's precision). */
        double resolution = 1;
        int maxSteps = 40;
        /** Whether a failed step whose generator or machine was saturated for a short while is run once more. */
        boolean repeatDisturbed = true;
    }

    /** One step as the search took it. */
    static final class Step {
        final double value;
        final Phase phase;
        final StepResult result;
        /** The disturbed step this one repeats, or null. */
        final Step repeatOf;

        Step(double value, Phase phase, StepResult result, Step repeatOf) {
            this.value = value;
            this.phase = phase;
            this.result = result;
            this.repeatOf = repeatOf;
        }

        /** The phase as the outputs name it: "bisect", or "bisect, repeated" for a repeat. */
        String title() {
            return repeatOf == null ? phase.title : phase.title + ", repeated";
        }

        boolean passed() {
            return result.ok();
        }
    }

    /** The answer: its outcome, the values that bound it, the step that decided each, and every step. */
    static final class Result {
        Outcome outcome;
        /** The highest value passed (confirmed for SUSTAINS), or NaN. */
        double sustained = Double.NaN;
        /** The lowest value failed, or NaN. */
        double failed = Double.NaN;
        Step sustainedStep;
        Step failedStep;
        /** Why the search stopped where it did, beyond the failed step's reason (step limit, lowest value). */
        String note = "";
        final List<Step> steps = new ArrayList<>();
    }

    /** The highest passing and the lowest failing step so far. */
    private static final class Bounds {
        Step pass;
        Step fail;

        void take(Step s) {
            if (s.passed()) {
                pass = s;
            } else {
                fail = s;
            }
        }
    }

    private final Settings settings;

    CapacitySearch(Settings settings) {
        this.settings = settings;
    }

    Result run(StepRunner runner) throws IOException, InterruptedException {
        Result r = new Result();
        Bounds b = new Bounds();
        double value = round(settings.start);
        while (true) {
            Step s = step(runner, r, value, Phase.RAMP);
            if (s == null) {
                return r;
            }
            if (!s.passed()) {
                b.fail = s;
                break;
            }
            b.pass = s;
            if (settings.max > 0 && value >= settings.max) {
                break;
            }
            double next = round(value * settings.factor);
            value = settings.max > 0 ? Math.min(next, round(settings.max)) : next;
            if (value <= b.pass.value) {
                value = b.pass.value + settings.resolution;
            }
        }
        if (!rampDown(runner, r, b, value)) {
            return r;
        }
        for (int confirmation = 1; ; confirmation++) {
            while (b.fail != null && !withinTolerance(b.pass.value, b.fail.value)) {
                double mid = round((b.pass.value + b.fail.value) / 2);
                if (mid <= b.pass.value || mid >= b.fail.value) {
                    break;
                }
                if (sameLoadOffered(b.pass, b.fail)) {
                    r.note = String.format(Locale.ROOT, "%s and %s offered the same load (%.1f msg/s): the plan's"
                            + " throughput timers wait whole milliseconds, so values between them offer it too and the"
                            + " search cannot resolve further", number(b.pass.value), number(b.fail.value),
                            b.fail.result.load.offeredRate);
                    break;
                }
                Step s = step(runner, r, mid, Phase.BISECT);
                if (s == null) {
                    return r;
                }
                b.take(s);
            }
            Step confirm = step(runner, r, b.pass.value, Phase.CONFIRM);
            if (confirm == null) {
                return r;
            }
            if (confirm.passed()) {
                if (b.fail != null && r.note.isEmpty() && sameLoadOffered(confirm, b.fail)) {
                    r.note = String.format(Locale.ROOT, "%s offered the same load as %s (%.1f msg/s): the plan's"
                            + " throughput timers wait whole milliseconds, so that step failed on the run's own variation,"
                            + " not on more load", number(b.fail.value), number(confirm.value), b.fail.result.load.offeredRate);
                }
                r.outcome = b.fail == null ? Outcome.SUSTAINS_AT_LEAST : Outcome.SUSTAINS;
                r.sustained = b.pass.value;
                r.sustainedStep = confirm;
                r.failedStep = b.fail;
                r.failed = b.fail == null ? Double.NaN : b.fail.value;
                return r;
            }
            b.fail = confirm;
            b.pass = highestPassBelow(r, confirm.value);
            if (confirmation >= CONFIRMATIONS) {
                r.outcome = Outcome.NOT_CONFIRMED;
                r.failedStep = confirm;
                r.failed = confirm.value;
                r.note = "the longer run failed " + CONFIRMATIONS + " times: the steps are too short to show this"
                        + " broker's limit (raise --step-seconds)";
                return r;
            }
            // Every pass was at the value that failed its longer run: below it, as a first step that fails.
            if (!rampDown(runner, r, b, confirm.value)) {
                return r;
            }
        }
    }

    /**
     * Steps down by the factor from {@code from} until one passes; false when the search ends there (nothing passed
     * down to the resolution, or a step stopped it), with the result's outcome set.
     */
    private boolean rampDown(StepRunner runner, Result r, Bounds b, double from) throws IOException,
            InterruptedException {
        double value = from;
        while (b.pass == null) {
            double lower = round(value / settings.factor);
            if (lower < settings.resolution || lower >= value) {
                r.outcome = Outcome.SUSTAINS_NONE;
                r.failedStep = b.fail;
                r.failed = b.fail.value;
                r.note = "no lower value to try: " + number(value) + " is the smallest the resolution allows";
                return false;
            }
            value = lower;
            Step s = step(runner, r, value, Phase.RAMP_DOWN);
            if (s == null) {
                return false;
            }
            b.take(s);
        }
        return true;
    }

    /**
     * Runs one step; null when the search must stop at it: a saturated generator or machine, a run that gave nothing
     * to judge, or the step limit. The result's outcome is then set.
     */
    private Step step(StepRunner runner, Result r, double value, Phase phase) throws IOException, InterruptedException {
        if (r.steps.size() >= settings.maxSteps) {
            r.outcome = Outcome.INCONCLUSIVE;
            r.note = "stopped after " + settings.maxSteps + " steps (--max-steps) without an answer";
            return null;
        }
        Step s = new Step(value, phase, runner.run(value, phase, false), null);
        r.steps.add(s);
        if (settings.repeatDisturbed && disturbed(s) && r.steps.size() < settings.maxSteps) {
            s = new Step(value, phase, runner.run(value, phase, true), s);
            r.steps.add(s);
        }
        if (s.passed()) {
            return s;
        }
        StepCriteria.Judgement j = s.result.judgement;
        if (j == null || j.limit == StepCriteria.Limit.RUN) {
            return stopped(r, s, Outcome.INCONCLUSIVE);
        }
        if (j.limit == StepCriteria.Limit.GENERATOR || j.limit == StepCriteria.Limit.MACHINE) {
            return stopped(r, s, Outcome.LIMITED_BY_GENERATOR);
        }
        return s;
    }

    /**
     * A step that failed on the broker's criteria while its generator or machine was saturated for a short while: a
     * stall of the load generator (another process on its cores, a pause) delays its sends, which the latency from the
     * intended time counts, so the failure may be the machine's. Short: at most {@link #DISTURBANCE_SECONDS}, or the
     * default saturation allowance's share of the window. A machine busy for longer is not a disturbance a repeat
     * would miss (a broker sharing it, near its limit): the failure stands, with its saturation caveat.
     */
    static boolean disturbed(Step s) {
        StepCriteria.Judgement j = s.result.judgement;
        long saturated = Math.max(s.result.load.generatorSaturatedSeconds, s.result.load.machineSaturatedSeconds);
        double shortWhile = Math.max(DISTURBANCE_SECONDS,
                StepCriteria.DEFAULT_MAX_SATURATED_PERCENT / 100 * s.result.throughput.measuredSeconds);
        return !s.passed() && j != null && j.limit == StepCriteria.Limit.BROKER && saturated > 0 && saturated <= shortWhile;
    }

    private static Step stopped(Result r, Step s, Outcome outcome) {
        r.outcome = outcome;
        r.failedStep = s;
        r.failed = s.value;
        for (Step t : r.steps) {
            if (t.passed() && (r.sustainedStep == null || t.value > r.sustained)) {
                r.sustainedStep = t;
                r.sustained = t.value;
            }
        }
        return null;
    }

    private static Step highestPassBelow(Result r, double value) {
        Step best = null;
        for (Step s : r.steps) {
            if (s.passed() && s.value < value && (best == null || s.value > best.value)) {
                best = s;
            }
        }
        return best;
    }

    /**
     * Whether a passing and a failing step offered the same load (within 0.1 %): bisecting between them only repeats
     * it. A failing step that offered less (its publishers held back) is not that.
     */
    static boolean sameLoadOffered(Step pass, Step fail) {
        double p = pass.result.load.offeredRate;
        double f = fail.result.load.offeredRate;
        return p > 0 && f > 0 && Math.abs(f - p) <= p * 0.001;
    }

    /** Done when the gap is within the tolerance of the pass, or one resolution step. */
    boolean withinTolerance(double pass, double fail) {
        return fail - pass <= Math.max(settings.tolerancePercent / 100.0 * pass, settings.resolution) + 1e-9;
    }

    double round(double v) {
        double steps = Math.round(v / settings.resolution);
        return Math.max(settings.resolution, steps * settings.resolution);
    }

    /** A value as the search writes it: no trailing zeros, the resolution's decimals at most. */
    String number(double v) {
        return number(v, settings.resolution);
    }

    static String number(double v, double resolution) {
        int decimals = Math.max(0, (int) Math.ceil(-Math.log10(resolution) - 1e-9));
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
