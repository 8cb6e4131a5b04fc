package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.mqttload.measure.Count;

/**
 * What is owed, decided per message: a stream of 100 messages, sequence number s sent at s ms (checkpoints every 10),
 * against a subscription whose window is turned into the publisher's clock with the pair's offset and bound.
 */
class OwedDeliveriesTest {
    private static final int ENGINE_ONE_STREAM = (1 << DeliveryLedger.LOCAL_STREAM_BITS) | 1;

    /** 100 sent and acknowledged; sequence s sent at s * 1000 µs; checkpoints at 1, 11, ..., 91 and the last, 100. */
    private static DeliveryCheck.Stream stream() {
        DeliveryCheck.Stream s = new DeliveryCheck.Stream(ENGINE_ONE_STREAM, "t/1", 100, 100, new long[0]);
        long[] times = new long[2 * 11];
        for (int i = 0; i < 10; i++) {
            times[2 * i] = 10 * i + 1;
            times[2 * i + 1] = (10 * i + 1) * 1000L;
        }
        times[20] = 100;
        times[21] = 100_000;
        s.sendTimes = times;
        return s;
    }

    /** A subscriber on {@code engine} whose window is [30.5 ms, 50.5 ms] in its clock, which received {@code missing}'s complement. */
    private static DeliveryCheck.Scope scope(int engine, long... missing) {
        DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:sub", "Subscribe");
        scope.addFilter("t/#");
        scope.windows.add(new DeliveryCheck.Window("t/#", engine, 30_500, 50_500));
        long count = 0;
        for (int i = 0; i + 1 < missing.length; i += 2) {
            count += missing[i + 1] - missing[i] + 1;
        }
        scope.see(ENGINE_ONE_STREAM, new DeliveryCheck.Seen(100 - count, 100, missing));
        return scope;
    }

    private static DeliveryCheck.Result check(DeliveryCheck.Scope scope, DeliveryCheck.Clocks clocks) {
        return DeliveryCheck.check(List.of(stream()), List.of(scope), clocks);
    }

    private static Verdict verdict(DeliveryCheck.Result r) {
        Map<Count, Long> counts = new EnumMap<>(Count.class);
        counts.put(Count.EXPECTED, r.expected);
        counts.put(Count.RECEIVED_OF_EXPECTED, r.receivedOfExpected);
        counts.put(Count.LOST, r.lost());
        counts.put(Count.PUBLISHED_BEFORE_SUBSCRIPTION, r.publishedBeforeSubscription);
        counts.put(Count.UNDECIDED_AROUND_SUBSCRIPTION, r.undecidedAroundSubscription);
        return new Judgement(c -> counts.getOrDefault(c, 0L), List.of(), List.of(), List.of(), 0, true).verdict;
    }

    @Test
    void sameEngine_sentBeforeTheSubscribeIsNotOwed_sentAroundItAndMissingIsUndecided_afterItOwed() {
        // 1-40 never arrived. Surely before 30.5 ms: 1-21 (21 is a checkpoint at 21 ms, 31 is at 31 ms). Surely after
        // 50.5 ms: 51 on. 22-50 around it: 41-50 arrived (owed and received), 22-40 did not (undecided).
        DeliveryCheck.Result r = check(scope(1, 1, 40), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedBeforeSubscription).isEqualTo(21);
        assertThat(r.undecidedAroundSubscription).isEqualTo(19);
        assertThat(r.expected).isEqualTo(60);
        assertThat(r.receivedOfExpected).isEqualTo(60);
        assertThat(r.lost()).isZero();
        assertThat(r.bySampler.get("Subscribe")).startsWith(60, 60);
        assertThat(verdict(r)).as("missing messages the clocks cannot place: never LOSS, never a clean pass")
                .isEqualTo(Verdict.LOSS_UNCERTAIN);
    }

    @Test
    void sentBeforeTheSubscribeButDelivered_isOwedAndMet_onlyTheMissingOnesAreOwedToNobody() {
        // A retained message reaches a later subscriber: 1-21 were surely sent before the window, and 1-3 of them
        // arrived all the same (4-40 did not). They count as owed and received, not dropped from the figures: a run
        // whose only message is the retained one must still have something to check.
        DeliveryCheck.Result r = check(scope(1, 4, 40), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedBeforeSubscription).isEqualTo(18);
        assertThat(r.undecidedAroundSubscription).isEqualTo(19);
        assertThat(r.expected).isEqualTo(63);
        assertThat(r.receivedOfExpected).isEqualTo(63);
        assertThat(r.lost()).isZero();
        assertThat(r.bySampler.get("Subscribe")).startsWith(63, 63);
    }

