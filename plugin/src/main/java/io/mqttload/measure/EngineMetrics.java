package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

/**
 * The engine's counters and latency distributions. Written from JMeter threads and Netty threads
 * at message rate, so every field is a contention-free adder or recorder.
 */
public final class EngineMetrics {
    /** Pub-to-sub latency: the sum of every node's, taken at each tick ({@link #takePubToSubInterval}). */
    public final LatencyTotal pubToSubLatency = new LatencyTotal();
    public final LatencyRecorder publishLatency = new LatencyRecorder();
    public final LatencyRecorder connectLatency = new LatencyRecorder();
    /** Request/response (MQTT 5): from a request's send to its reply's arrival at the requester. */
    public final LatencyRecorder roundTripLatency = new LatencyRecorder();

    public final LongAdder connectsOk = new LongAdder();
    public final LongAdder connectsFailed = new LongAdder();
    public final LongAdder reconnects = new LongAdder();
    public final LongAdder connectionsLost = new LongAdder();
    public final LongAdder disconnects = new LongAdder();

    /** Messages handed to a connected client (QoS 0: written; QoS 1/2: sent, ack pending). */
    public final LongAdder published = new LongAdder();
    /** Publishes that never left the client (no connection, rejected by the client): failed, not published. */
    public final LongAdder publishNotSent = new LongAdder();
    /** QoS 0 messages written, or QoS 1/2 messages acknowledged by the broker (PUBACK / PUBCOMP). */
    public final LongAdder acknowledged = new LongAdder();
    public final LongAdder publishFailed = new LongAdder();
    public final LongAdder publishedBytes = new LongAdder();

    public final LongAdder subscribeOk = new LongAdder();
    public final LongAdder subscribeFailed = new LongAdder();

    public final LongAdder received = new LongAdder();
    public final LongAdder receivedBytes = new LongAdder();
    /** Received payloads without a readable measurement header (foreign publisher, or measurement off). */
    public final LongAdder receivedUnmeasured = new LongAdder();
    public final LongAdder duplicates = new LongAdder();
    public final LongAdder reordered = new LongAdder();
    /** Messages counted as missing when a later sequence number arrived first (gaps). */
    public final LongAdder gaps = new LongAdder();
    /** Gap messages that arrived late after all (reordering, not loss). */
    public final LongAdder gapsFilled = new LongAdder();

    /** Request/response (MQTT 5): requests published (messages with a response topic), and replies. */
    public final LongAdder requestsPublished = new LongAdder();
    public final LongAdder repliesSent = new LongAdder();
    public final LongAdder repliesFailed = new LongAdder();
    /** First replies to this engine's own requests: answers. */
    public final LongAdder repliesReceived = new LongAdder();
    /** Further replies to a request already answered (several responders got it). */
    public final LongAdder replyDuplicates = new LongAdder();
    /** Replies to requests that are not the receiving client's own (a subscriber on others' response topics). */
    public final LongAdder repliesForeign = new LongAdder();
    /** Replies sent and not yet taken by the broker. */
    public final LongAdder repliesPending = new LongAdder();

    /** Why the most recent established connection was lost, for the summary. */
    public final AtomicReference<String> lastConnectionLoss = new AtomicReference<>();

    /** Rendezvous barriers that timed out on this engine (one per barrier passage, not per thread). */
    public final LongAdder rendezvousTimeouts = new LongAdder();
    /** Barriers that timed out or could not work at all (no broker for the rendezvous client). */
    public final LongAdder rendezvousFailures = new LongAdder();
    /** Connections the client closed because the broker broke the protocol (a PUBACK to a QoS 2 PUBLISH, say). */
    public final LongAdder protocolViolations = new LongAdder();
    /** Seconds of the measured window in which the engine's process used at least 90 % of every core. */
    public final LongAdder generatorSaturatedSeconds = new LongAdder();
    /** Seconds of the steady phase in which a paced Publish sampler stayed under 90 % of its schedule. */
    public final LongAdder publishBehindScheduleSeconds = new LongAdder();
    /** The highest publish rate (msg/s) the plan's throughput timers scheduled in a steady second; 0: unpaced. */
    public final AtomicLong scheduledPublishRate = new AtomicLong();
    /** Clients moved to another broker node after losing their connection. */
    public final LongAdder failovers = new LongAdder();
    /** Samples that could not run because a field's value is wrong: the plan, not the broker, failed. */
    public final LongAdder invalidSettings = new LongAdder();
    /** Why things failed: by sampler, kind and reason. */
    public final FailureTally failures = new FailureTally();
    /** Per broker node of the connection's list (one node unless the plan lists a cluster's). */
    public final NodeMetrics.Table nodes = new NodeMetrics.Table();

