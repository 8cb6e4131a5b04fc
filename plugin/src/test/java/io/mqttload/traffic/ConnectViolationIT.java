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
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.testsupport.RawMqttServer;

/**
 * A broker that breaks the protocol during CONNECT (a CONNACK the client cannot decode, a DISCONNECT before CONNACK)
 * is a protocol violation naming the packet, not a plain connect failure; and no connection was lost, as none opened.
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
