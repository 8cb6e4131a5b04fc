package io.mqttload.testsupport.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ControlConnection;
import io.mqttload.client.InboundMessage;
import io.mqttload.client.LoadConnection;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.PublishProperties;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.SubscribeOptions;
import io.mqttload.client.SubscribeRefusedException;

/** The in-memory broker as a client sees it through the transport port: exact deliveries, sessions and faults. */
class InMemoryBrokerTest {
    private static final long WAIT = 2;
    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    /** What a connection's listener heard, in order: "opened reconnect=... present=...", "closed", "lost", messages. */
    private static final class Heard implements LoadConnection.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<String> messages = new CopyOnWriteArrayList<>();

        @Override
        public void refused(int code, String reason) {
            // Heard through the connect's failure.
        }

        @Override
        public void retrying(boolean firstConnect, long delayMillis) {
            // The policy's; what was heard is the reconnect itself.
        }

        @Override
        public void opened(boolean reconnect, boolean sessionPresent) {
            events.add("opened reconnect=" + reconnect + " present=" + sessionPresent);
        }

        @Override
        public void closed() {
            events.add("closed");
        }

        @Override
        public void lost(boolean protocolViolation, Throwable cause) {
            events.add("lost: " + cause.getMessage());
        }

        @Override
        public void sessionTakenOver(Throwable cause) {
            events.add("taken over (0x8E): " + cause.getMessage());
        }

        @Override
        public void movedNode(int from, int to) {
            events.add("moved");
        }

        @Override
        public void gaveUp(int attempts) {
            events.add("gave up after " + attempts);
        }