    /**
     * Counts one failure everywhere it shows: the engine's counter, the sampler's (when there is one) and the
     * reasons. The one call for every failure, so that counts and reasons never disagree.
     */
    public void failed(FailureTally.Kind kind, SamplerMetrics sampler, String reason) {
        failed(kind, sampler, null, reason);
    }

    /** As {@link #failed(FailureTally.Kind, SamplerMetrics, String)}, also on the client's broker node. */
    public void failed(FailureTally.Kind kind, SamplerMetrics sampler, NodeMetrics node, String reason) {
        if (node != null && (kind == FailureTally.Kind.CONNECTION_LOST || kind == FailureTally.Kind.PROTOCOL_VIOLATION)) {
            node.connectionsLost.increment();
            node.firstLossMillis.compareAndSet(-1, System.currentTimeMillis());
        }
        switch (kind) {
            case CONNECT:
                connectsFailed.increment();
                if (sampler != null) {
                    sampler.connectsFailed.increment();
                }
                break;
            case SUBSCRIBE:
                subscribeFailed.increment();
                if (sampler != null) {
                    sampler.subscribeFailed.increment();
                }
                break;
            case PUBLISH:
                publishFailed.increment();
                if (sampler != null) {
                    sampler.publishFailed.increment();
                }
                break;
            case CONNECTION_LOST:
                connectionsLost.increment();
                break;
            case PROTOCOL_VIOLATION:
                protocolViolations.increment();
                break;
            case INVALID_SETTING:
                invalidSettings.increment();
                break;
            default:
                rendezvousFailures.increment();
                break;
        }
        failures.add(sampler == null ? "" : sampler.label, kind, reason, 1);
    }

    // Successes, each counted by one call on the engine and on its sampler, as failures are by failed().

    public void connected(SamplerMetrics sampler, NodeMetrics node, long micros) {
        connectLatency.record(micros);
        connectsOk.increment();
        sampler.connectLatency.record(micros);
        sampler.connectsOk.increment();
        node.connectsOk.increment();
    }

    /** A connection opened (+1) or closed (-1). */
    public void connections(SamplerMetrics sampler, NodeMetrics node, int change) {
        activeConnections.add(change);
        sampler.activeConnections.add(change);
        node.activeConnections.add(change);
    }

    public void subscribed(SamplerMetrics sampler) {
        subscribeOk.increment();
        sampler.subscribeOk.increment();
    }

    /** Messages handed to connected clients by one sample. */
    public void published(SamplerMetrics sampler, NodeMetrics node, int messages, long bytes) {
        published.add(messages);
        publishedBytes.add(bytes);
        sampler.published.add(messages);
        node.published.add(messages);
    }

    public void acknowledged(SamplerMetrics sampler, NodeMetrics node, long micros) {
        publishLatency.record(micros);
        acknowledged.increment();
        sampler.publishLatency.record(micros);
        sampler.acknowledged.increment();
        node.acknowledged.increment();
    }

    /** A message arrived for {@code sampler}'s subscribers (null: a client no Subscribe sampler made). */
    public void received(SamplerMetrics sampler, NodeMetrics node, int bytes) {
        received.increment();
        receivedBytes.add(bytes);
        node.received.increment();
        if (sampler != null) {
            sampler.received.increment();
            sampler.receivedBytes.add(bytes);
        }
    }

    /** Latency of a message from a publisher on {@code publisherNode} (-1: not known) to a subscriber on {@code node}. */
    public void pubToSub(SamplerMetrics sampler, NodeMetrics node, int publisherNode, long micros) {
        pubToSubRecorder(sampler, node, publisherNode).record(micros);
    }

    /**
     * The one recorder of the messages from {@code publisherNode} (-1: not known) to {@code sampler}'s subscribers
     * (null: a client no Subscribe sampler made) on {@code node}: a receiving client may keep it while these stay the
     * same, so that a delivered message costs one recording, whatever the figures it is part of.
     */
    public LatencyRecorder pubToSubRecorder(SamplerMetrics sampler, NodeMetrics node, int publisherNode) {
        return node.from(publisherNode).recorder(sampler);
    }

