package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.util.Base64;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    @Test
    void percentiles_ofAKnownUniformDistribution_areExactToThreeDigits() {
        LatencyRecorder r = new LatencyRecorder();
        for (long v = 1; v <= 100_000; v++) {
            r.record(v);
        }
        r.takeInterval(true);

        LatencyStats s = new LatencyStats(r.totalCopy());

        assertThat(s.count).isEqualTo(100_000);
        assertThat(s.mean).isCloseTo(50_000.5, within(50.0));
        assertThat((double) s.percentile(50)).isCloseTo(50_000, within(50.0));
        assertThat((double) s.percentile(90)).isCloseTo(90_000, within(90.0));
        assertThat((double) s.percentile(99)).isCloseTo(99_000, within(99.0));
        assertThat((double) s.percentile(99.9)).isCloseTo(99_900, within(100.0));
        assertThat((double) s.max).isCloseTo(100_000, within(100.0));
    }

    @Test
    void warmUpIntervals_areLeftOutOfTheTotal_butIntervalsStillSeeThem() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(1_000_000);
        Histogram warm = r.takeInterval(false);
        r.record(10);
        r.record(20);
        r.takeInterval(true);

        assertThat(warm.getTotalCount()).isEqualTo(1);
        assertThat(r.totalCopy().getTotalCount()).isEqualTo(2);
        assertThat(r.totalCopy().getMaxValue()).isLessThan(100);
    }

    @Test
    void negativeAndHugeValues_areCountedNotDropped() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(-5);
        r.record(LatencyRecorder.HIGHEST_TRACKABLE_MICROS * 2);
        r.takeInterval(true);

        assertThat(r.totalCopy().getTotalCount()).isEqualTo(2);
        assertThat(r.negativeCount()).isEqualTo(1);
        assertThat(r.clampedCount()).isEqualTo(1);
    }

    @Test
    void mergedEncodedHistograms_giveTheSamePercentilesAsOneHistogram() throws Exception {
        LatencyRecorder engineA = new LatencyRecorder();
        LatencyRecorder engineB = new LatencyRecorder();
        LatencyRecorder both = new LatencyRecorder();
        for (long v = 1; v <= 10_000; v++) {
            (v % 3 == 0 ? engineA : engineB).record(v * 7);
            both.record(v * 7);
        }
        engineA.takeInterval(true);
        engineB.takeInterval(true);
        both.takeInterval(true);

        Histogram merged = decode(new LatencyStats(engineA.totalCopy()).encoded());
        merged.add(decode(new LatencyStats(engineB.totalCopy()).encoded()));

        Histogram reference = both.totalCopy();
        for (double p : LatencyStats.PERCENTILES) {
            assertThat(merged.getValueAtPercentile(p)).as("p" + p).isEqualTo(reference.getValueAtPercentile(p));
        }
        assertThat(merged.getTotalCount()).isEqualTo(10_000);
    }

    private static Histogram decode(String base64) throws Exception {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    }
}
