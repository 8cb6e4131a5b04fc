package io.mqttload.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.mqttload.client.PublishProperties;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReplyTracker;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Latency;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.measure.SamplerMetrics;

/**
 * The measured receive path without a broker, as emqttb tests its framework with a dummy behaviour: made-up inbound
 * messages with real measurement headers go through a client's {@link Receiver}, and the engine's counters,
 * recorders and delivery ledger must say exactly what was sent to it.
 */
class ReceiverTest {
    private final EngineMetrics metrics = new EngineMetrics();
    private final DeliveryLedger ledger = new DeliveryLedger(1);
    private final NodeMetrics node0 = metrics.nodes.node(0, "node-a");
    private final NodeMetrics node1 = metrics.nodes.node(1, "node-b");
    private final SamplerMetrics subscribers = new SamplerMetrics("Subscribe sensors");
    private final List<SentReply> repliesSent = new ArrayList<>();
    private final Replies replies = new Replies(metrics);
    private final Responder responder = new Responder((topic, payload, qos, properties, done) ->
            repliesSent.add(new SentReply(topic, payload, qos, properties, done)), metrics);
    private final Receiver receiver = new Receiver("sub-1", metrics, ledger, replies, responder, 0);

    @Test
    void latency_isRecordedOnceInTheRecorderOfSamplerNodeAndPublisherNode() {
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("sensors/#"), false, node0);
        PublishStream fromA = sent("sensors/1", 3);
        PublishStream fromB = sent("sensors/2", 2);
        for (int seq = 1; seq <= 3; seq++) {
            receiver.receive(MadeUpMessage.measured("sensors/1", fromA.id(), seq, 0, 2_000), node0);
        }
        for (int seq = 1; seq <= 2; seq++) {
            receiver.receive(MadeUpMessage.measured("sensors/2", fromB.id(), seq, 1, 2_000), node0);
        }