        @Override
        public void message(InboundMessage m) {
            messages.add(m.topic() + " " + new String(m.payloadCopy(), StandardCharsets.UTF_8) + " q" + m.qos());
        }
    }


    private static ConnectionSettings settings(ProtocolVersion version, boolean cleanStart, long expirySeconds) {
        return ConnectionSettings.builder().host("memory").protocolVersion(version).cleanStart(cleanStart)
                .sessionExpirySeconds(expirySeconds).connectTimeoutMs(100).build();
    }

    private LoadConnection connected(String id, Heard heard) throws Exception {
        return connected(id, heard, settings(ProtocolVersion.MQTT_5, true, 0), ReconnectPolicy.none());
    }

    private LoadConnection connected(String id, Heard heard, ConnectionSettings settings, ReconnectPolicy policy)
            throws Exception {
        LoadConnection c = broker.loadConnection(id, null, settings, policy, false, heard);
        c.connect().get(WAIT, TimeUnit.SECONDS);
        return c;
    }

    private static ConditionFactory soon() {
        return await().atMost(Duration.ofSeconds(WAIT)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5));
    }

    private static void publish(LoadConnection c, String topic, int count, int qos) throws Exception {
        for (int i = 1; i <= count; i++) {
            c.publish(topic, Integer.toString(i).getBytes(StandardCharsets.UTF_8), qos, false, PublishProperties.NONE)
                    .get(WAIT, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSubscriberGetsEachMessageOnce_atTheLowerOfTheTwoQos_inOrder() throws Exception {
        Heard sub = new Heard();
        LoadConnection s = connected("sub", sub);
        s.subscribe(List.of("a/+", "a/#"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        LoadConnection p = connected("pub", new Heard());

        publish(p, "a/b", 3, 2);
        publish(p, "b/c", 1, 0);

        // Each publish's deliveries are made on the event loop with it, so they are there once it is idle.
        broker.awaitIdle();
        assertThat(sub.messages).containsExactly("a/b 1 q1", "a/b 2 q1", "a/b 3 q1");
        assertThat(broker.count(InMemoryBroker.Count.PUBLISHES_RECEIVED)).isEqualTo(4);
        assertThat(broker.count(InMemoryBroker.Count.DELIVERIES)).isEqualTo(3);
        assertThat(sub.events).containsExactly("opened reconnect=false present=false");
    }

    @Test
    void retainedMessages_areSetReplacedAndCleared_andSentOnSubscribe() throws Exception {
        LoadConnection p = connected("pub", new Heard());
        p.publish("r/1", "first".getBytes(StandardCharsets.UTF_8), 1, true, PublishProperties.NONE).get(WAIT,
                TimeUnit.SECONDS);
        p.publish("r/1", "second".getBytes(StandardCharsets.UTF_8), 1, true, PublishProperties.NONE).get(WAIT,
                TimeUnit.SECONDS);
        p.publish("r/2", "gone".getBytes(StandardCharsets.UTF_8), 0, true, PublishProperties.NONE).get(WAIT,
                TimeUnit.SECONDS);
        p.publish("r/2", new byte[0], 0, true, PublishProperties.NONE).get(WAIT, TimeUnit.SECONDS);
        assertThat(broker.retained("r/1")).isEqualTo("second");
        assertThat(broker.retained("r/2")).isNull();

        Heard sub = new Heard();
        connected("sub", sub).subscribe(List.of("r/#"), 2, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        broker.awaitIdle();
        assertThat(sub.messages).containsExactly("r/1 second q1");
    }

    @Test
    void aSharedSubscription_givesEachMessageToOneMember_inTurn() throws Exception {
        Heard one = new Heard();
        Heard two = new Heard();
        connected("one", one).subscribe(List.of("$share/g/s/+"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        connected("two", two).subscribe(List.of("$share/g/s/+"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);

        publish(connected("pub", new Heard()), "s/x", 10, 1);
        broker.awaitIdle();

        assertThat(one.messages).hasSize(5);
        assertThat(two.messages).hasSize(5);
        List<String> all = new ArrayList<>(one.messages);
        all.addAll(two.messages);
        assertThat(all).doesNotHaveDuplicates();
    }

    @Test
    void aPersistentSession_keepsItsSubscriptionsAndQueuesQos1WhileOffline() throws Exception {
        ConnectionSettings persistent = settings(ProtocolVersion.MQTT_3_1_1, false, 0);
        Heard sub = new Heard();
        LoadConnection s = connected("keeper", sub, persistent, ReconnectPolicy.none());
        s.subscribe(List.of("q/#"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        s.disconnect().get(WAIT, TimeUnit.SECONDS);

        LoadConnection p = connected("pub", new Heard());
        publish(p, "q/1", 3, 1);
        publish(p, "q/0", 1, 0);
        assertThat(broker.count(InMemoryBroker.Count.QUEUED_OFFLINE)).isEqualTo(3);

        Heard again = new Heard();
        LoadConnection back = broker.loadConnection("keeper", null, persistent, ReconnectPolicy.none(), false, again);
        assertThat(back.connect().get(WAIT, TimeUnit.SECONDS)).as("session present").isTrue();
        broker.awaitIdle();
        assertThat(again.messages).containsExactly("q/1 1 q1", "q/1 2 q1", "q/1 3 q1");
    }

    @Test
    void anMqtt5SessionWithoutExpiry_endsWithItsConnection() throws Exception {
        ConnectionSettings noExpiry = settings(ProtocolVersion.MQTT_5, false, 0);
        LoadConnection s = connected("brief", new Heard(), noExpiry, ReconnectPolicy.none());
        s.subscribe(List.of("q/#"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        s.disconnect().get(WAIT, TimeUnit.SECONDS);

        LoadConnection back = broker.loadConnection("brief", null, noExpiry, ReconnectPolicy.none(), false, new Heard());
        assertThat(back.connect().get(WAIT, TimeUnit.SECONDS)).as("session present").isFalse();
    }

    @Test
    void aSecondConnectWithTheSameId_takesTheSessionOver_andClosesTheFirst() throws Exception {
        Heard first = new Heard();
        LoadConnection a = connected("same", first);
        connected("same", new Heard());

        assertThat(a.isConnected()).isFalse();
        assertThat(first.events).containsExactly("opened reconnect=false present=false", "closed",
                "taken over (0x8E): session taken over by another connection with client id same");
    }

    @Test
    void anMqtt311Takeover_isAConnectionClosedWithoutReason() throws Exception {
        Heard first = new Heard();
        ConnectionSettings v311 = settings(ProtocolVersion.MQTT_3_1_1, true, 0);
        LoadConnection a = connected("same311", first, v311, ReconnectPolicy.none());
        connected("same311", new Heard(), v311, ReconnectPolicy.none());

        assertThat(a.isConnected()).isFalse();
        assertThat(first.events).containsExactly("opened reconnect=false present=false", "closed",
                "lost: session taken over by another connection with client id same311");
    }

    @Test
    void dropDuplicateAndReorder_takeExactlyTheDeliveriesTheyChoose() throws Exception {
        Heard sub = new Heard();
        connected("sub", sub).subscribe(List.of("f/#"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        broker.drop(Which.every(2), "f/drop").duplicate(Which.next(2), "f/dup").reorder(Which.next(1), "f/order");
        LoadConnection p = connected("pub", new Heard());

        publish(p, "f/drop", 10, 1);
        publish(p, "f/dup", 3, 1);
        publish(p, "f/order", 3, 1);
        broker.awaitIdle();

        assertThat(sub.messages.stream().filter(m -> m.startsWith("f/drop"))).containsExactly("f/drop 1 q1",
                "f/drop 3 q1", "f/drop 5 q1", "f/drop 7 q1", "f/drop 9 q1");
        assertThat(sub.messages.stream().filter(m -> m.startsWith("f/dup"))).containsExactly("f/dup 1 q1",
                "f/dup 1 q1", "f/dup 2 q1", "f/dup 2 q1", "f/dup 3 q1");
        assertThat(sub.messages.stream().filter(m -> m.startsWith("f/order"))).containsExactly("f/order 2 q1",
                "f/order 1 q1", "f/order 3 q1");
        assertThat(broker.count(InMemoryBroker.Count.DROPPED)).isEqualTo(5);
        assertThat(broker.count(InMemoryBroker.Count.DUPLICATED)).isEqualTo(2);
        assertThat(broker.count(InMemoryBroker.Count.REORDERED)).isEqualTo(1);
        assertThat(broker.count(InMemoryBroker.Count.DELIVERIES)).isEqualTo(5 + 5 + 3);
    }

    @Test
    void aSeededFraction_dropsTheSameDeliveriesEveryTime() throws Exception {
        Heard sub = new Heard();
        connected("sub", sub).subscribe(List.of("r"), 0, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        broker.drop(Which.fraction(0.3, 42), "r");
        Random sameSeed = new Random(42);
        List<String> kept = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            if (!(sameSeed.nextDouble() < 0.3)) {
                kept.add("r " + i + " q0");
            }
        }

        publish(connected("pub", new Heard()), "r", 50, 0);
        broker.awaitIdle();

        assertThat(sub.messages).containsExactlyElementsOf(kept);
        assertThat(broker.count(InMemoryBroker.Count.DROPPED)).isEqualTo(50 - kept.size()).isPositive();
    }

    @Test
    void aDelay_holdsDeliveriesBack_inOrder() throws Exception {
        Heard sub = new Heard();
        connected("sub", sub).subscribe(List.of("d"), 0, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        broker.delay(100, "#");
        long start = System.nanoTime();

        publish(connected("pub", new Heard()), "d", 3, 0);

        soon().until(() -> sub.messages.size() == 3);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(100);
        assertThat(sub.messages).containsExactly("d 1 q0", "d 2 q0", "d 3 q0");
    }

    @Test
    void aDroppedConnection_isClosedAndLost_thenReconnectsByItsPolicy_withoutItsSubscriptionsUntilAskedAgain()
            throws Exception {
        Heard sub = new Heard();
        LoadConnection s = connected("sub", sub, settings(ProtocolVersion.MQTT_5, true, 0),
                new ReconnectPolicy(3, 10, 10));
        s.subscribe(List.of("t"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);

        broker.disconnect("sub");
        soon().until(s::isConnected);
        LoadConnection pub = connected("pub", new Heard());
        // A load connection does not subscribe again by itself, as HiveMqConnection does not: the engine does it.
        publish(pub, "t", 1, 1);
        s.subscribe(List.of("t"), 1, SubscribeOptions.DEFAULT).get(WAIT, TimeUnit.SECONDS);
        publish(pub, "t", 2, 1);
        broker.awaitIdle();

        assertThat(sub.events).containsExactly("opened reconnect=false present=false", "closed",
                "lost: the in-memory broker closed the connection", "opened reconnect=true present=false");
        assertThat(sub.messages).containsExactly("t 1 q1", "t 2 q1");
    }

    @Test
    void refusedAndUnansweredConnects_failWithTheReason_orTheClientsTimeout() {
        broker.refuseConnects("NOT_AUTHORIZED");
        LoadConnection refused = broker.loadConnection("r", null, settings(ProtocolVersion.MQTT_5, true, 0),
                ReconnectPolicy.none(), false, new Heard());
        assertThatThrownBy(() -> refused.connect().get(WAIT, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .satisfies(e -> assertThat(refused.connectFailure(e)).isEqualTo(
                        "CONNACK refused: NOT_AUTHORIZED (in-memory broker)"));

        broker.ignoreConnects();
        LoadConnection ignored = broker.loadConnection("i", null, settings(ProtocolVersion.MQTT_5, true, 0),
                ReconnectPolicy.none(), false, new Heard());
        assertThatThrownBy(() -> ignored.connect().get(WAIT, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasMessageContaining("Timeout while waiting for CONNACK (100 ms");
        assertThatThrownBy(() -> broker.controlConnection("c", "memory", 1883, 100, null, null))
                .isInstanceOf(ControlConnection.NoAnswer.class).hasMessageStartingWith("could not connect to memory:1883");
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_REFUSED)).isEqualTo(1);
        assertThat(broker.count(InMemoryBroker.Count.CONNECTS_UNANSWERED)).isEqualTo(2);
    }

    @Test
    void aRefusedFilter_failsTheSubscribeWithItsReason() throws Exception {
        broker.refuseSubscribe("secret/#", "NOT_AUTHORIZED");
        LoadConnection c = connected("s", new Heard());
        assertThatThrownBy(() -> c.subscribe(List.of("open/#", "secret/#"), 1, SubscribeOptions.DEFAULT).get(WAIT,
                TimeUnit.SECONDS)).hasCauseInstanceOf(SubscribeRefusedException.class)
                .hasMessageContaining("secret/#: NOT_AUTHORIZED");
    }

    @Test
    void aHeldSubscribe_isUnansweredAndGetsNothing_untilReleased() throws Exception {
        broker.holdSubscriptions();
        Heard sub = new Heard();
        LoadConnection s = connected("sub", sub);
        CompletableFuture<Void> suback = s.subscribe(List.of("held/#"), 1, SubscribeOptions.DEFAULT);
        LoadConnection p = connected("pub", new Heard());

        publish(p, "held/x", 2, 1);
        broker.awaitIdle();
        assertThat(suback).isNotDone();
        assertThat(sub.messages).isEmpty();

        broker.releaseSubscriptions();
        suback.get(WAIT, TimeUnit.SECONDS);
        publish(p, "held/x", 1, 1);
        broker.awaitIdle();
        assertThat(sub.messages).containsExactly("held/x 1 q1");
        assertThat(broker.count(InMemoryBroker.Count.SUBSCRIBES_HELD)).isEqualTo(1);
    }

    @Test
    void close_endsTheBrokersThread() {
        broker.close();
        assertThat(broker.loopThreadAlive()).as("the closed broker's event-loop thread").isFalse();
    }
}
