package io.mqttload.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The estimator on made-up exchanges with known truth: an engine clock {@code offset} µs ahead of the reference, and
 * for each exchange the time the request took to the reference ({@code there}), the reference held it ({@code hold})
 * and the answer took back ({@code back}).
 */
class OffsetEstimatorTest {
    /** A reference time in µs since the epoch, as MicroClock gives them: large numbers, as in real exchanges. */
    private static final long T0 = 1_795_000_000_000_000L;

    private static OffsetEstimator.Sample exchange(long referenceSendMicros, long offset, long there, long hold, long back) {
        long t1 = referenceSendMicros + offset;
        long t2 = referenceSendMicros + there;
        long t3 = t2 + hold;
        long t4 = t3 + back + offset;
        return new OffsetEstimator.Sample(t1, t2, t3, t4);
    }

    @Test
    void best_takesTheSmallestRoundTrip_andItsHalfIsABoundOnTheTruth() {
        long offset = 2_500_000;
        List<OffsetEstimator.Sample> samples = List.of(
                exchange(T0, offset, 5_000, 40, 200),
                exchange(T0 + 10_000, offset, 300, 900, 100),
                exchange(T0 + 20_000, offset, 2_000, 10, 2_000));

        OffsetEstimator.Estimate e = OffsetEstimator.best(samples);

        // The second: 400 µs of network, whatever the reference held it; asymmetric by 200 µs, so 100 µs off.
        assertThat(e.roundTripMicros).isEqualTo(400);
        assertThat(e.offsetMicros).isEqualTo(offset - 100);
        assertThat(e.boundMicros).isEqualTo(200);
        assertThat(Math.abs(e.offsetMicros - offset)).isLessThanOrEqualTo(e.boundMicros);
        assertThat(e.samples).isEqualTo(3);
        // Dated at the middle of its exchange, on the engine's clock.
        assertThat(e.atMicros).isEqualTo(T0 + 10_000 + offset + 650);
    }

    @Test
    void offset_isEngineMinusReference_negativeForAnEngineBehind() {
        OffsetEstimator.Estimate e = OffsetEstimator.best(List.of(exchange(T0, -750_000, 150, 20, 150)));

        assertThat(e.offsetMicros).isEqualTo(-750_000);
        assertThat(e.boundMicros).isEqualTo(150);
    }

    @Test
    void bound_isRoundedUp_soThatTheTruthStaysInsideWithAnOddRoundTrip() {
        // 301 µs of network, all of it on the way there: the truth sits at the edge of the interval.
        OffsetEstimator.Estimate e = OffsetEstimator.best(List.of(exchange(T0, 1_000, 301, 0, 0)));

        assertThat(e.boundMicros).isEqualTo(151);
        assertThat(Math.abs(e.offsetMicros - 1_000)).isLessThanOrEqualTo(e.boundMicros);
    }

    @Test
    void best_leavesOutImpossibleExchanges_andHasNothingWithoutAnswers() {
        // A clock stepped backwards between t1 and t4: a negative round trip, no sample.
        OffsetEstimator.Sample stepped = new OffsetEstimator.Sample(T0 + 5_000, T0 + 100, T0 + 200, T0);
        OffsetEstimator.Estimate e = OffsetEstimator.best(List.of(stepped, exchange(T0, 0, 500, 0, 500)));

        assertThat(e.samples).isEqualTo(1);
        assertThat(e.roundTripMicros).isEqualTo(1_000);
        assertThat(OffsetEstimator.best(List.of())).isNull();
        assertThat(OffsetEstimator.best(List.of(stepped))).isNull();
    }

    @Test
    void drift_isTheOffsetsChangePerSecond_withBothBoundsOverTheInterval() {
        OffsetEstimator.Estimate before = OffsetEstimator.best(List.of(exchange(T0, 2_000_000, 100, 0, 100)));
        OffsetEstimator.Estimate after = OffsetEstimator.best(List.of(exchange(T0 + 100_000_000, 2_001_000, 300, 0, 300)));

        // 1,000 µs gained in 100 s (of the engine's clock, give or take the 1,000 µs): 10 ppm.
        assertThat(OffsetEstimator.driftPpm(before, after)).isCloseTo(10.0, within(0.001));
        assertThat(OffsetEstimator.driftBoundPpm(before, after)).isCloseTo(4.0, within(0.01));
        assertThat(OffsetEstimator.driftPpm(after, after)).isZero();
        assertThat(OffsetEstimator.driftBoundPpm(after, after)).isInfinite();
    }
}
