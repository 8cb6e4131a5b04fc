package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The send-time index: bounded however long the stream, and every sequence number between two checkpoints. */
class SendTimesTest {

    @Test
    void aLongStream_keepsAtMostTheCap_theFirstAndTheLast_andBracketsEverySend() {
        PublishStream stream = new DeliveryLedger(1).newStream("t/1");
        // 200,000 messages, message s sent at 1 s + s * 700 µs (a 140 s stream), with a 2 s pause before 150,001.
        int messages = 200_000;
        for (int s = 1; s <= messages; s++) {
            stream.sent(stream.nextSequence(), sentAt(s));
        }

        long[] times = stream.snapshot(false).sendTimes;

        assertThat(times.length / 2).isLessThanOrEqualTo(SendTimes.MAX_CHECKPOINTS + 1);
        assertThat(times[0]).isEqualTo(1);
        assertThat(times[1]).isEqualTo(sentAt(1));
        assertThat(times[times.length - 2]).isEqualTo(messages);
        assertThat(times[times.length - 1]).isEqualTo(sentAt(messages));
        for (int i = 2; i + 1 < times.length; i += 2) {
            assertThat(times[i]).isGreaterThan(times[i - 2]);
            assertThat(times[i + 1]).as("each checkpoint is its sequence number's send time").isEqualTo(sentAt(times[i]));
        }
    }

    @Test
    void aPauseInPublishing_isBracketedByTheSendsEitherSideOfIt() {
        PublishStream stream = new DeliveryLedger(1).newStream("t/1");
        for (int s = 1; s <= 1_000; s++) {
            // 100 µs apart, under the 1 ms step: no checkpoint of its own but around the pause.
            stream.sent(stream.nextSequence(), 1_000_000 + s * 100L + (s > 500 ? 2_000_000 : 0));
        }

        long[] times = stream.snapshot(false).sendTimes;

        assertThat(List.of(500L, 501L)).allSatisfy(s -> assertThat(contains(times, s)).as("%d in %s", s,
                Arrays.toString(times)).isTrue());
    }

    @Test
    void aStreamSentWithoutTimes_hasNoIndex() {
        PublishStream stream = new DeliveryLedger(1).newStream("t/1");
        stream.nextSequence();
        stream.sent();

        assertThat(stream.snapshot(false).sendTimes).isNull();
    }

    private static boolean contains(long[] times, long sequence) {
        for (int i = 0; i < times.length; i += 2) {
            if (times[i] == sequence) {
                return true;
            }
        }
        return false;
    }

    private static long sentAt(long sequence) {
        return 1_000_000 + sequence * 700 + (sequence > 150_000 ? 2_000_000 : 0);
    }
}
