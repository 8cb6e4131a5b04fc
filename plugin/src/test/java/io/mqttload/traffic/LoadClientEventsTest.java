package io.mqttload.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.SubscribeOptions;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;

/**
 * A load client's connection events, played without a broker: what the transport reports (opened, closed, lost,
 * moved to another node) must land on the right counters of the engine, the Connect sampler and the broker node.
 */
class LoadClientEventsTest {
    private final EngineMetrics metrics = new EngineMetrics();
    private final SamplerMetrics connectSampler = new SamplerMetrics("connect");
    private final ConnectionSettings cluster = ConnectionSettings.builder().nodes("a=127.0.0.1:1, b=127.0.0.1:2")
            .nodeFailover(true).build();
    private final LoadClient client = new LoadClient(HiveMqConnector.INSTANCE, "c-1", 0, null, cluster.forNode(0),
            metrics, connectSampler, new DeliveryLedger(1), new ReconnectPolicy(3, 10, 100), 0);

    @Test
    void aFailoverMovesTheOpenConnectionToTheNewNode_andCountsTheReconnect() {
        client.events.opened(false, false);
        NodeMetrics a = client.node();
        assertThat(a.name).isEqualTo("a");
        assertThat(a.sum(Count.ACTIVE_CONNECTIONS)).isEqualTo(1);

        client.events.closed();
        client.events.lost(false, new ConnectionClosedException("Server closed connection without DISCONNECT."));
        client.events.movedNode(0, 1);
        client.events.opened(true, true);

        NodeMetrics b = client.node();
        assertThat(b.name).isEqualTo("b");
        assertThat(client.nodeIndex()).isEqualTo(1);
        assertThat(a.sum(Count.ACTIVE_CONNECTIONS)).isZero();
        assertThat(b.sum(Count.ACTIVE_CONNECTIONS)).isEqualTo(1);
        assertThat(metrics.sum(Count.ACTIVE_CONNECTIONS)).isEqualTo(1);
        assertThat(connectSampler.sum(Count.ACTIVE_CONNECTIONS)).isEqualTo(1);
        assertThat(metrics.sum(Count.RECONNECTS)).isEqualTo(1);
        assertThat(metrics.sum(Count.FAILOVERS)).isEqualTo(1);
        assertThat(a.sum(Count.MOVED_AWAY)).isEqualTo(1);
        assertThat(b.sum(Count.MOVED_IN)).isEqualTo(1);
        assertThat(metrics.sum(Count.CONNECTIONS_LOST)).isEqualTo(1);
        assertThat(a.sum(Count.CONNECTIONS_LOST)).isEqualTo(1);
        // With several nodes, the reason names the node that went away.
        assertThat(metrics.failures.rows()).singleElement().satisfies(row -> {
            assertThat(row.kind).isEqualTo(FailureTally.Kind.CONNECTION_LOST);
            assertThat(row.sampler).isEqualTo("connect");
            assertThat(row.reason).startsWith("node a: ConnectionClosedException");
        });
        assertThat(metrics.lastConnectionLoss.get()).startsWith("c-1: ");
    }

    @Test
    void aSubscriberReconnectingWithoutItsSession_isCounted_andOnlyThen() {
        client.events.opened(false, false);
        client.subscribe(List.of("t/#"), 1, SubscribeOptions.DEFAULT, connectSampler, false);
        client.events.closed();
        client.events.lost(false, new ConnectionClosedException("Server closed connection without DISCONNECT."));
        client.events.opened(true, true);
        assertThat(metrics.sum(Count.SUBSCRIBER_SESSIONS_LOST)).as("the broker kept the session").isZero();

        client.events.closed();
        client.events.lost(false, new ConnectionClosedException("Server closed connection without DISCONNECT."));
        client.events.opened(true, false);

        assertThat(metrics.sum(Count.SUBSCRIBER_SESSIONS_LOST)).isEqualTo(1);
        assertThat(metrics.sum(Count.RECONNECTS)).isEqualTo(2);
    }

    @Test
    void aPublisherReconnectingWithoutASession_losesNoSubscription() {
        client.events.opened(false, false);
        client.events.closed();
        client.events.lost(false, new ConnectionClosedException("Server closed connection without DISCONNECT."));
        client.events.opened(true, false);

        assertThat(metrics.sum(Count.SUBSCRIBER_SESSIONS_LOST)).isZero();
    }

    @Test
    void aProtocolViolation_isOneLostConnectionWithTheViolationAsItsReason() {
        client.events.opened(false, false);
        client.events.closed();
        client.events.lost(true, new IllegalStateException("PUBACK must not be received for a QoS 2 PUBLISH"));

        assertThat(metrics.sum(Count.CONNECTIONS_LOST)).isEqualTo(1);
        assertThat(client.node().sum(Count.CONNECTIONS_LOST)).isEqualTo(1);
        assertThat(metrics.sum(Count.PROTOCOL_VIOLATIONS)).isEqualTo(1);
        assertThat(metrics.failures.rows()).extracting(row -> row.kind)
                .containsExactly(FailureTally.Kind.PROTOCOL_VIOLATION);
        assertThat(metrics.failures.rows().get(0).reason)
                .isEqualTo("the client closed the connection: PUBACK must not be received for a QoS 2 PUBLISH");
        assertThat(metrics.sum(Count.ACTIVE_CONNECTIONS)).isZero();
    }

    @Test
    void aClientThatNeverConnected_holdsNoConnection() {
        assertThat(client.isConnected()).isFalse();
        assertThat(client.isReconnecting()).isFalse();
        assertThat(metrics.sum(Count.ACTIVE_CONNECTIONS)).isZero();
        assertThat(List.of(client.scopes(), client.receivedCount())).containsExactly(List.of(), 0L);
    }
}
