package io.mqttload.client;

import java.nio.ByteBuffer;

/**
 * A received PUBLISH as the load's receive path reads it, without the client library's types. The transport hands
 * one reused view per client to its listener, on the client's event-loop thread, and nothing is copied or decoded
 * unless asked for: the view and its payload are only valid during that call.
 */
public interface InboundMessage {
    /** The topic name, decoded from the packet on the first call. */
    String topic();

    /** The payload, or null when the message has none. */
    ByteBuffer payload();

    int qos();

    /** Whether it is a reply of the suite's responders (MQTT 5, marked by {@link PublishProperties#REPLY_PROPERTY}). */
    boolean isReply();

    /** The response topic that makes it a request (MQTT 5), or null. */
    String responseTopic();

    /** A copy of its correlation data (MQTT 5), or null. */
    byte[] correlationData();

    /** A copy of the payload, to keep beyond the listener's call (a reply echoing it); empty when it has none. */
    default byte[] payloadCopy() {
        ByteBuffer payload = payload();
        return payload == null ? new byte[0] : copy(payload);
    }

    /** The buffer's remaining bytes, its position left alone: the client's buffers are only valid during the call. */
    static byte[] copy(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