    @Test
    void aMessageMissingAfterTheSubscriptionTookEffect_isLost() {
        DeliveryCheck.Result r = check(scope(1, 1, 40, 70, 70), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedBeforeSubscription).isEqualTo(21);
        assertThat(r.undecidedAroundSubscription).isEqualTo(19);
        assertThat(r.expected).isEqualTo(60);
        assertThat(r.lost()).isEqualTo(1);
        assertThat(verdict(r)).isEqualTo(Verdict.LOSS);
    }

    @Test
    void allMissingBeforeTheSubscribe_isNoLoss() {
        DeliveryCheck.Result r = check(scope(1, 1, 21), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedBeforeSubscription).isEqualTo(21);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.expected).isEqualTo(79);
        assertThat(r.lost()).isZero();
        assertThat(verdict(r)).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void anotherEngine_theWindowMovesByTheOffset_andTheBoundWidensIt() {
        // The subscriber's clock 5 ms ahead: its window is [25.5, 45.5] ms in the publisher's clock.
        DeliveryCheck.Result shifted = check(scope(2, 1, 40), (sub, pub) -> new long[] {5_000, 0});
        assertThat(shifted.publishedBeforeSubscription).isEqualTo(21);
        assertThat(shifted.undecidedAroundSubscription).as("22-40").isEqualTo(19);
        assertThat(shifted.expected).as("41-100").isEqualTo(60);

        // Offset 0 ± 10 ms: [20.5, 60.5] ms. Surely before: 1-11; surely after: 61 on; 12-40 missing are undecided.
        DeliveryCheck.Result wide = check(scope(2, 1, 40), (sub, pub) -> new long[] {0, 10_000});
        assertThat(wide.publishedBeforeSubscription).isEqualTo(11);
        assertThat(wide.undecidedAroundSubscription).isEqualTo(29);
        assertThat(wide.expected).isEqualTo(60);
        assertThat(wide.lost()).isZero();
    }

    @Test
    void anotherEngine_offsetNotMeasured_missingBeforeTheFirstArrivalIsUndecided_afterItOwed() {
        DeliveryCheck.Result r = check(scope(2, 1, 40, 70, 70), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedBeforeSubscription).isZero();
        assertThat(r.undecidedAroundSubscription).as("1-40, before 41 arrived").isEqualTo(40);
        assertThat(r.expected).isEqualTo(60);
        assertThat(r.lost()).as("70").isEqualTo(1);
    }

    @Test
    void anotherEngine_offsetNotMeasured_nothingReceived_isUncertain_notNothingToCheck() {
        DeliveryCheck.Result r = check(scope(2, 1, 100), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.expected).isZero();
        assertThat(r.undecidedAroundSubscription).isEqualTo(100);
        assertThat(verdict(r)).isEqualTo(Verdict.LOSS_UNCERTAIN);
    }

    @Test
    void aLedgerWithoutTimes_owesEveryAcknowledgedMessage_asBefore() {
        DeliveryCheck.Scope scope = scope(1, 1, 40);
        scope.windows.clear();
        DeliveryCheck.Result noWindow = check(scope, DeliveryCheck.Clocks.SAME_ENGINE);
        assertThat(noWindow.expected).isEqualTo(100);
        assertThat(noWindow.lost()).isEqualTo(40);
        assertThat(noWindow.publishedBeforeSubscription).isZero();
        assertThat(noWindow.undecidedAroundSubscription).isZero();

        DeliveryCheck.Stream untimed = stream();
        untimed.sendTimes = null;
        DeliveryCheck.Result noTimes = DeliveryCheck.check(List.of(untimed), List.of(scope(1, 1, 40)),
                DeliveryCheck.Clocks.SAME_ENGINE);
        assertThat(noTimes.publishedBeforeSubscription).isZero();
        assertThat(noTimes.undecidedAroundSubscription).as("not placed in time: before the first arrival").isEqualTo(40);
        assertThat(noTimes.lost()).isZero();
    }

    @Test
    void aSharedGroupOnTwoEngines_takesEffectWithItsFirstMember() {
        Map<Integer, DeliveryCheck.Stream> streams = new HashMap<>();
        Map<String, DeliveryCheck.Scope> scopes = new TreeMap<>();
        DeliveryCheck.Scope early = new DeliveryCheck.Scope("share:g/t/#", "Subscribe");
        early.addFilter("t/#");
        early.windows.add(new DeliveryCheck.Window("t/#", 1, 30_500, 50_500));
        early.see(ENGINE_ONE_STREAM, new DeliveryCheck.Seen(30, 100, new long[] {1, 40, 71, 100}));
        DeliveryCheck.Scope late = new DeliveryCheck.Scope("share:g/t/#", "Subscribe");
        late.addFilter("t/#");
        late.windows.add(new DeliveryCheck.Window("t/#", 2, 80_500, 90_500));
        late.see(ENGINE_ONE_STREAM, new DeliveryCheck.Seen(30, 100, new long[] {1, 70}));
        DeliveryCheck.add(new DeliveryCheck.Ledger(List.of(stream()), List.of(early)), streams, scopes);
        DeliveryCheck.add(new DeliveryCheck.Ledger(List.of(), List.of(late)), streams, scopes);

        DeliveryCheck.Result r = DeliveryCheck.check(streams.values(), scopes.values(), (sub, pub) -> new long[] {0, 0});

        assertThat(r.publishedBeforeSubscription).as("before the first member's window").isEqualTo(21);
        assertThat(r.expected + r.undecidedAroundSubscription).isEqualTo(79);
        assertThat(r.lost()).isZero();
    }

