package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mqttload.common.SharedSubscription;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;

/** The one loss calculation: acknowledged messages are owed, unacknowledged ones that arrive are still this run's. */
class DeliveryCheckTest {
    private final EngineMetrics metrics = new EngineMetrics();

    @Test
    void unacknowledgedMessagesThatArrive_areCountedAsSuchNotAsForeign() {
        DeliveryLedger ledger = new DeliveryLedger(1);
        ReceiverScope sub = ledger.clientScope("sub", "t/#");
        PublishStream stream = ledger.newStream("t/1");
        // 10 sent; 1-6 acknowledged; 7-10 failed (the broker broke the protocol on them), of which 7 and 8 arrived.
        for (int seq = 1; seq <= 10; seq++) {
            stream.nextSequence();
            stream.sent();
            if (seq <= 6) {
                stream.acknowledged();
            } else {
                stream.failed(seq);
            }
        }
        for (int seq : new int[] {1, 2, 3, 5, 6, 7, 8}) {
            sub.track(stream.id(), seq, metrics);
        }

        DeliveryLedger.Delivery d = ledger.delivery();

        assertThat(d.expected).as("only acknowledged messages are owed").isEqualTo(6);
        assertThat(d.receivedOfExpected).as("4 is the one acknowledged message missing").isEqualTo(5);
        assertThat(d.lost()).isEqualTo(1);
        assertThat(d.deliveredUnacknowledged).as("7 and 8: sent, not acknowledged, delivered").isEqualTo(2);
        assertThat(d.receivedFromUnknownStreams).isZero();
    }

    @Test
    void mergedLedgers_giveTheSameFiguresAsTheEngine() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(2);
        ReceiverScope sub = ledger.clientScope("sub", "t/#");
        PublishStream stream = ledger.newStream("t/1");
        for (int seq = 1; seq <= 100; seq++) {
            stream.nextSequence();
            stream.sent();
            if (seq % 10 == 0) {
                stream.failed(seq);
            } else {
                stream.acknowledged();
            }
            if (seq % 7 != 0) {
                sub.track(stream.id(), seq, metrics);
            }
        }
        DeliveryLedger.Delivery engine = ledger.delivery();

        java.util.Map<Integer, DeliveryCheck.Stream> streams = new java.util.HashMap<>();
        java.util.Map<String, DeliveryCheck.Scope> scopes = new java.util.TreeMap<>();
        DeliveryCheck.add(ledger.book(), streams, scopes);
        DeliveryCheck.Result merged = DeliveryCheck.check(streams.values(), scopes.values());

        // 90 acknowledged; of them, multiples of 7 that are not multiples of 10 are missing: 14 - 1 (70) = 13.
        assertThat(engine.expected).isEqualTo(90);
        assertThat(engine.lost()).isEqualTo(13);
        // Failed 10, 20, ... 100 arrived except 70: 9 delivered without acknowledgement.
        assertThat(engine.deliveredUnacknowledged).isEqualTo(9);
        assertThat(List.of(merged.expected, merged.receivedOfExpected, merged.deliveredUnacknowledged))
                .containsExactly(engine.expected, engine.receivedOfExpected, engine.deliveredUnacknowledged);
    }

    @Test
    void sharedGroupThatReceivesNothing_isNamed() {
        DeliveryLedger ledger = new DeliveryLedger(3);
        ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/perf/test/#"));
        PublishStream stream = ledger.newStream("test/a");
        for (int i = 0; i < 5; i++) {
            stream.nextSequence();
            stream.sent();
            stream.acknowledged();
        }

        DeliveryLedger.Delivery d = ledger.delivery();

        assertThat(d.lost()).isEqualTo(5);
        assertThat(d.receivedNothing).containsExactly("shared group $share/perf/test/# received none of 5 messages owed to it");
        assertThat(d.sharedGroupsUnserved).as("never granted: nothing says the broker took the filter").isZero();
    }

    @Test
    void sharedGroupGrantedThatReceivesNothing_failsSayingTheBrokerProbablyHasNoSharedSubscriptions_notLoss() {
        // amqtt, aedes, ActiveMQ 5, Moquette at 3.1.1: SUBACK granted for $share/perf/test/#, an ordinary filter there.
        DeliveryLedger ledger = new DeliveryLedger(3);
        ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/perf/test/#")).granted("MQTT 3.1.1");
        PublishStream stream = ledger.newStream("test/a");
        for (int i = 0; i < 4100; i++) {
            stream.nextSequence();
            stream.sent();
            stream.acknowledged();
        }

        DeliveryLedger.Delivery d = ledger.delivery();
        Map<Count, Long> counts = new EnumMap<>(Count.class);
        counts.put(Count.CONNECTS_OK, 2L);
        counts.put(Count.EXPECTED, d.expected);
        counts.put(Count.RECEIVED_OF_EXPECTED, d.receivedOfExpected);
        counts.put(Count.LOST, d.lost());
        counts.put(Count.SHARED_GROUPS_UNSERVED, d.sharedGroupsUnserved);
        counts.put(Count.UNSERVED_SHARED_DELIVERIES, d.unservedSharedDeliveries);
        Judgement j = new Judgement(c -> counts.getOrDefault(c, 0L), List.of(), List.of(), d.receivedNothing, 0, false);

        assertThat(d.sharedGroupsUnserved).isEqualTo(1);
        assertThat(d.unservedSharedDeliveries).as("owed to nobody").isEqualTo(4100);
        assertThat(d.expected).isZero();
        assertThat(d.lost()).isZero();
        assertThat(j.verdict).isEqualTo(Verdict.FAILED);
        assertThat(j.line()).startsWith("FAILED: the broker probably does not support shared subscriptions: 1 shared"
                + " group(s) it granted received nothing")
                .contains("delivery: expected 0, received 0, lost 0; 4100 deliveries owed to nobody"
                        + " (unservedSharedDeliveries), not in expected or lost")
                .contains("shared group $share/perf/test/# received none of the 4100 messages its filter matches, though"
                        + " the broker granted the filter at MQTT 3.1.1: the broker probably does not support shared"
                        + " subscriptions at MQTT 3.1.1");
    }

    @Test
    void rangesCountOverlapsExactly() {
        long[] failed = {2, 4, 8, 12};
        long[] missing = {1, 3, 10, 10, 20, 30};
        assertThat(Ranges.count(failed)).isEqualTo(8);
        assertThat(Ranges.countUpTo(failed, 9)).isEqualTo(5);
        assertThat(Ranges.overlap(failed, missing)).isEqualTo(3);
        assertThat(Ranges.normalise(new long[] {9, 9, 2, 3, 4, 4, 8, 8}, 8)).containsExactly(2, 4, 8, 9);
    }
}