        EngineMetrics.ReceivedInterval interval = metrics.takeReceivedInterval(true);
        assertThat(interval.engine.get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(5);
        assertThat(interval.of(subscribers).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(5);
        assertThat(interval.of(node0).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(5);
        assertThat(interval.of(node1).get(Latency.PUB_TO_SUB).getTotalCount()).isZero();
        assertThat(node0.fromNode(0).totalCopy().getTotalCount()).isEqualTo(3);
        assertThat(node0.fromNode(1).totalCopy().getTotalCount()).isEqualTo(2);
        assertThat(interval.engine.get(Latency.PUB_TO_SUB).getMinValue()).isGreaterThanOrEqualTo(2_000);
        assertThat(metrics.sum(Count.RECEIVED)).isEqualTo(5);
        assertThat(subscribers.sum(Count.RECEIVED)).isEqualTo(5);
        assertThat(node0.sum(Count.RECEIVED)).isEqualTo(5);
        assertThat(receiver.receivedCount()).isEqualTo(5);
    }

    @Test
    void aLaterSubscribeOrAnotherNode_sendsTheNextMessagesToTheirOwnRecorder() {
        SamplerMetrics probe = new SamplerMetrics("Subscribe probe");
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("t"), false, node0);
        PublishStream stream = sent("t", 6);
        receiver.receive(MadeUpMessage.measured("t", stream.id(), 1, 0, 1_000), node0);
        receiver.receive(MadeUpMessage.measured("t", stream.id(), 2, 0, 1_000), node0);
        // A second MQTT Subscribe of the same client: what arrives now counts for it.
        receiver.receiveFor(probe, false);
        receiver.receive(MadeUpMessage.measured("t", stream.id(), 3, 0, 1_000), node0);
        // The client failed over to node 1: its messages are that node's now.
        receiver.receive(MadeUpMessage.measured("t", stream.id(), 4, 0, 1_000), node1);
        receiver.receive(MadeUpMessage.measured("t", stream.id(), 5, 1, 1_000), node1);

        EngineMetrics.ReceivedInterval interval = metrics.takeReceivedInterval(true);
        assertThat(interval.of(subscribers).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(2);
        assertThat(interval.of(probe).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(3);
        assertThat(interval.of(node0).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(3);
        assertThat(interval.of(node1).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(2);
        assertThat(node1.fromNode(0).totalCopy().getTotalCount()).isEqualTo(1);
        assertThat(node1.fromNode(1).totalCopy().getTotalCount()).isEqualTo(1);
        assertThat(probe.sum(Count.RECEIVED)).isEqualTo(3);
        assertThat(subscribers.sum(Count.RECEIVED)).isEqualTo(2);
    }

    @Test
    void percentiles_matchAKnownDistributionOfLatencies() {
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("t"), false, node0);
        PublishStream stream = sent("t", 1000);
        // 1 ms, 2 ms, ... 1000 ms: p50 is 500 ms and p99 990 ms, plus the few microseconds the receive takes.
        for (int seq = 1; seq <= 1000; seq++) {
            receiver.receive(MadeUpMessage.measured("t", stream.id(), seq, 0, seq * 1_000L), node0);
        }
        Histogram h = metrics.takeReceivedInterval(true).engine.get(Latency.PUB_TO_SUB);
        assertThat(h.getTotalCount()).isEqualTo(1000);
        assertThat((double) h.getValueAtPercentile(50)).isCloseTo(500_000, within(500_000 * 0.001 + 1_000));
        assertThat((double) h.getValueAtPercentile(99)).isCloseTo(990_000, within(990_000 * 0.001 + 1_000));
        assertThat(ledger.delivery().lost()).isZero();
    }

    @Test
    void pacedMessages_fromIntendedTime_areTheLatencyFromSendPlusTheLag_andUnpacedOnesAreNotInIt() {
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("t"), false, node0);
        PublishStream stream = sent("t", 1100);
        // 1,000 paced messages 1 ms on the way, sent 0..999 ms late (the lags a 1 s stall leaves), and 100 unpaced.
        for (int seq = 1; seq <= 1000; seq++) {
            receiver.receive(MadeUpMessage.paced("t", stream.id(), seq, 1_000, (seq - 1) * 1_000L), node0);
        }
        for (int seq = 1001; seq <= 1100; seq++) {
            receiver.receive(MadeUpMessage.measured("t", stream.id(), seq, 0, 1_000), node0);
        }
        EngineMetrics.ReceivedInterval interval = metrics.takeReceivedInterval(true);

        assertThat(interval.engine.get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(1100);
        assertThat((double) interval.engine.get(Latency.PUB_TO_SUB).getValueAtPercentile(99)).isCloseTo(1_000,
                within(1_000 * 0.001 + 1_000));
        Histogram intended = interval.engine.get(Latency.PUB_TO_SUB_INTENDED);
        assertThat(intended.getTotalCount()).isEqualTo(1000);
        // 1 ms + 0..999 ms: p50 500 ms, p99 990 ms, within the lag's coding (1/256) and the receive's few microseconds.
        assertThat((double) intended.getValueAtPercentile(50)).isCloseTo(500_000, within(500_000 / 256.0 + 1_000));
        assertThat((double) intended.getValueAtPercentile(99)).isCloseTo(990_000, within(990_000 / 256.0 + 1_000));
        assertThat(interval.of(subscribers).get(Latency.PUB_TO_SUB_INTENDED).getTotalCount()).isEqualTo(1000);
        assertThat(subscribers.latency.totalCopy(Latency.PUB_TO_SUB_INTENDED).getTotalCount()).isEqualTo(1000);
        assertThat(metrics.latency.totalCopy(Latency.PUB_TO_SUB_INTENDED).getTotalCount()).isEqualTo(1000);
    }

    @Test
    void eachMessage_fromIntendedTime_isItsLatencyFromSendPlusTheLagItsHeaderCarries() {
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("t"), false, node0);
        // Exact codes (below 128 µs), the first rounded ones, a busy machine's 27.9 ms, a stall's seconds, ten minutes.
        long[] lags = {0, 1, 127, 128, 129, 1_000, 27_900, 999_999, 2_000_000, 7_777_777, 600_000_000};
        PublishStream stream = sent("t", lags.length + 1);
        for (int i = 0; i < lags.length; i++) {
            receiver.receive(MadeUpMessage.paced("t", stream.id(), i + 1, 1_000, lags[i]), node0);
            EngineMetrics.ReceivedInterval one = metrics.takeReceivedInterval(true);
            long carried = PayloadHeader.lag(PayloadHeader.lagCode(lags[i]));
            assertThat((double) carried).as("lag %d µs as the header carries it", lags[i])
                    .isCloseTo(lags[i], within(lags[i] / 256.0));
            assertThat(one.engine.get(Latency.PUB_TO_SUB).getTotalCount()).isOne();
            assertThat(one.engine.get(Latency.PUB_TO_SUB_INTENDED).getTotalCount()).isOne();
            // The histograms keep a value to 3 significant digits, so the latency from the send is known here as its
            // bucket: the one from the intended time must be in a bucket that this bucket plus the lag reaches (below
            // 2,048 µs a bucket is one value, and the two are equal to the microsecond).
            long sent = one.engine.get(Latency.PUB_TO_SUB).getMaxValue();
            long intended = one.engine.get(Latency.PUB_TO_SUB_INTENDED).getMaxValue();
            assertThat(one.engine.get(Latency.PUB_TO_SUB_INTENDED).lowestEquivalentValue(intended))
                    .as("lag %d µs: from the send %d µs, from the intended time %d µs", lags[i], sent, intended)
                    .isLessThanOrEqualTo(one.engine.get(Latency.PUB_TO_SUB).highestEquivalentValue(sent) + carried);
            assertThat(one.engine.get(Latency.PUB_TO_SUB_INTENDED).highestEquivalentValue(intended))
                    .as("lag %d µs: from the send %d µs, from the intended time %d µs", lags[i], sent, intended)
                    .isGreaterThanOrEqualTo(one.engine.get(Latency.PUB_TO_SUB).lowestEquivalentValue(sent) + carried);
        }
        // A message with no intended time is in the figure from the send only.
        receiver.receive(MadeUpMessage.measured("t", stream.id(), lags.length + 1, 0, 1_000), node0);
        EngineMetrics.ReceivedInterval unpaced = metrics.takeReceivedInterval(true);
        assertThat(unpaced.engine.get(Latency.PUB_TO_SUB).getTotalCount()).isOne();
        assertThat(unpaced.engine.get(Latency.PUB_TO_SUB_INTENDED).getTotalCount()).isZero();
        assertThat(metrics.latency.totalCopy(Latency.PUB_TO_SUB_INTENDED).getTotalCount()).isEqualTo(lags.length);
        assertThat(ledger.delivery().lost()).isZero();
    }

    @Test
    void gapsDuplicatesAndReordering_areTrackedPerReceiverScope() {
        receiver.receiveFor(subscribers, false);
        // Two scopes: the client's own subscriptions, and a shared group's (whose members may be other clients).
        receiver.register(List.of("a/#", "$share/g/b/#"), false, node0);
        PublishStream onA = sent("a/1", 5);
        PublishStream onB = sent("b/1", 3);
        // On a: 1, 2, 4 (a gap: 3), 3 (reordered, fills it), 4 (duplicate), and 5 never comes.
        for (int seq : new int[] {1, 2, 4, 3, 4}) {
            receiver.receive(MadeUpMessage.measured("a/1", onA.id(), seq, 0, 500), node0);
        }
        // On b: 1, 3 (a gap: 2, never filled), 3 again (duplicate).
        for (int seq : new int[] {1, 3, 3}) {
            receiver.receive(MadeUpMessage.measured("b/1", onB.id(), seq, 0, 500), node0);
        }

        assertThat(metrics.sum(Count.DUPLICATES)).isEqualTo(2);
        assertThat(metrics.sum(Count.REORDERED)).isEqualTo(1);
        assertThat(metrics.sum(Count.GAPS)).isEqualTo(2);
        assertThat(metrics.sum(Count.GAPS_FILLED)).isEqualTo(1);
        DeliveryLedger.Delivery delivery = ledger.delivery();
        assertThat(delivery.expected).isEqualTo(8);
        assertThat(delivery.receivedOfExpected).isEqualTo(6);
        assertThat(delivery.lost()).isEqualTo(2);
        assertThat(receiver.scopes()).hasSize(2);
        // Where they were: per Subscribe sampler and per broker node of the subscribers, as lost is.
        assertThat(delivery.bySampler.get("Subscribe sensors")).as("expected, received, duplicates, reordered")
                .containsExactly(8, 6, 2, 1);
        assertThat(delivery.byNode.get("node-a")).containsExactly(8, 6, 2, 1);
    }

    @Test
    void aMessageWithoutAHeader_isCountedAsUnmeasuredAndNotTracked() {
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("t"), false, node0);
        receiver.receive(MadeUpMessage.unmeasured("t", "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8)), node0);
        receiver.receive(MadeUpMessage.unmeasured("t", null), node0);

        assertThat(metrics.sum(Count.RECEIVED)).isEqualTo(2);
        assertThat(metrics.sum(Count.RECEIVED_UNMEASURED)).isEqualTo(2);
        assertThat(metrics.sum(Count.RECEIVED_BYTES)).isEqualTo(5);
        assertThat(metrics.takeReceivedInterval(true).engine.get(Latency.PUB_TO_SUB).getTotalCount()).isZero();
    }

    @Test
    void aSubscriptionAfterMatchingMessagesWereSent_isLate() {
        sent("late/1", 1);
        receiver.receiveFor(subscribers, false);
        receiver.checkSentMeanwhile(receiver.register(List.of("late/#"), false, node0));
        List<Receiver.Subscription> onTime = receiver.register(List.of("other/#"), false, node0);
        sent("other/1", 1);
        receiver.checkSentMeanwhile(onTime);

        assertThat(ledger.delivery().lateSubscriptions).isEqualTo(2);
    }

    @Test
    void replies_areSortedIntoAnswersDuplicatesAndForeignOnes() {
        // No request sent yet: any reply is someone else's.
        receiver.receive(MadeUpMessage.reply("replies/me", 77, 1, 3_000), node0);
        assertThat(metrics.sum(Count.REPLIES_FOREIGN)).isEqualTo(1);

        ReplyTracker mine = replies.tracker();
        mine.expect(77);
        mine.requestAcknowledged();
        mine.requestAcknowledged();
        assertThat(replies.owed()).isEqualTo(2);
        receiver.receive(MadeUpMessage.reply("replies/me", 77, 1, 3_000), node0);
        receiver.receive(MadeUpMessage.reply("replies/me", 77, 1, 3_000), node0);
        receiver.receive(MadeUpMessage.reply("replies/me", 78, 1, 3_000), node0);

        assertThat(metrics.sum(Count.REPLIES_RECEIVED)).isEqualTo(1);
        assertThat(metrics.sum(Count.REPLY_DUPLICATES)).isEqualTo(1);
        assertThat(metrics.sum(Count.REPLIES_FOREIGN)).isEqualTo(2);
        assertThat(replies.owed()).isEqualTo(1);
        Histogram roundTrips = metrics.latency.takeInterval(Latency.ROUND_TRIP, true);
        assertThat(roundTrips.getTotalCount()).isEqualTo(1);
        assertThat(roundTrips.getMinValue()).isGreaterThanOrEqualTo(3_000);
        // Replies are outside the delivery ledger and the received count.
        assertThat(metrics.sum(Count.RECEIVED)).isZero();
    }

    @Test
    void aResponder_answersOnTheResponseTopicWithTheRequestsPayloadAndCorrelation() {
        receiver.receiveFor(subscribers, true);
        receiver.register(List.of("requests"), false, node0);
        PublishStream requests = sent("requests", 1);
        byte[] correlation = {1, 2, 3};
        MadeUpMessage request = MadeUpMessage.request("requests", requests.id(), 1, "replies/r1", correlation);
        receiver.receive(request, node0);

        assertThat(repliesSent).hasSize(1);
        SentReply reply = repliesSent.get(0);
        assertThat(reply.topic).isEqualTo("replies/r1");
        assertThat(reply.qos).isEqualTo(2);
        assertThat(reply.payload).isEqualTo(request.bytes());
        assertThat(reply.properties.correlationData()).containsExactly(1, 2, 3);
        assertThat(responder.inFlight()).isEqualTo(1);
        reply.done.accept(null);
        assertThat(responder.inFlight()).isZero();
        assertThat(metrics.sum(Count.REPLIES_SENT)).isEqualTo(1);
        // The request is a delivered message like any other.
        assertThat(ledger.delivery().lost()).isZero();
    }

    @Test
    void aResponder_refusesRepliesBeyondItsBoundAndCountsTheFailures() {
        receiver.receiveFor(subscribers, true);
        receiver.register(List.of("requests"), false, node0);
        PublishStream requests = sent("requests", Responder.MAX_REPLIES_IN_FLIGHT + 2);
        for (int seq = 1; seq <= Responder.MAX_REPLIES_IN_FLIGHT + 1; seq++) {
            receiver.receive(MadeUpMessage.request("requests", requests.id(), seq, "replies/r1", null), node0);
        }
        assertThat(repliesSent).hasSize(Responder.MAX_REPLIES_IN_FLIGHT);
        assertThat(responder.inFlight()).isEqualTo(Responder.MAX_REPLIES_IN_FLIGHT);
        assertThat(metrics.sum(Count.REPLIES_FAILED)).isEqualTo(1);
        assertThat(metrics.failures.rows()).singleElement().satisfies(row -> {
            assertThat(row.kind).isEqualTo(FailureTally.Kind.REPLY);
            assertThat(row.sampler).isEqualTo("Subscribe sensors");
            assertThat(row.reason).contains(Responder.MAX_REPLIES_IN_FLIGHT + " replies the broker has not taken");
        });

        // The broker takes one, or fails one: either frees a place.
        repliesSent.get(0).done.accept(null);
        repliesSent.get(1).done.accept(new IllegalStateException("connection closed"));
        receiver.receive(MadeUpMessage.request("requests", requests.id(), Responder.MAX_REPLIES_IN_FLIGHT + 2,
                "replies/r1", null), node0);
        assertThat(repliesSent).hasSize(Responder.MAX_REPLIES_IN_FLIGHT + 1);
        assertThat(responder.inFlight()).isEqualTo(Responder.MAX_REPLIES_IN_FLIGHT - 1);
        assertThat(metrics.sum(Count.REPLIES_SENT)).isEqualTo(1);
        assertThat(metrics.sum(Count.REPLIES_FAILED)).isEqualTo(2);
    }

    @Test
    void aClientThatIsNotAResponder_doesNotAnswer() {
        receiver.receiveFor(subscribers, false);
        receiver.register(List.of("requests"), false, node0);
        PublishStream requests = sent("requests", 1);
        receiver.receive(MadeUpMessage.request("requests", requests.id(), 1, "replies/r1", null), node0);
        assertThat(repliesSent).isEmpty();
        assertThat(metrics.sum(Count.RECEIVED)).isEqualTo(1);
    }

    /** A stream of another client whose {@code messages} were sent and acknowledged. */
    private PublishStream sent(String topic, int messages) {
        PublishStream s = ledger.newStream(topic, "pub-" + topic);
        for (int i = 0; i < messages; i++) {
            s.nextSequence();
            s.sent();
            s.acknowledged();
        }
        return s;
    }

    private static final class SentReply {
        final String topic;
        final byte[] payload;
        final int qos;
        final PublishProperties properties;
        final Consumer<Throwable> done;

        SentReply(String topic, byte[] payload, int qos, PublishProperties properties, Consumer<Throwable> done) {
            this.topic = topic;
            this.payload = payload;
            this.qos = qos;
            this.properties = properties;
            this.done = done;
        }
    }
}
