package io.mqttload.delivery;

import static io.mqttload.delivery.StreamTracker.Outcome.DUPLICATE;
import static io.mqttload.delivery.StreamTracker.Outcome.GAP;
import static io.mqttload.delivery.StreamTracker.Outcome.IN_ORDER;
import static io.mqttload.delivery.StreamTracker.Outcome.REORDERED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class StreamTrackerTest {
    @Test
    void inOrder_countsNothingMissing() {
        StreamTracker t = new StreamTracker();
        for (int s = 1; s <= 1000; s++) {
            assertThat(t.accept(s)).isEqualTo(IN_ORDER);
        }
        assertThat(t.highest()).isEqualTo(1000);
        assertThat(t.missingCount()).isZero();
    }

    @Test
    void gapThenLateArrivals_areReorderedNotLost_andRepeatsAreDuplicates() {
        StreamTracker t = new StreamTracker();
        assertThat(t.accept(1)).isEqualTo(IN_ORDER);
        assertThat(t.accept(6)).isEqualTo(GAP);
        assertThat(t.lastGapSize()).isEqualTo(4);
        assertThat(t.missingCount()).isEqualTo(4);

        assertThat(t.accept(4)).isEqualTo(REORDERED);
        assertThat(t.accept(2)).isEqualTo(REORDERED);
        assertThat(t.accept(4)).isEqualTo(DUPLICATE);
        assertThat(t.accept(6)).isEqualTo(DUPLICATE);
        assertThat(t.missingCount()).isEqualTo(2);

        assertThat(t.accept(3)).isEqualTo(REORDERED);
        assertThat(t.accept(5)).isEqualTo(REORDERED);
        assertThat(t.missingCount()).isZero();
    }

    @Test
    void shuffledStreamWithDropsAndRepeats_matchesAnExactModel() {
        Random random = new Random(42);
        List<Integer> sent = new ArrayList<>();
        for (int s = 1; s <= 5000; s++) {
            if (random.nextInt(20) != 0) {
                sent.add(s);
            }
        }
        int uniqueDelivered = sent.size();
        List<Integer> arriving = new ArrayList<>(sent);
        for (int i = 0; i < 100; i++) {
            arriving.add(sent.get(random.nextInt(sent.size())));
        }
        Collections.shuffle(arriving, random);
        int highestSent = sent.get(sent.size() - 1);

        StreamTracker t = new StreamTracker();
        int duplicates = 0;
        for (int s : arriving) {
            if (t.accept(s) == DUPLICATE) {
                duplicates++;
            }
        }

        assertThat(duplicates).isEqualTo(100);
        assertThat(t.highest()).isEqualTo(highestSent);
        assertThat(t.highest() - t.missingCount()).isEqualTo(uniqueDelivered);
    }
}
