package io.mqttload.testsupport.memory;

import java.nio.ByteBuffer;

import io.mqttload.client.InboundMessage;
import io.mqttload.client.PublishProperties;

/** A PUBLISH as the in-memory broker holds it (retained, queued, delivered); immutable. */
final class MemoryMessage {
    final String topic;
    final byte[] payload;
    final int qos;
    final boolean retain;
    /** MQTT 5 properties; {@link PublishProperties#NONE} from a 3.1.1 publisher. */
    final PublishProperties properties;

    MemoryMessage(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties) {
        this.topic = topic;
        this.payload = payload;
        this.qos = qos;
        this.retain = retain;
        this.properties = properties == null ? PublishProperties.NONE : properties;
    }

    /** The view a subscriber's listener gets, at the delivered QoS; MQTT 5 properties only for an MQTT 5 subscriber. */
    InboundMessage view(int deliveredQos, boolean mqtt5) {
        PublishProperties seen = mqtt5 ? properties : PublishProperties.NONE;
        return new InboundMessage() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public ByteBuffer payload() {
                return payload.length == 0 ? null : ByteBuffer.wrap(payload).asReadOnlyBuffer();
            }

            @Override
            public int qos() {
                return deliveredQos;
            }

            @Override
            public boolean isReply() {
                return seen.isReply();
            }

            @Override
            public String responseTopic() {
                return seen.responseTopic();
            }

            @Override
            public byte[] correlationData() {
                byte[] c = seen.correlationData();
                return c == null ? null : c.clone();
            }
        };
    }
}
