package io.mqttload.delivery;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import io.mqttload.measure.PayloadHeader;

/**
 * The messages one client publishes to one topic: a stream with its own id and sequence numbers,
 * so that each receiver can tell lost, duplicated and reordered messages apart (MQTT orders
 * messages per topic and publisher, not across topics). It books what left the client, what the
 * broker acknowledged, and which sequence numbers failed, so that a message delivered without an
 * acknowledgement is still recognised as this stream's.
 */
public final class PublishStream {
    private final int id;
    private final String topic;
    private int lastSequence;
    /** Messages handed to a connected client; written by the owning JMeter thread only. */
    private final AtomicLong sent = new AtomicLong();
    /** Messages the broker took (QoS 0: written; QoS 1/2: acknowledged): what subscribers must get. */
    private final AtomicLong acknowledged = new AtomicLong();
    /** Failed sequence numbers as [from, to] pairs in the order they failed; guarded by this. */
    private long[] failed = new long[0];
    private int failedLength;
    /** When the messages were sent, for telling those published before a subscription took effect. */
    private final SendTimes sendTimes = new SendTimes();

    /** The publishing client's id: a subscription of its own with no local (MQTT 5) is not owed its messages. */
    private final String publisher;

    PublishStream(int id, String topic, String publisher) {
        this.id = id;
        this.topic = topic;
        this.publisher = publisher;
    }

    public int id() {
        return id;
    }

    public String topic() {
        return topic;
    }

    /** Called by the one JMeter thread that owns the publishing client; see {@link #isExhausted()}. */
    public int nextSequence() {
        if (isExhausted()) {
            throw new IllegalStateException("stream " + id + " on " + topic + " used all its " + PayloadHeader.MAX_SEQUENCE
                    + " sequence numbers");
        }
        return ++lastSequence;
    }

    /** Whether the header's sequence numbers are used up: the client's next message goes in a new stream. */
    public boolean isExhausted() {
        return lastSequence == PayloadHeader.MAX_SEQUENCE;
    }

    /** The message left the client; called by the owning JMeter thread. */
    public void sent() {
        sent.lazySet(sent.get() + 1);
    }

    /** Message {@code sequence} left the client at {@code nowMicros} ({@code MicroClock}); called by the owning thread. */
    public void sent(int sequence, long nowMicros) {
        sendTimes.sent(Integer.toUnsignedLong(sequence), nowMicros);
        sent();
    }

    public void acknowledged() {
        acknowledged.incrementAndGet();
    }

    /** The message with {@code sequence} was not taken by the broker (refused, connection closed, no ack in time). */
    public synchronized void failed(int sequence) {
        long seq = Integer.toUnsignedLong(sequence);
        if (failedLength > 0 && failed[failedLength - 1] + 1 == seq) {
            failed[failedLength - 1] = seq;
            return;
        }
        if (failedLength + 2 > failed.length) {
            failed = Arrays.copyOf(failed, Math.max(4, failed.length * 2));
        }
        failed[failedLength++] = seq;
        failed[failedLength++] = seq;
    }

    /** The latest sequence number sent (0: none), read from any thread: every one up to it had left the client. */
    public long lastSent() {
        return sendTimes.lastSent();
    }

    public long sentCount() {
        return sent.get();
    }

    public long acknowledgedCount() {
        return acknowledged.get();
    }

    /**
     * This stream as the delivery check reads it.
     *
     * @param withPublisher whether to name the publisher (only needed when some subscription has no local)
     */
    DeliveryCheck.Stream snapshot(boolean withPublisher) {
        long[] failedNow;
        synchronized (this) {
            failedNow = Ranges.normalise(failed, failedLength);
        }
        DeliveryCheck.Stream stream = new DeliveryCheck.Stream(id, topic, sent.get(), acknowledged.get(), failedNow,
                withPublisher ? publisher : null);
        stream.sendTimes = sendTimes.snapshot();
        return stream;
    }
}
