package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A requester's replies: the first per request answers it, in any order; more are duplicates; others' are foreign. */
class ReplyTrackerTest {
    @Test
    void firstReplyAnswers_secondIsADuplicate_anotherClientsIsForeign_andOwedCountsTheRest() {
        ReplyTracker tracker = new ReplyTracker();
        tracker.expect(7);
        for (int i = 0; i < 4; i++) {
            tracker.requestAcknowledged();
        }

        assertThat(tracker.accept(7, 2)).isEqualTo(ReplyTracker.Reply.FIRST);
        assertThat(tracker.accept(7, 1)).as("out of order").isEqualTo(ReplyTracker.Reply.FIRST);
        assertThat(tracker.accept(7, 2)).isEqualTo(ReplyTracker.Reply.DUPLICATE);
        assertThat(tracker.accept(8, 1)).as("not this client's stream").isEqualTo(ReplyTracker.Reply.FOREIGN);
        assertThat(tracker.owed()).isEqualTo(2);
        assertThat(tracker.accept(7, 4)).isEqualTo(ReplyTracker.Reply.FIRST);
        assertThat(tracker.accept(7, 3)).isEqualTo(ReplyTracker.Reply.FIRST);
        assertThat(tracker.owed()).isZero();
    }
}
