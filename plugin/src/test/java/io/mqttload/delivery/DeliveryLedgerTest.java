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
    void streamIds_carryTheEngineNumber_soEnginesNeverCollide() {
        PublishStream a = new DeliveryLedger(1).newStream("x");
        PublishStream b = new DeliveryLedger(2).newStream("x");

        assertThat(a.id()).isNotEqualTo(b.id());
        assertThat(a.id() >>> DeliveryLedger.LOCAL_STREAM_BITS).isEqualTo(1);
        assertThat(b.id() >>> DeliveryLedger.LOCAL_STREAM_BITS).isEqualTo(2);
        assertThatThrownBy(() -> new DeliveryLedger(4096)).hasMessageContaining("mqttload.engineNumber = '4096'");
    }
}