    /**
     * A subscriber on engine 1 subscribed before anything was sent (all 100 owed), missing {@code missing}, whose
     * subscriptions lapsed: per lapse the highest it had received at the loss and the new SUBSCRIBE's window in ms.
     */
    private static DeliveryCheck.Scope lapsed(long[] missing, long[]... lapses) {
        DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:sub", "Subscribe");
        scope.addFilter("t/#");
        scope.windows.add(new DeliveryCheck.Window("t/#", 1, -2_000, -1_000));
        long count = 0;
        for (int i = 0; i + 1 < missing.length; i += 2) {
            count += missing[i + 1] - missing[i] + 1;
        }
        // Missing up to the last: the highest received is below the last run.
        long highest = missing.length > 0 && missing[missing.length - 1] == 100 ? missing[missing.length - 2] - 1 : 100;
        scope.see(ENGINE_ONE_STREAM, new DeliveryCheck.Seen(100 - count, highest, missing));
        for (long[] l : lapses) {
            scope.lapses.add(new DeliveryCheck.Lapse((int) l[0], l[2] * 100, l[3] * 100,
                    Map.of(ENGINE_ONE_STREAM, l[1])));
        }
        return scope;
    }

    @Test
    void aLapse_whatIsMissingBeforeTheFirstMessageBack_isOwedToNobody_whatWasSentAfterItOrAfterTheSubackIsOwed() {
        // Lost after 40; subscribed again in [60.5 ms, 62.5 ms]: surely sent before it up to 51, surely after from 71.
        // 41-70 did not arrive, 71 did: the broker got 52-70 before 71, which the new subscription held; missing, they
        // were routed before it. All 30 owed to nobody, nothing undecided: a clean pass.
        DeliveryCheck.Result r = check(lapsed(new long[] {41, 70}, new long[] {1, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(30);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.expected).isEqualTo(70);
        assertThat(r.lost()).isZero();
        assertThat(verdict(r)).isEqualTo(Verdict.NO_LOSS);

        // 61-70 arrived, 41-60 did not: the 20 before 61 owed to nobody; what arrived is owed and delivered.
        DeliveryCheck.Result partly = check(lapsed(new long[] {41, 60}, new long[] {1, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);
        assertThat(partly.publishedWhileSessionLost).isEqualTo(20);
        assertThat(partly.undecidedAroundSubscription).isZero();
        assertThat(partly.expected).isEqualTo(80);
        assertThat(partly.receivedOfExpected).isEqualTo(80);

        // The same without the lapse: the gap is loss.
        DeliveryCheck.Result without = check(lapsed(new long[] {41, 70}), DeliveryCheck.Clocks.SAME_ENGINE);
        assertThat(without.lost()).isEqualTo(30);
        assertThat(without.publishedWhileSessionLost).isZero();
    }

    @Test
    void aLapse_missingAfterTheFirstMessageBack_isLoss_evenWhenSentBeforeTheNewSubscribe() {
        // 41-44 and 46-50 missing, 45 arrived (sent at 45 ms, before the SUBSCRIBE of [60.5, 62.5] ms by the send
        // times): the broker routed 45 to the new subscription, so it held when 46-50 came after it. 41-44 owed to
        // nobody, 46-50 lost.
        DeliveryCheck.Result r = check(lapsed(new long[] {41, 44, 46, 50}, new long[] {1, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(4);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.lost()).isEqualTo(5);
        assertThat(verdict(r)).isEqualTo(Verdict.LOSS);
    }

    @Test
    void aLapse_missingAfterTheSuback_isLoss_evenBeforeTheFirstMessageBack() {
        // 41-80 missing, 81 the first back: 41-70 sent before the SUBACK of [60.5, 62.5] ms was read (surely after
        // from 71), owed to nobody; 71-80 sent after it, when the subscription held: lost.
        DeliveryCheck.Result r = check(lapsed(new long[] {41, 80}, new long[] {1, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(30);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.lost()).isEqualTo(10);
        assertThat(verdict(r)).isEqualTo(Verdict.LOSS);
    }

    @Test
    void aLapseAfterWhichNothingArrived_leavesWhatWasSentAroundTheNewSubscribeUndecided() {
        // 41-100 missing, nothing back to order them by: up to 51 sent before the SUBSCRIBE (owed to nobody), 52-70
        // around it (undecided), 71-100 after the SUBACK (lost).
        DeliveryCheck.Result r = check(lapsed(new long[] {41, 100}, new long[] {1, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(11);
        assertThat(r.undecidedAroundSubscription).isEqualTo(19);
        assertThat(r.lost()).isEqualTo(30);
    }

    @Test
    void aLapse_leavesWhatWasMissingAtOrBelowTheHighestBeforeTheLoss_owed() {
        // 31-35 skipped while 36-40 arrived: the broker's loss, whatever became of its session later.
        DeliveryCheck.Result r = check(lapsed(new long[] {31, 35, 41, 70}, new long[] {1, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.lost()).isEqualTo(5);
        assertThat(r.publishedWhileSessionLost).isEqualTo(30);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(verdict(r)).isEqualTo(Verdict.LOSS);
    }

    @Test
    void aLapseOnAnEngineWhoseClockIsNotKnown_isDecidedByTheFirstMessageBack() {
        // Engine 2's clock against the publisher's is not measured: 41-70, missing before 71 arrived, owed to nobody.
        DeliveryCheck.Result r = check(lapsed(new long[] {41, 70}, new long[] {2, 40, 605, 625}),
                DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(30);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.lost()).isZero();

        // Measured, with a 10 ms offset (engine 2 ahead) and a 1 ms bound: [50.5, 52.5] ms in the publisher's clock
        // widened to [49.5, 53.5]: surely after from 61, so 61-70 were sent when the subscription held.
        DeliveryCheck.Result measured = check(lapsed(new long[] {41, 70}, new long[] {2, 40, 605, 625}),
                (sub, pub) -> sub == pub ? new long[] {0, 0} : new long[] {10_000, 1_000});
        assertThat(measured.publishedWhileSessionLost).isEqualTo(20);
        assertThat(measured.undecidedAroundSubscription).isZero();
        assertThat(measured.lost()).isEqualTo(10);
    }

    @Test
    void twoLapsesWithNothingBetween_whatOneOwesToNobodyIsOwedToNobody() {
        // The first new subscription in [45.5, 46.5] ms, lost again before anything arrived (its SUBACK read before
        // 51 was sent), the second in [60.5, 62.5]: the second's owes nobody 41-70, which the first alone would owe.
        DeliveryCheck.Result r = check(lapsed(new long[] {41, 70}, new long[] {1, 40, 455, 465},
                new long[] {1, 40, 605, 625}), DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(30);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.lost()).isZero();
    }

    @Test
    void aLapseOfTheSubscribersOwnEngine_isPlacedByWhatTheStreamHadSent_notByItsSendTimesStep() {
        // The stream had sent 65 when the SUBSCRIBE left and 66 when the SUBACK came (68 on surely after): the window
        // [60.5, 62.5] ms and the 10 ms step between send times would have placed 52-70 around it. 41-67 missing, 68
        // the first back: all 27 owed to nobody.
        DeliveryCheck.Scope scope = lapsed(new long[] {41, 67});
        scope.lapses.add(new DeliveryCheck.Lapse(1, 60_500, 62_500, Map.of(ENGINE_ONE_STREAM, 40L),
                Map.of(ENGINE_ONE_STREAM, 65L), Map.of(ENGINE_ONE_STREAM, 68L)));

        DeliveryCheck.Result r = check(scope, DeliveryCheck.Clocks.SAME_ENGINE);

        assertThat(r.publishedWhileSessionLost).isEqualTo(27);
        assertThat(r.undecidedAroundSubscription).isZero();
        assertThat(r.lost()).isZero();
        assertThat(r.expected).isEqualTo(73);

        // Nothing back after the lapse (41-100 missing): 41-65 owed to nobody, 66-67 undecided, 68 on lost.
        DeliveryCheck.Scope none = lapsed(new long[] {41, 100});
        none.lapses.add(new DeliveryCheck.Lapse(1, 60_500, 62_500, Map.of(ENGINE_ONE_STREAM, 40L),
                Map.of(ENGINE_ONE_STREAM, 65L), Map.of(ENGINE_ONE_STREAM, 68L)));
        DeliveryCheck.Result nothingBack = check(none, DeliveryCheck.Clocks.SAME_ENGINE);
        assertThat(nothingBack.publishedWhileSessionLost).isEqualTo(25);
        assertThat(nothingBack.undecidedAroundSubscription).isEqualTo(2);
        assertThat(nothingBack.lost()).isEqualTo(33);
    }
}