    /**
     * Takes the interval of every pub-to-sub recorder and adds them up into the engine's, each node's, each node
     * pair's and each sampler's interval, and into their run totals when {@code countInTotal} (false during warm-up).
     */
    public PubToSubInterval takePubToSubInterval(boolean countInTotal) {
        Histogram engine = LatencyRecorder.newHistogram();
        Map<NodeMetrics, Histogram> byNode = new IdentityHashMap<>();
        Map<SamplerMetrics, Histogram> bySampler = new IdentityHashMap<>();
        for (NodeMetrics node : nodes.all()) {
            Histogram ofNode = LatencyRecorder.newHistogram();
            for (NodeMetrics.FromNode pair : node.pairs()) {
                Histogram ofPair = LatencyRecorder.newHistogram();
                for (NodeMetrics.Leaf leaf : pair.leaves()) {
                    Histogram interval = leaf.recorder.takeInterval(false);
                    ofPair.add(interval);
                    if (leaf.sampler != null) {
                        bySampler.computeIfAbsent(leaf.sampler, s -> LatencyRecorder.newHistogram()).add(interval);
                    }
                }
                ofNode.add(ofPair);
                if (countInTotal) {
                    pair.total.add(ofPair);
                }
            }
            engine.add(ofNode);
            byNode.put(node, ofNode);
            if (countInTotal) {
                node.pubToSubLatency.add(ofNode);
            }
        }
        if (countInTotal) {
            pubToSubLatency.add(engine);
            bySampler.forEach((sampler, interval) -> sampler.pubToSubLatency.add(interval));
        }
        return new PubToSubInterval(engine, byNode, bySampler);
    }

    /** One tick's pub-to-sub latency: the engine's, by node and by sampler. */
    public static final class PubToSubInterval {
        public final Histogram engine;
        private final Map<NodeMetrics, Histogram> byNode;
        private final Map<SamplerMetrics, Histogram> bySampler;

        PubToSubInterval(Histogram engine, Map<NodeMetrics, Histogram> byNode, Map<SamplerMetrics, Histogram> bySampler) {
            this.engine = engine;
            this.byNode = byNode;
            this.bySampler = bySampler;
        }

        /** The node's interval (empty when no subscriber of it received anything yet). */
        public Histogram of(NodeMetrics node) {
            Histogram h = byNode.get(node);
            return h == null ? LatencyRecorder.newHistogram() : h;
        }

        /** The sampler's interval (empty when its subscribers received nothing in it). */
        public Histogram of(SamplerMetrics sampler) {
            Histogram h = bySampler.get(sampler);
            return h == null ? LatencyRecorder.newHistogram() : h;
        }
    }

    /** Pub-to-sub latencies recorded as 0 because they were negative (clock skew between hosts), so far. */
    public long pubToSubNegativeCount() {
        long n = 0;
        for (NodeMetrics.Leaf leaf : pubToSubLeaves()) {
            n += leaf.recorder.negativeCount();
        }
        return n;
    }

    /** Pub-to-sub latencies above the trackable maximum, recorded at it, so far. */
    public long pubToSubClampedCount() {
        long n = 0;
        for (NodeMetrics.Leaf leaf : pubToSubLeaves()) {
            n += leaf.recorder.clampedCount();
        }
        return n;
    }

    private List<NodeMetrics.Leaf> pubToSubLeaves() {
        List<NodeMetrics.Leaf> leaves = new ArrayList<>();
        for (NodeMetrics node : nodes.all()) {
            for (NodeMetrics.FromNode pair : node.pairs()) {
                leaves.addAll(Arrays.asList(pair.leaves()));
            }
        }
        return leaves;
    }

    /** A reply of {@code sampler}'s responders (null: a client no Subscribe sampler made) that could not be sent. */
    public void replyFailed(SamplerMetrics sampler, String reason) {
        repliesFailed.increment();
        failures.add(sampler == null ? "" : sampler.label, FailureTally.Kind.REPLY, reason, 1);
    }

    /** A client that lost its connection to {@code from} reconnected to {@code to} (failover). */
    public void failedOver(NodeMetrics from, NodeMetrics to) {
        failovers.increment();
        from.movedAway.increment();
        to.movedIn.increment();
    }

    /** A barrier that timed out or could not work, named after its timer. */
    public void rendezvousFailed(String timer, String reason) {
        rendezvousFailures.increment();
        failures.add(timer, FailureTally.Kind.RENDEZVOUS, reason, 1);
    }

    /** The run's errors so far ({@link FailureTally#ERROR_COUNTS}), for the progress line and the timeline. */
    public long errors() {
        return FailureTally.errors(this::errorCount);
    }

    /** One of {@link FailureTally#ERROR_COUNTS} so far. */
    public long errorCount(String name) {
        return errorCounters.get(name).sum();
    }

    private final Map<String, LongAdder> errorCounters = Map.of("connectsFailed", connectsFailed, "subscribeFailed",
            subscribeFailed, "publishFailed", publishFailed, "connectionsLost", connectionsLost, "protocolViolations",
            protocolViolations, "rendezvousFailures", rendezvousFailures, "invalidSettings", invalidSettings,
            "repliesFailed", repliesFailed);

    /** Currently open connections. */
    public final LongAdder activeConnections = new LongAdder();
}
