package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A barrier passage as the merged report names it, and the passage that did not hold the engines together. */
class BarrierRowTest {
    @Test
    void allThreadsOfAllEnginesInOnePassage_releasedTogether() {
        BarrierRow row = passage(4, 4);

        assertThat(row.describe()).isEqualTo("'start' #1: 4 of 4 threads on 2 engine(s) released, spread 1.500 ms");
    }

    @Test
    void moreThreadsThanTheGroupSize_eachEngineReleasedOnItsOwn() {
        BarrierRow row = passage(4, 2);

        assertThat(row.describe()).startsWith("'start' #1: 4 of 2 threads on 2 engine(s) released")
                .contains("NOT TOGETHER: 4 threads passed a barrier of 2, each engine was released on its own")
                .contains("mqttload.engines");
    }

    private static BarrierRow passage(int threads, int groupSize) {
        BarrierRow row = new BarrierRow("start", 1, groupSize);
        row.threads = threads;
        row.engines = 2;
        row.enginesReleased = 2;
        row.firstWakeMicros = 1_000;
        row.lastWakeMicros = 2_500;
        return row;
    }
}
