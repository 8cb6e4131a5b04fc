package io.mqttload.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The comparison's verdicts on synthetic runs of known distributions, as issue 41 asks: how often A against A is
 * called a change, how often a true change is found, how often a change within the threshold is called one. Each run's
 * value is a true value times log-normal noise of the given spread; seeds are fixed, so the counts are the same on
 * every machine.
 */
class FigureComparisonTest {
    private static final int COMPARISONS = 1000;

    /** Verdict counts of {@code COMPARISONS} comparisons of B = A × (1 + shift), noise {@code sigma} a run. */
    private static Map<FigureComparison.Verdict, Integer> simulate(Figure figure, double sigma, double shift,
            int rounds, long seed) {
        Random random = new Random(seed);
        Map<FigureComparison.Verdict, Integer> verdicts = new EnumMap<>(FigureComparison.Verdict.class);
        for (FigureComparison.Verdict v : FigureComparison.Verdict.values()) {
            verdicts.put(v, 0);
        }
        for (int i = 0; i < COMPARISONS; i++) {
            double[] a = new double[rounds];
            double[] b = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                a[r] = 100 * Math.exp(sigma * random.nextGaussian());
                b[r] = 100 * (1 + shift) * Math.exp(sigma * random.nextGaussian());
            }
            verdicts.merge(new FigureComparison(figure, 5, a, b).verdict, 1, Integer::sum);
        }
        return verdicts;
    }

    private static int changes(Map<FigureComparison.Verdict, Integer> v) {
        return v.get(FigureComparison.Verdict.REGRESSED) + v.get(FigureComparison.Verdict.IMPROVED);
    }

    /** Two runs of the same broker here differ by 10-20 % (issue 41): a run's noise of 15 %, both directions. */
    @Test
    void aAgainstA_atThisMachinesNoise_isCalledAChangeInAtMost5Percent() {
        for (Figure f : new Figure[] {Figure.DELIVERED_RATE, Figure.PUB_TO_SUB_P99}) {
            for (int rounds : new int[] {3, 5, 10}) {
                assertThat(changes(simulate(f, 0.15, 0, rounds, 41 + rounds))).as("%s, %d rounds", f, rounds)
                        .isLessThanOrEqualTo(COMPARISONS * 5 / 100);
            }
        }
        assertThat(changes(simulate(Figure.PUB_TO_SUB_P50, 0.05, 0, 5, 7))).isLessThanOrEqualTo(COMPARISONS * 5 / 100);
    }

    @Test
    void halfTheThreshold_with5PercentNoise_isRegressedInAtMost5Percent() {
        assertThat(simulate(Figure.PUB_TO_SUB_P50, 0.05, 0.025, 5, 43).get(FigureComparison.Verdict.REGRESSED))
                .isLessThanOrEqualTo(COMPARISONS * 5 / 100);
        // A rate 2.5 % lower is the same regression of a figure where higher is better.
        assertThat(simulate(Figure.DELIVERED_RATE, 0.05, -0.025, 5, 44).get(FigureComparison.Verdict.REGRESSED))
                .isLessThanOrEqualTo(COMPARISONS * 5 / 100);
    }

    /**
     * Twice the threshold. With 5 % noise and 5 rounds no 95 % interval lies beyond the threshold often enough (the
     * interval's half-width is then about 7 %, more than the 4.6 % between the shift and the threshold; docs/comparing.md
     * shows that no verdict rule can find it in 90 % and keep half the threshold under 5 %): the change is never called
     * SAME or IMPROVED, so a gate never passes it, and 25 rounds find it in 90 %. Where the noise is 1.5 %, 5 rounds do.
     */
    @Test
    void twiceTheThreshold_isNeverPassed_andFoundWithEnoughRounds() {
        Map<FigureComparison.Verdict, Integer> five = simulate(Figure.PUB_TO_SUB_P50, 0.05, 0.10, 5, 45);
        assertThat(five.get(FigureComparison.Verdict.SAME) + five.get(FigureComparison.Verdict.IMPROVED)).isZero();
        assertThat(simulate(Figure.PUB_TO_SUB_P50, 0.05, 0.10, 25, 46).get(FigureComparison.Verdict.REGRESSED))
                .isGreaterThanOrEqualTo(COMPARISONS * 90 / 100);
        assertThat(simulate(Figure.PUB_TO_SUB_P50, 0.015, 0.10, 5, 47).get(FigureComparison.Verdict.REGRESSED))
                .isGreaterThanOrEqualTo(COMPARISONS * 90 / 100);
        assertThat(simulate(Figure.DELIVERED_RATE, 0.015, -0.10, 5, 48).get(FigureComparison.Verdict.REGRESSED))
                .isGreaterThanOrEqualTo(COMPARISONS * 90 / 100);
    }

    /** The estimate of rounds, followed, settles most comparisons it was given for. */
    @Test
    void inconclusive_roundsEstimate_settlesWhenFollowed() {
        Random random = new Random(49);
        int settled = 0;
        int inconclusive = 0;
        for (int i = 0; i < 200; i++) {
            FigureComparison first = new FigureComparison(Figure.PUB_TO_SUB_P50, 5, runs(random, 5, 0), runs(random, 5,
                    0.15));
            if (first.verdict != FigureComparison.Verdict.INCONCLUSIVE || first.roundsToSettle == 0) {
                continue;
            }
            inconclusive++;
            assertThat(first.roundsToSettle).isGreaterThan(5);
            int n = first.roundsToSettle;
            FigureComparison more = new FigureComparison(Figure.PUB_TO_SUB_P50, 5, runs(random, n, 0), runs(random, n,
                    0.15));
            settled += more.verdict == FigureComparison.Verdict.INCONCLUSIVE ? 0 : 1;
        }
        assertThat(inconclusive).isGreaterThan(50);
        assertThat(settled).isGreaterThan(inconclusive / 2);
    }

    private static double[] runs(Random random, int n, double shift) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = 10 * (1 + shift) * Math.exp(0.10 * random.nextGaussian());
        }
        return v;
    }

    @Test
    void figures_knownValues_giveMediansRangesRatioAndDifference() {
        FigureComparison c = new FigureComparison(Figure.PUB_TO_SUB_P50, 5, new double[] {10, 11, 9, 10.5, 9.5},
                new double[] {30, 31, 29, 30.5, 29.5});
        assertThat(c.sideA.median).isEqualTo(10);
        assertThat(c.sideA.min).isEqualTo(9);
        assertThat(c.sideB.max).isEqualTo(31);
        assertThat(c.ratio).isEqualTo(3);
        assertThat(c.difference).isEqualTo(20);
        assertThat(c.differenceLow).isLessThan(20).isGreaterThan(18);
        assertThat(c.differenceHigh).isGreaterThan(20).isLessThan(22);
        assertThat(c.ratioLow).isLessThan(3).isGreaterThan(1.05);
        assertThat(c.verdict).isEqualTo(FigureComparison.Verdict.REGRESSED);
        FigureComparison rate = new FigureComparison(Figure.DELIVERED_RATE, 5, c.b, c.a);
        assertThat(rate.verdict).isEqualTo(FigureComparison.Verdict.REGRESSED);
        assertThat(new FigureComparison(Figure.DELIVERED_RATE, 5, c.a, c.b).verdict)
                .isEqualTo(FigureComparison.Verdict.IMPROVED);
        double[] steady = {100, 101, 99, 100.5, 99.5};
        assertThat(new FigureComparison(Figure.DELIVERED_RATE, 5, steady, steady).verdict)
                .isEqualTo(FigureComparison.Verdict.SAME);
    }

    @Test
    void missingOrZeroValues_areSaidSo() {
        FigureComparison one = new FigureComparison(Figure.CONNECT_P99, 5, new double[] {1, Double.NaN},
                new double[] {1, 2});
        assertThat(one.verdict).isEqualTo(FigureComparison.Verdict.INCONCLUSIVE);
        assertThat(one.note).isEqualTo("measured in fewer than 2 runs of a side");
        assertThat(new FigureComparison(Figure.CONNECT_P99, 5, new double[] {Double.NaN, Double.NaN},
                new double[] {Double.NaN}).note).isEqualTo("not measured");
        FigureComparison zero = new FigureComparison(Figure.BROKER_CPU_PER_MESSAGE, 5, new double[] {0, 10, 10},
                new double[] {20, 20, 21});
        assertThat(zero.note).startsWith("a value of 0 or below");
        assertThat(zero.verdict).isEqualTo(FigureComparison.Verdict.INCONCLUSIVE);
        assertThat(new FigureComparison(Figure.BROKER_CPU_PER_MESSAGE, 5, new double[] {0, 0},
                new double[] {1, 2}).note).isEqualTo("A's mean is not above 0: no ratio");
    }

    @Test
    void threshold_outOfRange_namesFigureAndValue() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new FigureComparison(Figure.CAPACITY, 0,
                new double[] {1}, new double[] {1})).hasMessage("threshold of capacity: 0.0 % is not above 0 and below 100");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Figure.ofKey("p99"))
                .hasMessageStartingWith("'p99' is no figure; the figures are deliveredRate, pubToSubP50");
    }
}
