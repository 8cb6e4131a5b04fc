package io.mqttload.compare;

import java.util.Arrays;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * One figure of two sides compared over their runs: each side's median and range, the ratio of medians B/A and the
 * difference in the figure's unit, each with a 95 % confidence interval, and the verdict against the figure's
 * threshold.
 *
 * <p>The interval of the ratio is Welch's t interval on the logarithms of the runs' values: run-to-run noise on a
 * shared machine is a share of the figure (a rate 10 % lower, a percentile 15 % higher), so it is additive on the log
 * scale, and Welch's t allows the sides different noise. With 3 to 10 runs a side a bootstrap over runs under-covers
 * (a percentile bootstrap of 5 values cannot reach beyond their range, and its intervals are too short by the factor
 * t/z that this interval keeps); docs/architecture.md says why in full. The difference's interval is Welch's t on the
 * values themselves, since an added delay is additive there. Where a value is 0 or below (no logarithm), the ratio's
 * interval is the difference's divided by A's mean.
 */
public final class FigureComparison {
    /** The verdict on one figure, from B's side: REGRESSED means B is worse than A beyond the threshold. */
    public enum Verdict {
        REGRESSED, IMPROVED, SAME, INCONCLUSIVE
    }

    public static final double CONFIDENCE = 0.95;
    public static final double DEFAULT_THRESHOLD_PERCENT = 5;
    /** The estimate of rounds needed stops here: a difference that close to the threshold is not worth settling. */
    public static final int MAX_ROUNDS = 1000;

    public final Figure figure;
    public final double thresholdPercent;
    /** Every run's value in round order; NaN where the run did not measure the figure. */
    final double[] a;
    final double[] b;
    public final Summary sideA;
    public final Summary sideB;
    /** Median of B ÷ median of A; NaN when either side has no value. */
    public final double ratio;
    public final double ratioLow;
    public final double ratioHigh;
    /** Median of B − median of A, in the figure's unit. */
    public final double difference;
    public final double differenceLow;
    public final double differenceHigh;
    public final Verdict verdict;
    /** For INCONCLUSIVE: the rounds per side that would settle it, or 0 when no number of rounds up to MAX_ROUNDS would. */
    public final int roundsToSettle;
    /** Why a figure could not be judged, or null. */
    public final String note;

    /** One side's runs of the figure: how many measured it, their median and range. */
    public static final class Summary {
        public final int runs;
        public final double median;
        public final double min;
        public final double max;

        Summary(double[] measured) {
            runs = measured.length;
            double[] s = measured.clone();
            Arrays.sort(s);
            median = runs == 0 ? Double.NaN : runs % 2 != 0 ? s[runs / 2] : (s[runs / 2 - 1] + s[runs / 2]) / 2;
            min = runs == 0 ? Double.NaN : s[0];
            max = runs == 0 ? Double.NaN : s[runs - 1];
        }
    }

    public FigureComparison(Figure figure, double thresholdPercent, double[] a, double[] b) {
        if (!(thresholdPercent > 0) || thresholdPercent >= 100) {
            throw new IllegalArgumentException("threshold of " + figure.key() + ": " + thresholdPercent
                    + " % is not above 0 and below 100");
        }
        this.figure = figure;
        this.thresholdPercent = thresholdPercent;
        this.a = a.clone();
        this.b = b.clone();
        double[] x = measured(a);
        double[] y = measured(b);
        sideA = new Summary(x);
        sideB = new Summary(y);
        ratio = sideB.median / sideA.median;
        difference = sideB.median - sideA.median;
        if (x.length < 2 || y.length < 2) {
            ratioLow = Double.NaN;
            ratioHigh = Double.NaN;
            differenceLow = Double.NaN;
            differenceHigh = Double.NaN;
            verdict = Verdict.INCONCLUSIVE;
            roundsToSettle = 0;
            note = x.length + y.length == 0 ? "not measured" : "measured in fewer than 2 runs of a side";
            return;
        }
        Welch d = new Welch(x, y);
        differenceLow = d.low();
        differenceHigh = d.high();
        double limit = Math.log1p(thresholdPercent / 100);
        Welch relative;
        if (positive(x) && positive(y)) {
            relative = new Welch(logs(x), logs(y));
            ratioLow = Math.exp(relative.low());
            ratioHigh = Math.exp(relative.high());
            note = null;
        } else if (d.meanX > 0) {
            relative = new Welch(scaled(x, d.meanX), scaled(y, d.meanX));
            ratioLow = 1 + relative.low();
            ratioHigh = 1 + relative.high();
            // The log scale's limits, carried to this scale, keep the band the same width either side.
            limit = thresholdPercent / 100;
            note = "a value of 0 or below: interval of the difference relative to A's mean";
        } else {
            ratioLow = Double.NaN;
            ratioHigh = Double.NaN;
            verdict = Verdict.INCONCLUSIVE;
            roundsToSettle = 0;
            note = "A's mean is not above 0: no ratio";
            return;
        }
        double low = relative.low();
        double high = relative.high();
        boolean higherIsBetter = figure.better() == Figure.Better.HIGHER;
        if (low > limit) {
            verdict = higherIsBetter ? Verdict.IMPROVED : Verdict.REGRESSED;
        } else if (high < -limit) {
            verdict = higherIsBetter ? Verdict.REGRESSED : Verdict.IMPROVED;
        } else if (low >= -limit && high <= limit) {
            verdict = Verdict.SAME;
        } else {
            verdict = Verdict.INCONCLUSIVE;
        }
        roundsToSettle = verdict == Verdict.INCONCLUSIVE ? relative.roundsToSettle(limit, Math.max(x.length, y.length) + 1) : 0;
    }

