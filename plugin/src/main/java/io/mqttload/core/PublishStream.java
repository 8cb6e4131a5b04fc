package io.mqttload.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The messages one client publishes to one topic: a stream with its own id and sequence numbers,
 * so that each receiver can tell lost, duplicated and reordered messages apart (MQTT orders
 * messages per topic and publisher, not across topics).
 */
public final class PublishStream {
    private final int id;
    private final String topic;
    private int lastSequence;
    /** Messages the broker took (QoS 0: written; QoS 1/2: acknowledged): what subscribers must get. */
    private final AtomicLong delivered = new AtomicLong();

    PublishStream(int id, String topic) {
        this.id = id;
        this.topic = topic;
    }

    public int id() {
        return id;
    }

    public String topic() {
        return topic;
    }

    /** Called by the one JMeter thread that owns the publishing client. */
    public int nextSequence() {
        if (lastSequence == Integer.MAX_VALUE) {
            throw new IllegalStateException("stream " + id + " on " + topic + " exhausted its 2^31 sequence numbers");
        }
        return ++lastSequence;
    }

    public void markDelivered() {
        delivered.incrementAndGet();
    }

    public long deliveredCount() {
        return delivered.get();
    }
}
