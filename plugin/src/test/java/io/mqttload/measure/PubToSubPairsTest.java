package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The per-pair recording of a receiving engine (engine 2): measured never floored, corrected as each message arrives
 * once the pair's clock difference is known, the warm-up left out, and this engine's own messages on one clock.
 */
class PubToSubPairsTest {

    @Test
    void measuredNeverFloored_correctedAsTheyArrive_earlierMessagesExactlyOnceTheDifferenceCame() {
        EngineMetrics m = new EngineMetrics();
        m.pubToSubPairs.ownEngine(2);
        PubToSubPairs pairs = m.pubToSubPairs;
        // Warm-up: engine 1's clock 4.3 s ahead of this one, so its messages measure about -4.3 s.
        pairs.record(1, -4_299_000);
        m.takeReceivedInterval(false);
        pairs.record(1, -4_298_000);
        pairs.clockDifference(1, -4_300_000, 500);
        // The first difference holds for the run.
        pairs.clockDifference(1, -4_000_000, 10);
        pairs.record(1, -4_298_500);
        pairs.record(1, -4_301_000);
        pairs.record(2, 1_200);
        m.takeReceivedInterval(true);

        List<PubToSubPairs.Figures> figures = pairs.figures();
        assertThat(figures).extracting(f -> f.publisherEngine).containsExactly(1, 2);
        PubToSubPairs.Figures fromOne = figures.get(0);
        assertThat(fromOne.measured.count).isEqualTo(3);
        assertThat(fromOne.measured.negative).isEqualTo(3);
        assertThat(fromOne.notCorrected).isZero();
        assertThat(fromOne.correctionMicros).isEqualTo(-4_300_000);
        assertThat(fromOne.correctionBoundMicros).isEqualTo(500);
        // With the precision of their own size, not of 4.3 s (2,048 µs buckets): 2,000 µs (the one that came before the
        // difference), 1,500 µs and -1,000 µs exactly; the warm-up's is in neither figure.
        assertThat(fromOne.corrected.count).isEqualTo(3);
        assertThat(fromOne.corrected.max).isEqualTo(2_000);
        assertThat(fromOne.corrected.percentile(50.0)).isEqualTo(1_500);
        assertThat(fromOne.corrected.min).isEqualTo(-1_000);
        PubToSubPairs.Figures own = figures.get(1);
        assertThat(own.correctionMicros).isZero();
        assertThat(own.corrected.percentile(50.0)).isEqualTo(1_200);
        assertThat(own.notCorrected).isZero();
    }

    @Test
    void aPairWhoseDifferenceNeverCame_hasNoCorrectedFigure() {
        EngineMetrics m = new EngineMetrics();
        m.pubToSubPairs.ownEngine(1);
        m.pubToSubPairs.record(3, 2_000);
        m.takeReceivedInterval(true);

        PubToSubPairs.Figures f = m.pubToSubPairs.figures().get(0);
        assertThat(f.corrected).isNull();
        assertThat(f.correctionMicros).isNull();
        assertThat(f.notCorrected).isEqualTo(1);
        assertThat(f.measured.percentile(50.0)).isEqualTo(2_000);
    }
}