    /** The values that were measured, in round order. */
    static double[] measured(double[] values) {
        return Arrays.stream(values).filter(v -> !Double.isNaN(v) && !Double.isInfinite(v)).toArray();
    }

    private static boolean positive(double[] v) {
        return Arrays.stream(v).allMatch(x -> x > 0);
    }

    private static double[] logs(double[] v) {
        return Arrays.stream(v).map(Math::log).toArray();
    }

    private static double[] scaled(double[] v, double by) {
        return Arrays.stream(v).map(x -> x / by - 1).toArray();
    }

    /** Welch's t interval of mean(y) − mean(x) at {@link #CONFIDENCE}. */
    static final class Welch {
        final double meanX;
        final double meanY;
        final double varX;
        final double varY;
        final double se;
        final double halfWidth;

        Welch(double[] x, double[] y) {
            meanX = mean(x);
            meanY = mean(y);
            varX = variance(x, meanX);
            varY = variance(y, meanY);
            double vx = varX / x.length;
            double vy = varY / y.length;
            se = Math.sqrt(vx + vy);
            if (se == 0) {
                halfWidth = 0;
            } else {
                double df = (vx + vy) * (vx + vy)
                        / (vx * vx / (x.length - 1) + vy * vy / (y.length - 1));
                halfWidth = t(df) * se;
            }
        }

        double low() {
            return meanY - meanX - halfWidth;
        }

        double high() {
            return meanY - meanX + halfWidth;
        }

        /**
         * The rounds per side (as many of each, interleaved) that would give an interval short enough to lie wholly
         * inside or wholly beyond ±{@code limit} around the difference seen, if the noise stays what it was: the
         * interval's half-width shrinks as t(2n − 2) · s · √(2/n), s the sides' pooled noise. 0 when even
         * {@link #MAX_ROUNDS} would not; at least {@code atLeast}, since the rounds run were not enough.
         */
        int roundsToSettle(double limit, int atLeast) {
            double needed = Math.abs(Math.abs(meanY - meanX) - limit);
            double s = Math.sqrt((varX + varY) / 2);
            if (!(needed > 0)) {
                return 0;
            }
            // t exceeds the normal quantile, so the normal's answer is a lower bound to start from.
            double z = Math.sqrt(2) * 1.96 * s / needed;
            for (int n = Math.max(atLeast, (int) Math.min(MAX_ROUNDS, Math.floor(z * z))); n <= MAX_ROUNDS; n++) {
                if (t(2.0 * n - 2) * s * Math.sqrt(2.0 / n) < needed) {
                    return n;
                }
            }
            return 0;
        }

        private static double t(double df) {
            return new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        }

        private static double mean(double[] v) {
            double s = 0;
            for (double x : v) {
                s += x;
            }
            return s / v.length;
        }

        private static double variance(double[] v, double mean) {
            double s = 0;
            for (double x : v) {
                s += (x - mean) * (x - mean);
            }
            return s / (v.length - 1);
        }
    }
}
