package io.mqttload.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.ReconnectPolicy.Kind;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.testsupport.RawMqttServer;

/**
 * A broker that breaks the protocol during CONNECT (a CONNACK the client cannot decode, a DISCONNECT before CONNACK)
 * is a protocol violation naming the packet, not a plain connect failure; and no connection was lost, as none opened.
 * A CONNACK that refuses "later" (0x89) is retried through the HiveMQ client's own reconnector, under the policy, when
 * the policy retries a first connect, and counted by reason; a final refusal (0x87) is not retried.
 */
class ConnectViolationIT {
    private final EngineMetrics metrics = new EngineMetrics();
    private final SamplerMetrics connectSampler = new SamplerMetrics("connect");

    private FailureTally.Row connectTo(RawMqttServer server) {
        ConnectionSettings settings = ConnectionSettings.builder().host("127.0.0.1").port(server.port())
                .protocolVersion(ProtocolVersion.MQTT_5).connectTimeoutMs(5_000).build();
        LoadClient client = new LoadClient(HiveMqConnector.INSTANCE, "violated-1", 0, null, settings, metrics,
                connectSampler, new DeliveryLedger(1), new ReconnectPolicy(3, 10, 100), 0);
        assertThatThrownBy(() -> client.connect().get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        assertThat(metrics.sum(Count.PROTOCOL_VIOLATIONS)).isEqualTo(1);
        assertThat(metrics.sum(Count.CONNECTS_FAILED)).isEqualTo(1);
        assertThat(connectSampler.sum(Count.CONNECTS_FAILED)).isEqualTo(1);
        assertThat(metrics.sum(Count.CONNECTIONS_LOST)).isZero();
        assertThat(metrics.failures.rows()).hasSize(1);
        FailureTally.Row row = metrics.failures.rows().get(0);
        assertThat(row.kind).isEqualTo(FailureTally.Kind.PROTOCOL_VIOLATION);
        assertThat(row.sampler).isEqualTo("connect");
        return row;
    }

    private LoadClient client(RawMqttServer server, boolean retryFirstConnect) {
        ConnectionSettings settings = ConnectionSettings.builder().host("127.0.0.1").port(server.port())
                .protocolVersion(ProtocolVersion.MQTT_5).connectTimeoutMs(5_000).build();
        return new LoadClient(HiveMqConnector.INSTANCE, "refused-1", 0, null, settings, metrics, connectSampler,
                new DeliveryLedger(1), new ReconnectPolicy(Kind.FIXED, 5, 10, 100, 0, 0, retryFirstConnect), 0);
    }

    @Test
    void connAckServerBusy_isRetriedThroughTheClientsReconnector_untilAccepted_andCountedByReason() throws Exception {
        try (RawMqttServer busyThrice = new RawMqttServer(
                n -> n <= 3 ? RawMqttServer.MQTT5_CONNACK_SERVER_BUSY : RawMqttServer.MQTT5_CONNACK_SUCCESS)) {
            LoadClient client = client(busyThrice, true);
            client.connect().get(10, TimeUnit.SECONDS);

            assertThat(busyThrice.accepted()).isEqualTo(4);
            assertThat(metrics.sum(Count.CONNACK_SERVER_BUSY)).isEqualTo(3);
            assertThat(metrics.sum(Count.CONNECT_RETRIES)).isEqualTo(3);
            assertThat(metrics.sum(Count.CONNECT_ATTEMPTS)).isEqualTo(4);
            assertThat(metrics.sum(Count.CONNECTS_OK)).isEqualTo(1);
            assertThat(metrics.sum(Count.CONNECTS_FAILED)).isZero();
            assertThat(metrics.failures.rows()).isEmpty();
            client.disconnect().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void connAckServerBusyForGood_givesUpAfterThePolicysAttempts_withTheLastReason() throws Exception {
        try (RawMqttServer busy = new RawMqttServer(RawMqttServer.MQTT5_CONNACK_SERVER_BUSY)) {
            assertThatThrownBy(() -> client(busy, true).connect().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);

            // The first connect and the policy's 5 attempts.
            assertThat(busy.accepted()).isEqualTo(6);
            assertThat(metrics.sum(Count.CONNECT_ATTEMPTS)).isEqualTo(6);
            assertThat(metrics.sum(Count.CONNECT_RETRIES)).isEqualTo(5);
            assertThat(metrics.sum(Count.CONNACK_SERVER_BUSY)).isEqualTo(6);
            assertThat(metrics.sum(Count.CONNECTS_GIVEN_UP)).isEqualTo(1);
            assertThat(metrics.failures.rows()).singleElement()
                    .satisfies(r -> assertThat(r.reason).isEqualTo("CONNACK refused: SERVER_BUSY (0x89)"));
        }
    }

    @Test
    void connAckServerBusy_withoutFirstConnectRetries_andNotAuthorizedWithThem_failAtOnce() throws Exception {
        try (RawMqttServer busy = new RawMqttServer(RawMqttServer.MQTT5_CONNACK_SERVER_BUSY);
                RawMqttServer refusing = new RawMqttServer(RawMqttServer.MQTT5_CONNACK_NOT_AUTHORIZED)) {
            assertThatThrownBy(() -> client(busy, false).connect().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> client(refusing, true).connect().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);

            assertThat(busy.accepted()).isEqualTo(1);
            assertThat(refusing.accepted()).isEqualTo(1);
            assertThat(metrics.sum(Count.CONNECT_ATTEMPTS)).isEqualTo(2);
            assertThat(metrics.sum(Count.CONNECT_RETRIES)).isZero();
            assertThat(metrics.sum(Count.CONNACK_SERVER_BUSY)).isEqualTo(1);
            assertThat(metrics.sum(Count.CONNECTS_FAILED)).isEqualTo(2);
            assertThat(metrics.failures.rows()).extracting(r -> r.reason).containsExactlyInAnyOrder(
                    "CONNACK refused: SERVER_BUSY (0x89)", "CONNACK refused: NOT_AUTHORIZED (0x87)");
        }
    }

    @Test
    void mqtt5ConnAckWithAReasonCodeMqtt5DoesNotDefine_isAProtocolViolationNamingTheConnAck_withTheVersionHint()
            throws Exception {
        try (RawMqttServer moquetteLike = new RawMqttServer(RawMqttServer.MQTT5_CONNACK_REASON_1)) {
            assertThat(connectTo(moquetteLike).reason).isEqualTo("the client closed the connection during CONNECT:"
                    + " Exception while decoding CONNACK: wrong reason code (an MQTT 5 CONNACK the client cannot read:"
                    + " the broker may speak only MQTT 3.1.1 correctly; try mqttVersion = MQTT_3_1_1)");
        }
    }

    @Test
    void disconnectBeforeConnAck_isAProtocolViolationNamingTheDisconnect() throws Exception {
        try (RawMqttServer artemisLike = new RawMqttServer(RawMqttServer.MQTT5_DISCONNECT_SERVER_BUSY)) {
            assertThat(connectTo(artemisLike).reason).isEqualTo("the client closed the connection during CONNECT:"
                    + " DISCONNECT message must not be received before CONNACK");
        }
    }
}
