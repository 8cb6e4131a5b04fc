package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Latencies below 0 kept as they are: exact percentiles over both halves, merging, and the JSON round trip. */
class SignedLatencyStatsTest {

    private static SignedLatencyStats of(long... values) {
        Histogram up = LatencyRecorder.newHistogram();
        Histogram down = LatencyRecorder.newHistogram();
        for (long v : values) {
            if (v >= 0) {
                up.recordValue(v);
            } else {
                down.recordValue(-v);
            }
        }
        return new SignedLatencyStats(up, down);
    }

    @Test
    void percentiles_rankOverBothHalves_asHdrHistogramRanks() {
        // -1000 .. -1 and 0 .. 999: 2,000 values, each exact (below 2,048 µs).
        long[] values = new long[2_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i - 1_000;
        }
        SignedLatencyStats s = of(values);

        assertThat(s.count).isEqualTo(2_000);
        assertThat(s.negative).isEqualTo(1_000);
        assertThat(s.min).isEqualTo(-1_000);
        assertThat(s.max).isEqualTo(999);
        assertThat(s.mean).isEqualTo(-0.5);
        // Rank ceil(p / 100 × 2000) in ascending order: 1,000th is -1, 1,001st is 0.
        assertThat(s.percentile(50.0)).isEqualTo(-1);
        assertThat(s.percentile(50.05)).isEqualTo(0);
        assertThat(s.percentile(25.0)).isEqualTo(-501);
        assertThat(s.percentile(99.0)).isEqualTo(979);
        assertThat(s.percentile(0.0)).isEqualTo(-1_000);
        assertThat(s.percentile(100.0)).isEqualTo(999);
    }

    @Test
    void withoutNegatives_itReadsAsHdrHistogramDoes() {
        Histogram h = LatencyRecorder.newHistogram();
        for (long v = 1; v <= 100_000; v += 7) {
            h.recordValue(v);
        }
        SignedLatencyStats s = new SignedLatencyStats(h, LatencyRecorder.newHistogram());
        LatencyStats plain = new LatencyStats(h);
        assertThat(s.percentiles).containsExactly(plain.percentiles);
        assertThat(s.max).isEqualTo(plain.max);
        assertThat(s.min).isEqualTo(plain.min);
    }

    @Test
    void allNegative_andTheResolutionOfTheRecording() {
        SignedLatencyStats s = of(-3, -2, -1);
        assertThat(s.percentile(50.0)).isEqualTo(-2);
        assertThat(s.max).isEqualTo(-1);
        assertThat(s.min).isEqualTo(-3);
        // 3 significant digits: 1 µs up to 2,047 µs, 4,096 µs wide around 7.2 s.
        assertThat(s.resolutionAt(1_500)).isEqualTo(1);
        assertThat(s.resolutionAt(-7_200_000)).isEqualTo(4_096);
    }

    @Test
    void plus_addsBothHalves_andJsonKeepsThem() throws Exception {
        SignedLatencyStats merged = of(-5, 10).plus(of(-7, 20, 30));
        assertThat(merged.count).isEqualTo(5);
        assertThat(merged.percentile(50.0)).isEqualTo(10);
        assertThat(merged.min).isEqualTo(-7);

        PubToSubPairs.Figures f = new PubToSubPairs.Figures();
        f.measured = merged;
        String json = new ObjectMapper().writeValueAsString(f);
        assertThat(json).contains("\"p50\":10").contains("\"negative\":2");
        PubToSubPairs.Figures read = new ObjectMapper().readValue(json,
                PubToSubPairs.Figures.class);
        assertThat(read.measured.percentiles).containsExactly(merged.percentiles);
        assertThat(read.measured.negative).isEqualTo(2);
    }
}
