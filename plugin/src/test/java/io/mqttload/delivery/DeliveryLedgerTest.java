package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.mqttload.common.SharedSubscription;
import io.mqttload.measure.EngineMetrics;

class DeliveryLedgerTest {
    private final EngineMetrics metrics = new EngineMetrics();

    @Test
    void fanOutAndSharedGroup_expectOneDeliveryPerScope() {
        DeliveryLedger ledger = new DeliveryLedger(3);
        ReceiverScope a = ledger.clientScope("sub-a", "t/#");
        ReceiverScope b = ledger.clientScope("sub-b", "t/1");
        ReceiverScope shared = ledger.sharedScope(SharedSubscription.parse("f", "$share/g/t/+"));
        ledger.sharedScope(SharedSubscription.parse("f", "$share/g/t/+"));
        PublishStream s1 = ledger.newStream("t/1");
        PublishStream s2 = ledger.newStream("t/2");
        for (int i = 1; i <= 10; i++) {
            s1.nextSequence();
            s1.sent();
            s1.acknowledged();
            s2.nextSequence();
            s2.sent();
            s2.acknowledged();
        }
        for (int seq = 1; seq <= 10; seq++) {
            a.track(s1.id(), seq, metrics);
            a.track(s2.id(), seq, metrics);
            b.track(s1.id(), seq, metrics);
            shared.track(s1.id(), seq, metrics);
            if (seq != 7) {
                shared.track(s2.id(), seq, metrics);
            }
        }

        DeliveryLedger.Delivery d = ledger.delivery();

        assertThat(d.expected).isEqualTo(10 + 10 + 10 + 10 + 10);
        assertThat(d.receivedOfExpected).isEqualTo(49);
        assertThat(d.lost()).isEqualTo(1);
        assertThat(d.missingInGaps).isEqualTo(1);
        assertThat(d.receiverScopes).isEqualTo(3);
    }

    @Test
    void noLocal_aClientIsNotOwedItsOwnMessages_onItsNoLocalFiltersOnly_alsoInTheMergedBook() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(1);
        ReceiverScope self = ledger.clientScope("c1", "own/#", true);
        ReceiverScope other = ledger.clientScope("c2", "own/#");
        ReceiverScope both = ledger.clientScope("c3", "own/#", true);
        ledger.clientScope("c3", "own/+");
        PublishStream fromSelf = ledger.newStream("own/a", "c1");
        PublishStream fromBoth = ledger.newStream("own/b", "c3");
        for (PublishStream s : new PublishStream[] {fromSelf, fromBoth}) {
            for (int i = 1; i <= 5; i++) {
                s.nextSequence();
                s.sent();
                s.acknowledged();
            }
        }
        for (int seq = 1; seq <= 5; seq++) {
            other.track(fromSelf.id(), seq, metrics);
            other.track(fromBoth.id(), seq, metrics);
            self.track(fromBoth.id(), seq, metrics);
            both.track(fromSelf.id(), seq, metrics);
            // c3 subscribed own/+ without no local too: the broker sends it its own messages through that filter.
            both.track(fromBoth.id(), seq, metrics);
        }

        DeliveryLedger.Delivery d = ledger.delivery();
        java.util.Map<Integer, DeliveryCheck.Stream> streams = new java.util.HashMap<>();
        java.util.Map<String, DeliveryCheck.Scope> scopes = new java.util.HashMap<>();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        DeliveryCheck.add(json.readValue(json.writeValueAsString(ledger.book()), DeliveryCheck.Ledger.class), streams,
                scopes);
        DeliveryCheck.Result merged = DeliveryCheck.check(streams.values(), scopes.values());

        assertThat(d.expected).as("c1 is owed c3's 5, c2 both 10, c3 both 10").isEqualTo(25);
        assertThat(d.lost()).isZero();
        assertThat(merged.expected).isEqualTo(25);
        assertThat(merged.lost()).isZero();
        DeliveryLedger plain = new DeliveryLedger(2);
        plain.clientScope("c9", "own/#");
        plain.newStream("own/c", "c8").sent();
        assertThat(json.writeValueAsString(plain.book())).as("books without no local stay as they were")
                .doesNotContain("publisher").doesNotContain("noLocalFilters");
    }

    @Test
    void noLocal_ownMessagesDeliveredAnyway_areCountedAsTheBrokers_andASubscriptionWithoutNoLocalOwesThemAgain() {
        DeliveryLedger ledger = new DeliveryLedger(1);
        ReceiverScope self = ledger.clientScope("c1", "own/#", true);
        PublishStream own = ledger.newStream("own/a", "c1");
        for (int i = 1; i <= 3; i++) {
            own.nextSequence();
            own.sent();
            own.acknowledged();
            self.track(own.id(), i, metrics);
        }

        assertThat(ledger.delivery().expected).isZero();
        assertThat(ledger.delivery().deliveredDespiteNoLocal).isEqualTo(3);
        ledger.clientScope("c1", "own/#");
        assertThat(ledger.delivery().expected).isEqualTo(3);
        assertThat(ledger.delivery().deliveredDespiteNoLocal).isZero();
    }

    @Test
    void streamIds_carryTheEngineNumber_soEnginesNeverCollide() {
        PublishStream a = new DeliveryLedger(1).newStream("x");
        PublishStream b = new DeliveryLedger(2).newStream("x");

        assertThat(a.id()).isNotEqualTo(b.id());
        assertThat(a.id() >>> DeliveryLedger.LOCAL_STREAM_BITS).isEqualTo(1);
        assertThat(b.id() >>> DeliveryLedger.LOCAL_STREAM_BITS).isEqualTo(2);
        assertThatThrownBy(() -> new DeliveryLedger(4096)).hasMessageContaining("mqttload.engineNumber = '4096'");
    }
}
