package io.mqttload.delivery;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A requesting client's account of its requests and their replies (MQTT 5 request/response). A reply carries its
 * request's measurement header back, so its stream and sequence number say which request it answers: the first reply
 * to a request of this client's own streams answers it, a second one is a duplicate, and a reply to another client's
 * request (a monitoring subscriber on the response topics, say) is foreign. Requests owed a reply are those the broker
 * took minus those answered.
 */
public final class ReplyTracker {
    /** What a received reply is to this client. */
    public enum Reply { FIRST, DUPLICATE, FOREIGN }

    private final ConcurrentHashMap<Integer, StreamTracker> byStream = new ConcurrentHashMap<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();

    /** Replies to requests of stream {@code streamId} are this client's from now on; called before the request goes. */
    public void expect(int streamId) {
        if (byStream.get(streamId) == null) {
            byStream.computeIfAbsent(streamId, id -> new StreamTracker());
        }
    }

    /** The broker took one of this client's requests: a reply is owed. */
    public void requestAcknowledged() {
        acknowledged.incrementAndGet();
    }

    /** Accounts for a reply to request {@code sequence} of stream {@code streamId}; called on the client's Netty thread. */
    public Reply accept(int streamId, int sequence) {
        StreamTracker tracker = byStream.get(streamId);
        if (tracker == null) {
            return Reply.FOREIGN;
        }
        StreamTracker.Outcome outcome;
        synchronized (tracker) {
            outcome = tracker.accept(Integer.toUnsignedLong(sequence));
        }
        if (outcome == StreamTracker.Outcome.DUPLICATE) {
            return Reply.DUPLICATE;
        }
        answered.incrementAndGet();
        return Reply.FIRST;
    }

    /** Requests the broker took that have no reply yet (negative while a reply outruns its acknowledgement). */
    public long owed() {
        return acknowledged.get() - answered.get();
    }
}
