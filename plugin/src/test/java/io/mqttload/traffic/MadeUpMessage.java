package io.mqttload.traffic;

import java.nio.ByteBuffer;

import io.mqttload.client.InboundMessage;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.PayloadHeader;

/** An inbound message made up by a test, with a real measurement header: the receive path without a broker. */
final class MadeUpMessage implements InboundMessage {
    private final String topic;
    private final byte[] payload;
    private final int qos;
    private final boolean reply;
    private final String responseTopic;
    private final byte[] correlationData;

    private MadeUpMessage(String topic, byte[] payload, int qos, boolean reply, String responseTopic,
            byte[] correlationData) {
        this.topic = topic;
        this.payload = payload;
        this.qos = qos;
        this.reply = reply;
        this.responseTopic = responseTopic;
        this.correlationData = correlationData;
    }

    /** A measured message of stream {@code streamId}, sent {@code ageMicros} ago by a publisher on {@code node}. */
    static MadeUpMessage measured(String topic, int streamId, int sequence, int node, long ageMicros) {
        return new MadeUpMessage(topic, header(streamId, sequence, node, ageMicros), 1, false, null, null);
    }

    /** The same, sent {@code lagMicros} after its intended send time. */
    static MadeUpMessage paced(String topic, int streamId, int sequence, long ageMicros, long lagMicros) {
        byte[] payload = new byte[PayloadHeader.SIZE];
        PayloadHeader.write(payload, MicroClock.nowMicros() - ageMicros, lagMicros, streamId, sequence, 0);
        return new MadeUpMessage(topic, payload, 1, false, null, null);
    }

    static MadeUpMessage unmeasured(String topic, byte[] payload) {
        return new MadeUpMessage(topic, payload, 1, false, null, null);
    }

    /** A request of stream {@code streamId} to be answered on {@code responseTopic}. */
    static MadeUpMessage request(String topic, int streamId, int sequence, String responseTopic, byte[] correlation) {
        return new MadeUpMessage(topic, header(streamId, sequence, -1, 1_000), 2, false, responseTopic, correlation);
    }

    /** A reply (the suite's reply marker) echoing request {@code sequence} of stream {@code streamId}. */
    static MadeUpMessage reply(String topic, int streamId, int sequence, long ageMicros) {
        return new MadeUpMessage(topic, header(streamId, sequence, -1, ageMicros), 1, true, null, null);
    }

    static byte[] header(int streamId, int sequence, int node, long ageMicros) {
        byte[] payload = new byte[PayloadHeader.SIZE + 8];
        PayloadHeader.write(payload, MicroClock.nowMicros() - ageMicros, streamId, sequence, node);
        return payload;
    }

    byte[] bytes() {
        return payload.clone();
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public ByteBuffer payload() {
        return payload == null ? null : ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    @Override
    public int qos() {
        return qos;
    }

    @Override
    public boolean isReply() {
        return reply;
    }

    @Override
    public String responseTopic() {
        return responseTopic;
    }

    @Override
    public byte[] correlationData() {
        return correlationData == null ? null : correlationData.clone();
    }
}
