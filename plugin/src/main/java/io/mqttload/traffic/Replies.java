package io.mqttload.traffic;

import java.nio.ByteBuffer;

import io.mqttload.delivery.ReplyTracker;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Latency;
import io.mqttload.measure.PayloadHeader;

/**
 * A requester's side of request/response: its requests' tracker, and every reply it receives sorted into answers
 * (the first reply to one of its own requests: counted, and its round trip recorded from the echoed header),
 * duplicates (further replies to an answered request) and foreign replies (to other clients' requests, or unreadable).
 */
final class Replies {
    private final EngineMetrics metrics;
    private volatile ReplyTracker tracker;

    Replies(EngineMetrics metrics) {
        this.metrics = metrics;
    }

    /** This client's requests; created by the owning JMeter thread at its first request. */
    ReplyTracker tracker() {
        ReplyTracker t = tracker;
        if (t == null) {
            t = new ReplyTracker();
            tracker = t;
        }
        return t;
    }

    /** Requests the broker took that have no reply yet (0 for a client that sent none). */
    long owed() {
        ReplyTracker t = tracker;
        return t == null ? 0 : Math.max(0, t.owed());
    }

    /** A reply that arrived at {@code nowMicros}, on the event loop. */
    void accept(ByteBuffer payload, long nowMicros) {
        ReplyTracker t = tracker;
        if (t == null || payload == null || !PayloadHeader.isPlausible(payload, nowMicros)) {
            metrics.count(Count.REPLIES_FOREIGN);
            return;
        }
        switch (t.accept(PayloadHeader.streamId(payload), PayloadHeader.sequence(payload))) {
            case FIRST:
                metrics.count(Count.REPLIES_RECEIVED);
                metrics.record(Latency.ROUND_TRIP, null, nowMicros - PayloadHeader.sendMicros(payload));
                break;
            case DUPLICATE:
                metrics.count(Count.REPLY_DUPLICATES);
                break;
            default:
                metrics.count(Count.REPLIES_FOREIGN);
                break;
        }
    }
}
