package io.mqttload.traffic;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.mqttload.client.InboundMessage;
import io.mqttload.common.SharedSubscription;
import io.mqttload.common.TopicMatcher;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.delivery.StreamTracker;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.PubToSubRecorder;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.measure.SamplerMetrics;

/**
 * The measured receive path of one client: every message it receives is counted for its Subscribe sampler and node,
 * its measurement header read, its pub-to-sub latency recorded once in the recorder of its (sampler, node, publisher
 * node), and its sequence number tracked in the receiver scope of the subscription it came for, where gaps,
 * duplicates and reordering are found. Replies go to the requester's {@link Replies}, requests (for a responder) to
 * its {@link Responder}. Runs on the client's event-loop thread, without blocking (a slow consumer's pause aside).
 */
final class Receiver {
    private final String clientId;
    private final EngineMetrics metrics;
    private final DeliveryLedger ledger;
    private final Replies replies;
    private final Responder responder;
    /** Processing time per message of a slow consumer, or 0. */
    private final long consumeDelayNanos;
    /** The Subscribe sampler that last subscribed this client: what it receives counts for it. */
    private volatile SamplerMetrics sampler;
    /** Whether this client answers requests, as its latest MQTT Subscribe says. */
    private volatile boolean answeringRequests;
    /** The subscriptions' receiver scopes, in subscription order; replaced on change. */
    private volatile Subscription[] subscriptions = new Subscription[0];
    /** Messages received; written by the client's event-loop thread only. */
    private final AtomicLong receivedCount = new AtomicLong();
    /** Where the last message's latency went; one object, so that a reader never sees half an update. */
    private volatile LatencyTarget lastLatencyTarget;
    /** The stream tracker the last message went to, likewise. */
    private volatile TrackTarget lastTrackTarget;

    Receiver(String clientId, EngineMetrics metrics, DeliveryLedger ledger, Replies replies, Responder responder,
            long consumeDelayNanos) {
        this.clientId = clientId;
        this.metrics = metrics;
        this.ledger = ledger;
        this.replies = replies;
        this.responder = responder;
        this.consumeDelayNanos = consumeDelayNanos;
    }

    /** Attributes what this client receives from now on to {@code receivingSampler}, and whether it answers requests. */
    void receiveFor(SamplerMetrics receivingSampler, boolean answer) {
        sampler = receivingSampler;
        answeringRequests = answer;
    }

    /** One received message, for this client's subscriptions on broker node {@code node}. */
    void receive(InboundMessage message, NodeMetrics node) {
        long now = MicroClock.nowMicros();
        if (consumeDelayNanos > 0) {
            // A slow consumer: reading stalls while it "processes", so the broker sees a slow socket.
            LockSupport.parkNanos(consumeDelayNanos);
        }
        ByteBuffer payload = message.payload();
        if (message.isReply()) {
            // A reply: its own figures, outside the delivery ledger; only the requester's first one is an answer.
            replies.accept(payload, now);
            return;
        }
        SamplerMetrics receivingSampler = sampler;
        receivedCount.lazySet(receivedCount.get() + 1);
        metrics.received(receivingSampler, node, payload == null ? 0 : payload.remaining());
        if (answeringRequests) {
            responder.answer(message, receivingSampler);
        }
        if (payload == null || !PayloadHeader.isPlausible(payload, now)) {
            metrics.count(Count.RECEIVED_UNMEASURED);
            return;
        }
        long sent = PayloadHeader.sendMicros(payload);
        long micros = now - sent;
        metrics.recovery.received(clientId, sent, now);
        latencyRecorder(receivingSampler, node, PayloadHeader.node(payload)).record(micros, PayloadHeader.lagMicros(payload));
        int streamId = PayloadHeader.streamId(payload);
        metrics.pubToSubPairs.record(PayloadHeader.publishingEngine(streamId), micros);
        ReceiverScope scope = scopeFor(message);
        if (scope != null) {
            scope.track(tracker(scope, streamId), PayloadHeader.sequence(payload), message.qos() == 2, metrics);
        }
    }

    /** The recorder of a message from {@code publisherNode}: looked up only when it differs from the last one's. */
    private PubToSubRecorder latencyRecorder(SamplerMetrics receivingSampler, NodeMetrics node, int publisherNode) {
        LatencyTarget last = lastLatencyTarget;
        if (last == null || last.sampler != receivingSampler || last.node != node || last.publisherNode != publisherNode) {
            last = new LatencyTarget(receivingSampler, node, publisherNode,
                    metrics.pubToSubRecorder(receivingSampler, node, publisherNode));
            lastLatencyTarget = last;
        }
        return last.recorder;
    }

