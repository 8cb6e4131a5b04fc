package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * A Publish sampler's own schedule as arithmetic on given instants: no clock, no broker. The slots of a run are exact
 * per client, a thread's clients are spread over the interval, and a sender late by any time owes exactly the slots it
 * passed, then is on time again. InMemoryPublishScheduleTest sends them through the engine.
 */
class PublishSlotsTest {
    private static final long ANCHOR = 1_000_000_000L;
    private static final long SECOND = 1_000_000L;

    @ParameterizedTest(name = "{0} msg/s")
    @CsvSource({"1813", "1844", "1675.6", "2008.7", "0.5", "33333.3"})
    void anyRate_isOfferedOverARun_toTheSlot(double rate) {
        PublishSlots slots = new PublishSlots(rate, false, 1, 1, ANCHOR);

        long slotsIn60s = slots.slotsIn(ANCHOR, ANCHOR + 60 * SECOND);

        // A whole-millisecond interval made 1,813 msg/s 1,676: here the run's slots are the rate times its time.
        assertThat((double) slotsIn60s).isCloseTo(rate * 60, org.assertj.core.data.Offset.offset(1.0));
        assertThat(Math.abs(slotsIn60s / 60.0 - rate) / rate).isLessThan(0.005);
    }

    @Test
    void eachClientKeepsItsOwnSlots_exactlyOverARun() {
        PublishSlots slots = new PublishSlots(7.3, true, 5, 3, ANCHOR);

        for (int c = 0; c < 5; c++) {
            long n = slots.slotsBefore(c, ANCHOR + 100 * SECOND);
            assertThat(n).as("client " + c).isBetween(729L, 731L);
            assertThat(slots.slotMicros(c, n - 1)).isLessThan(ANCHOR + 100 * SECOND);
            assertThat(slots.slotMicros(c, n)).isGreaterThanOrEqualTo(ANCHOR + 100 * SECOND);
        }
        assertThat(slots.slotsIn(ANCHOR, ANCHOR + 100 * SECOND)).isEqualTo(5 * 73 * 10);
    }

    @Test
    void aThreadsClients_arePhasedEvenlyOverTheInterval_neverInOneBurst() {
        PublishSlots slots = new PublishSlots(1, true, 10, 7, ANCHOR);

        List<Long> first = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            first.add(slots.take(slots.earliestClient()));
        }

        assertThat(first).isSorted().doesNotHaveDuplicates();
        for (int i = 1; i < first.size(); i++) {
            assertThat(first.get(i) - first.get(i - 1)).as("gap %d", i).isBetween(99_999L, 100_001L);
        }
        assertThat(first.get(9) - first.get(0)).isLessThan(SECOND);
        assertThat(slots.take(slots.earliestClient()) - first.get(0)).as("the first client again, a second on")
                .isBetween(SECOND - 1, SECOND + 1);
    }

    @Test
    void threadsOfTheSameShape_publishAtDifferentPhases() {
        PublishSlots one = new PublishSlots(1, true, 10, 1, ANCHOR);
        PublishSlots two = new PublishSlots(1, true, 10, 2, ANCHOR);

        assertThat(one.nextSlotMicros(0)).isNotEqualTo(two.nextSlotMicros(0));
        assertThat(Math.abs(one.nextSlotMicros(0) - two.nextSlotMicros(0)) % 100_000).isGreaterThan(1_000);
    }

    @Test
    void aRatePerThread_isSharedByItsClients_evenlySpaced() {
        PublishSlots slots = new PublishSlots(100, false, 4, 1, ANCHOR);

        long previous = slots.take(slots.earliestClient());
        for (int i = 1; i < 100; i++) {
            long at = slots.take(slots.earliestClient());
            assertThat(at - previous).isBetween(9_999L, 10_001L);
            previous = at;
        }
        assertThat(slots.slotsIn(ANCHOR, ANCHOR + SECOND)).isEqualTo(100);
    }

    @Test
    void aSenderLateByAStall_owesExactlyTheSlotsItPassed_thenIsOnTimeAgain() {
        PublishSlots slots = new PublishSlots(200, true, 3, 1, ANCHOR);
        long resumed = ANCHOR + 3 * SECOND + 123;

        long owed = 0;
        while (slots.nextSlotMicros(slots.earliestClient()) < resumed) {
            long intended = slots.take(slots.earliestClient());
            assertThat(intended).as("each owed message keeps its own slot as its intended time").isLessThan(resumed);
            owed++;
        }

        assertThat(owed).isEqualTo(slots.slotsIn(ANCHOR, resumed)).isBetween(1_799L, 1_801L);
        long next = slots.nextSlotMicros(slots.earliestClient());
        assertThat(next).as("after the owed slots, the schedule's next slot is ahead, not a stall behind")
                .isGreaterThanOrEqualTo(resumed).isLessThan(resumed + SECOND / 600 + 1);
    }

    @Test
    void theSlotsOfAWindow_areCountedFromItsStartToItsEnd() {
        PublishSlots slots = new PublishSlots(10, true, 2, 1, ANCHOR);

        assertThat(slots.slotsIn(ANCHOR + 2 * SECOND, ANCHOR + 5 * SECOND)).isEqualTo(60);
        assertThat(slots.slotsIn(Long.MIN_VALUE, ANCHOR + 5 * SECOND)).isEqualTo(100);
        assertThat(slots.slotsIn(ANCHOR, ANCHOR)).isZero();
    }
}
