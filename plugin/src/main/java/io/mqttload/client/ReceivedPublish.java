package io.mqttload.client;

import java.nio.ByteBuffer;

import com.hivemq.client.mqtt.datatypes.MqttTopic;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperty;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

/**
 * The one {@link InboundMessage} of a session, pointed at each received PUBLISH in turn: a client's messages arrive
 * one after the other on its event-loop thread, so one view per client is enough and no message allocates one.
 */
final class ReceivedPublish implements InboundMessage {
    private MqttTopic topic;
    private String topicName;
    private ByteBuffer payload;
    private int qos;
    /** The MQTT 5 message, for its properties; null for MQTT 3.1.1. */
    private Mqtt5Publish mqtt5;

    ReceivedPublish of(Mqtt3Publish p) {
        set(p.getTopic(), p.getPayload().orElse(null), p.getQos().getCode(), null);
        return this;
    }

    ReceivedPublish of(Mqtt5Publish p) {
        set(p.getTopic(), p.getPayload().orElse(null), p.getQos().getCode(), p);
        return this;
    }

    /** Lets go of the message once its listener returned: an idle client must not keep its last payload alive. */
    void clear() {
        set(null, null, 0, null);
    }

    private void set(MqttTopic topic, ByteBuffer payload, int qos, Mqtt5Publish mqtt5) {
        this.topic = topic;
        this.topicName = null;
        this.payload = payload;
        this.qos = qos;
        this.mqtt5 = mqtt5;
    }

    @Override
    public String topic() {
        String name = topicName;
        if (name == null) {
            name = topic.toString();
            topicName = name;
        }
        return name;
    }

    @Override
    public ByteBuffer payload() {
        return payload;
    }

    @Override
    public int qos() {
        return qos;
    }

    @Override
    public boolean isReply() {
        if (mqtt5 == null) {
            return false;
        }
        for (Mqtt5UserProperty p : mqtt5.getUserProperties().asList()) {
            if (p.getName().toString().equals(PublishProperties.REPLY_PROPERTY)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String responseTopic() {
        return mqtt5 == null ? null : mqtt5.getResponseTopic().map(MqttTopic::toString).orElse(null);
    }

    @Override
    public byte[] correlationData() {
        return mqtt5 == null ? null : mqtt5.getCorrelationData().map(InboundMessage::copy).orElse(null);
    }
}
