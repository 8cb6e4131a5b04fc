package io.mqttload.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperties;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

/** The reused view of a received message reads what the client library's message carries, and lets go of it. */
class ReceivedPublishTest {
    private final ReceivedPublish view = new ReceivedPublish();

    @Test
    void anMqtt5Request_showsItsResponseTopicCorrelationAndPayload() {
        Mqtt5Publish request = Mqtt5Publish.builder().topic("requests/7").qos(MqttQos.EXACTLY_ONCE)
                .payload("ping".getBytes(StandardCharsets.UTF_8)).responseTopic("replies/7")
                .correlationData(new byte[] {4, 2}).build();

        InboundMessage m = view.of(request);

        assertThat(m.topic()).isEqualTo("requests/7");
        assertThat(m.qos()).isEqualTo(2);
        assertThat(StandardCharsets.UTF_8.decode(m.payload()).toString()).isEqualTo("ping");
        assertThat(m.responseTopic()).isEqualTo("replies/7");
        assertThat(m.correlationData()).containsExactly(4, 2);
        assertThat(m.isReply()).isFalse();
    }

    @Test
    void aReply_isKnownByTheSuitesMarker_andAnotherUserPropertyIsNotOne() {
        Mqtt5Publish reply = Mqtt5Publish.builder().topic("replies/7").userProperties(Mqtt5UserProperties.builder()
                .add("other", "x").add(PublishProperties.REPLY_PROPERTY, "").build()).build();
        Mqtt5Publish other = Mqtt5Publish.builder().topic("replies/7")
                .userProperties(Mqtt5UserProperties.builder().add("other", "x").build()).build();

        assertThat(view.of(reply).isReply()).isTrue();
        assertThat(view.of(other).isReply()).isFalse();
        assertThat(view.payload()).as("no payload").isNull();
    }

    @Test
    void anMqtt311Message_hasNoProperties_andTheViewLetsGoOfItWhenCleared() {
        Mqtt3Publish p = Mqtt3Publish.builder().topic("a/b").qos(MqttQos.AT_LEAST_ONCE)
                .payload(ByteBuffer.wrap(new byte[] {1, 2, 3})).build();

        InboundMessage m = view.of(p);
        assertThat(m.topic()).isEqualTo("a/b");
        assertThat(m.qos()).isEqualTo(1);
        assertThat(m.payload().remaining()).isEqualTo(3);
        assertThat(m.isReply()).isFalse();
        assertThat(m.responseTopic()).isNull();
        assertThat(m.correlationData()).isNull();

        view.clear();
        assertThat(view.payload()).isNull();
        assertThat(view.isReply()).isFalse();
    }
}