    /** The scope's tracker of a stream: looked up only when scope or stream differ from the last message's. */
    private StreamTracker tracker(ReceiverScope scope, int streamId) {
        TrackTarget last = lastTrackTarget;
        if (last == null || last.scope != scope || last.streamId != streamId) {
            last = new TrackTarget(scope, streamId, scope.tracker(streamId));
            lastTrackTarget = last;
        }
        return last.tracker;
    }

    /** The scope of the subscription a message arrived for; the topic is decoded only when there are several. */
    private ReceiverScope scopeFor(InboundMessage message) {
        Subscription[] subs = subscriptions;
        if (subs.length == 1) {
            return subs[0].scope;
        }
        String name = message.topic();
        for (Subscription s : subs) {
            if (TopicMatcher.matches(s.filter, name)) {
                return s.scope;
            }
        }
        return null;
    }

    /**
     * Registers the filters' receiver scopes before they are subscribed, counting a subscription as late when
     * matching messages were already sent (the ledger owes them, though they may have come before it existed);
     * returns the new subscriptions for {@link #checkSentMeanwhile}.
     */
    List<Subscription> register(List<String> filters, boolean noLocal, NodeMetrics node) {
        SamplerMetrics receivingSampler = sampler;
        List<Subscription> added = new ArrayList<>(filters.size());
        for (String f : filters) {
            boolean isShared = SharedSubscription.isShared(f);
            SharedSubscription shared = isShared ? SharedSubscription.parse("topicFilters", f) : null;
            String filter = isShared ? shared.filter() : f;
            boolean late = ledger.sentMatching(filter);
            if (late) {
                ledger.lateSubscription();
            }
            ReceiverScope scope = isShared ? ledger.sharedScope(shared) : ledger.clientScope(clientId, f, noLocal);
            scope.labelIfUnset(receivingSampler == null ? null : receivingSampler.label);
            scope.nodeOf(node.name);
            added.add(new Subscription(filter, scope, late));
        }
        List<Subscription> next = new ArrayList<>(List.of(subscriptions));
        next.addAll(added);
        subscriptions = next.toArray(new Subscription[0]);
        return added;
    }

    /**
     * After the SUBACK: messages published on matching topics while the broker set the subscription up (by other
     * threads' or engines' publishers) may not have reached it, though the ledger owes them: the subscription is late.
     */
    void checkSentMeanwhile(List<Subscription> added) {
        for (Subscription s : added) {
            if (!s.lateWhenAsked && ledger.sentMatching(s.filter)) {
                ledger.lateSubscription();
            }
        }
    }

    long receivedCount() {
        return receivedCount.get();
    }

    boolean hasSubscriptions() {
        return subscriptions.length > 0;
    }

    /** The receiver scopes of this client's subscriptions, each once. */
    List<ReceiverScope> scopes() {
        List<ReceiverScope> out = new ArrayList<>();
        for (Subscription s : subscriptions) {
            if (!out.contains(s.scope)) {
                out.add(s.scope);
            }
        }
        return out;
    }

    /** A receiver scope, a publish stream and the scope's tracker of it. */
    private static final class TrackTarget {
        final ReceiverScope scope;
        final int streamId;
        final StreamTracker tracker;

        TrackTarget(ReceiverScope scope, int streamId, StreamTracker tracker) {
            this.scope = scope;
            this.streamId = streamId;
            this.tracker = tracker;
        }
    }

    /** A (sampler, node, publisher node) and its pub-to-sub recorder. */
    private static final class LatencyTarget {
        final SamplerMetrics sampler;
        final NodeMetrics node;
        final int publisherNode;
        final PubToSubRecorder recorder;

        LatencyTarget(SamplerMetrics sampler, NodeMetrics node, int publisherNode, PubToSubRecorder recorder) {
            this.sampler = sampler;
            this.node = node;
            this.publisherNode = publisherNode;
            this.recorder = recorder;
        }
    }

    /** One subscribed filter (a shared one without its {@code $share/group/} prefix) and its receiver scope. */
    static final class Subscription {
        final String filter;
        final ReceiverScope scope;
        /** Whether matching messages had already been sent when the subscription was asked for (counted late then). */
        final boolean lateWhenAsked;

        Subscription(String filter, ReceiverScope scope, boolean lateWhenAsked) {
            this.filter = filter;
            this.scope = scope;
            this.lateWhenAsked = lateWhenAsked;
        }
    }
}
