package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.HdrHistogram.Histogram;

/**
 * The engine's counts and latency distributions. Written from JMeter threads and Netty threads at message rate, so
 * every count is a contention-free adder (see {@link Count}) and every distribution a recorder.
 */
public final class EngineMetrics {
    /** Pub-to-sub latency: the sum of every node's, taken at each tick ({@link #takePubToSubInterval}). */
    public final LatencyTotal pubToSubLatency = new LatencyTotal();
    /** Pub-to-sub latency from the intended send time, of the messages that had one; summed as the one above. */
    public final LatencyTotal pubToSubIntendedLatency = new LatencyTotal();
    /** Pub-to-sub latency per publishing engine, measured and corrected by the clock offsets, never floored. */
    public final PubToSubPairs pubToSubPairs = new PubToSubPairs();
    public final LatencyRecorder publishLatency = new LatencyRecorder();
    /** Publish (ack) latency from the intended send time, of the messages that had one. */
    public final LatencyRecorder publishIntendedLatency = new LatencyRecorder();
    /** The schedule lag: actual send minus intended send, of every message that had an intended time. */
    public final LatencyRecorder scheduleLag = new LatencyRecorder();
    public final LatencyRecorder connectLatency = new LatencyRecorder();
    /** The connects' phases: TCP, TLS handshake, CONNACK. */
    public final ConnectPhaseRecorders connectPhases = new ConnectPhaseRecorders();
    /** Request/response (MQTT 5): from a request's send to its reply's arrival at the requester. */
    public final LatencyRecorder roundTripLatency = new LatencyRecorder();
    /** Why the most recent established connection was lost, for the summary. */
    public final AtomicReference<String> lastConnectionLoss = new AtomicReference<>();
    /** Why things failed: by sampler, kind and reason. */
    public final FailureTally failures = new FailureTally();
    /** Per broker node of the connection's list (one node unless the plan lists a cluster's). */
    public final NodeMetrics.Table nodes = new NodeMetrics.Table();
    /** The engine's counts, updated by the events below and read with {@link #sum(Count)}. */
    private final Counters counters = new Counters(Count.Level.ENGINE);

    /**
     * Adds {@code n} to count {@code c} on every level that keeps it: the engine, {@code sampler} and {@code node}
     * (either may be null). The one call of an event that is one count; the methods below are the events that
     * are more.
     */
    public void count(Count c, SamplerMetrics sampler, NodeMetrics node, long n) {
        counters.add(c, n);
        if (sampler != null) {
            sampler.counters.add(c, n);
        }
        if (node != null) {
            node.counters.add(c, n);
        }
    }

    /** One more of an engine count (a reconnect, a duplicate, a second of saturation). */
    public void count(Count c) {
        counters.addKept(c, 1);
    }

    /** Raises a peak ({@link Count.Source#PEAK}) to {@code value} when it is higher. */
    public void peak(Count c, long value) {
        counters.peak(c, value);
    }

    /**
     * A copy of the run's histogram of {@code kind} so far (after the warm-up): the one place that maps a declared
     * {@link Latency} to the engine's recorder, read at the end of the run, never on the record path.
     */
    public Histogram totalCopy(Latency kind) {
        switch (kind) {
            case PUB_TO_SUB:
                return pubToSubLatency.totalCopy();
            case PUB_TO_SUB_INTENDED:
                return pubToSubIntendedLatency.totalCopy();
            case PUBLISH:
                return publishLatency.totalCopy();
            case PUBLISH_INTENDED:
                return publishIntendedLatency.totalCopy();
            case SCHEDULE_LAG:
                return scheduleLag.totalCopy();
            case CONNECT:
                return connectLatency.totalCopy();
            case CONNECT_TCP:
                return connectPhases.tcp.totalCopy();
            case CONNECT_TLS:
                return connectPhases.tls.totalCopy();
            case CONNECT_CONNACK:
                return connectPhases.connack.totalCopy();
            case ROUND_TRIP:
                return roundTripLatency.totalCopy();
            default:
                throw new IllegalArgumentException(kind.key());
        }
    }

    /** The engine's count so far; one the engine does not keep as it runs (see {@link Count#counted()}) is refused. */
    public long sum(Count c) {
        return counters.sum(c);
    }

    /**
     * Counts one failure everywhere it shows: the engine's counter, the sampler's (when there is one) and the
     * reasons. The one call for every failure, so that counts and reasons never disagree.
     */
    public void failed(FailureTally.Kind kind, SamplerMetrics sampler, String reason) {
        failed(kind, sampler, null, reason);
    }

    /**
     * As {@link #failed(FailureTally.Kind, SamplerMetrics, String)}, also on the client's broker node. The client
     * closes the connection on a protocol violation: a lost connection too, whose reason is the violation.
     */
    public void failed(FailureTally.Kind kind, SamplerMetrics sampler, NodeMetrics node, String reason) {
        if (kind == FailureTally.Kind.PROTOCOL_VIOLATION) {
            count(Count.CONNECTIONS_LOST, null, node, 1);
        }
        count(Count.of(kind), sampler, node, 1);
        if (node != null && (kind == FailureTally.Kind.CONNECTION_LOST || kind == FailureTally.Kind.PROTOCOL_VIOLATION)) {
            node.firstLossMillis.compareAndSet(-1, System.currentTimeMillis());
        }
        failures.add(sampler == null ? "" : sampler.label, kind, reason, 1);
    }

    /**
     * A connect the client gave up because the broker broke the protocol before or in its CONNACK: a failed connect and
     * a protocol violation, listed once, under the violation. The connection never opened, so none was lost.
     */
    public void connectViolated(SamplerMetrics sampler, NodeMetrics node, String reason) {
        count(Count.CONNECTS_FAILED, sampler, node, 1);
        count(Count.PROTOCOL_VIOLATIONS, sampler, node, 1);
        failures.add(sampler == null ? "" : sampler.label, FailureTally.Kind.PROTOCOL_VIOLATION, reason, 1);
    }

    // Successes, each counted by one call on the engine, its sampler and its node, as failures are by failed().

    public void connected(SamplerMetrics sampler, NodeMetrics node, long micros) {
        connectLatency.record(micros);
        sampler.connectLatency.record(micros);
        count(Count.CONNECTS_OK, sampler, node, 1);
    }

    /**
     * A connect and its phases, from its instants in {@link MicroClock} microseconds: the call, the TCP connection
     * established, the TLS handshake done (negative without TLS) and the CONNACK.
     */
    public void connected(SamplerMetrics sampler, NodeMetrics node, long start, long tcpConnected, long tlsDone,
            long connack) {
        connected(sampler, node, connack - start);
        connectPhases.record(start, tcpConnected, tlsDone, connack);
        sampler.connectPhases.record(start, tcpConnected, tlsDone, connack);
    }

    /** A connection opened (+1) or closed (-1). */
    public void connections(SamplerMetrics sampler, NodeMetrics node, int change) {
        count(Count.ACTIVE_CONNECTIONS, sampler, node, change);
    }

    public void subscribed(SamplerMetrics sampler) {
        count(Count.SUBSCRIBE_OK, sampler, null, 1);
    }

    /** Messages handed to connected clients by one sample. */
    public void published(SamplerMetrics sampler, NodeMetrics node, int messages, long bytes) {
        count(Count.PUBLISHED, sampler, node, messages);
        count(Count.PUBLISHED_BYTES, sampler, node, bytes);
    }

    /** A publish that never left the client (no connection, rejected by it): failed, not published. */
    public void publishNotSent(SamplerMetrics sampler, String reason) {
        count(Count.PUBLISH_NOT_SENT);
        failed(FailureTally.Kind.PUBLISH, sampler, reason);
    }

    public void acknowledged(SamplerMetrics sampler, NodeMetrics node, long micros) {
        acknowledged(sampler, node, micros, -1);
    }

    /**
     * A publish the broker took {@code micros} after it was sent, {@code lagMicros} after its intended send time
     * (negative: it had none).
     */
    public void acknowledged(SamplerMetrics sampler, NodeMetrics node, long micros, long lagMicros) {
        publishLatency.record(micros);
        sampler.publishLatency.record(micros);
        if (lagMicros >= 0) {
            publishIntendedLatency.record(micros + lagMicros);
            sampler.publishIntendedLatency.record(micros + lagMicros);
        }
        count(Count.ACKNOWLEDGED, sampler, node, 1);
    }

    /** A message sent {@code lagMicros} after its intended send time. */
    public void sentAfterIntended(SamplerMetrics sampler, long lagMicros) {
        scheduleLag.record(lagMicros);
        sampler.scheduleLag.record(lagMicros);
    }

    /** A message arrived for {@code sampler}'s subscribers (null: a client no Subscribe sampler made). */
    public void received(SamplerMetrics sampler, NodeMetrics node, int bytes) {
        count(Count.RECEIVED, sampler, node, 1);
        count(Count.RECEIVED_BYTES, sampler, node, bytes);
    }

    /** A message arrived after a later one of its stream: reordered, and it fills a gap counted before. */
    public void reordered() {
        count(Count.REORDERED);
        count(Count.GAPS_FILLED);
    }

    /** Latency of a message from a publisher on {@code publisherNode} (-1: not known) to a subscriber on {@code node}. */
    public void pubToSub(SamplerMetrics sampler, NodeMetrics node, int publisherNode, long micros) {
        pubToSubRecorder(sampler, node, publisherNode).record(micros, -1);
    }

    /**
     * The one recorder of the messages from {@code publisherNode} (-1: not known) to {@code sampler}'s subscribers
     * (null: a client no Subscribe sampler made) on {@code node}: a receiving client may keep it while these stay the
     * same, so that a delivered message costs one recording, whatever the figures it is part of.
     */
    public PubToSubRecorder pubToSubRecorder(SamplerMetrics sampler, NodeMetrics node, int publisherNode) {
        return node.from(publisherNode).recorder(sampler);
    }

    /**
     * Takes the interval of every pub-to-sub recorder and adds them up into the engine's, each node's, each node
     * pair's and each sampler's interval, and into their run totals when {@code countInTotal} (false during warm-up);
     * the latency from the intended send time into the engine's and each sampler's.
     */
    public PubToSubInterval takePubToSubInterval(boolean countInTotal) {
        Histogram engine = LatencyRecorder.newHistogram();
        Histogram engineIntended = LatencyRecorder.newHistogram();
        Map<NodeMetrics, Histogram> byNode = new IdentityHashMap<>();
        Map<SamplerMetrics, Histogram> bySampler = new IdentityHashMap<>();
        Map<SamplerMetrics, Histogram> bySamplerIntended = new IdentityHashMap<>();
        pubToSubPairs.takeInterval(countInTotal);
        for (NodeMetrics node : nodes.all()) {
            Histogram ofNode = LatencyRecorder.newHistogram();
            for (NodeMetrics.FromNode pair : node.pairs()) {
                Histogram ofPair = LatencyRecorder.newHistogram();
                for (NodeMetrics.Leaf leaf : pair.leaves()) {
                    Histogram interval = leaf.recorder.fromSend.takeInterval(false);
                    Histogram intended = leaf.recorder.fromIntended.takeInterval(false);
                    ofPair.add(interval);
                    engineIntended.add(intended);
                    if (leaf.sampler != null) {
                        bySampler.computeIfAbsent(leaf.sampler, s -> LatencyRecorder.newHistogram()).add(interval);
                        bySamplerIntended.computeIfAbsent(leaf.sampler, s -> LatencyRecorder.newHistogram()).add(intended);
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
            pubToSubIntendedLatency.add(engineIntended);
            bySampler.forEach((sampler, interval) -> sampler.pubToSubLatency.add(interval));
            bySamplerIntended.forEach((sampler, interval) -> sampler.pubToSubIntendedLatency.add(interval));
        }
        return new PubToSubInterval(engine, engineIntended, byNode, bySampler, bySamplerIntended);
    }

    /** One tick's pub-to-sub latency: the engine's, by node and by sampler; from the intended time, by sampler. */
    public static final class PubToSubInterval {
        public final Histogram engine;
        public final Histogram engineIntended;
        private final Map<NodeMetrics, Histogram> byNode;
        private final Map<SamplerMetrics, Histogram> bySampler;
        private final Map<SamplerMetrics, Histogram> bySamplerIntended;

        PubToSubInterval(Histogram engine, Histogram engineIntended, Map<NodeMetrics, Histogram> byNode,
                Map<SamplerMetrics, Histogram> bySampler, Map<SamplerMetrics, Histogram> bySamplerIntended) {
            this.engine = engine;
            this.engineIntended = engineIntended;
            this.byNode = byNode;
            this.bySampler = bySampler;
            this.bySamplerIntended = bySamplerIntended;
        }

        /** The sampler's interval from the intended send time (empty when none of its messages had one). */
        public Histogram intendedOf(SamplerMetrics sampler) {
            Histogram h = bySamplerIntended.get(sampler);
            return h == null ? LatencyRecorder.newHistogram() : h;
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
            n += leaf.recorder.fromSend.negativeCount();
        }
        return n;
    }

    /** Pub-to-sub latencies above the trackable maximum, recorded at it, so far. */
    public long pubToSubClampedCount() {
        long n = 0;
        for (NodeMetrics.Leaf leaf : pubToSubLeaves()) {
            n += leaf.recorder.fromSend.clampedCount();
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
        failed(FailureTally.Kind.REPLY, sampler, reason);
    }

    /**
     * A reply handed to the client (counted in {@link Count#REPLIES_PENDING}) that the broker took ({@code failure}
     * null) or that failed for {@code failure}.
     */
    public void replySettled(SamplerMetrics sampler, String failure) {
        count(Count.REPLIES_PENDING, null, null, -1);
        if (failure == null) {
            count(Count.REPLIES_SENT);
        } else {
            replyFailed(sampler, failure);
        }
    }

    /** When the first and the last client gave up reconnecting (ms since the epoch), 0: none did. */
    public final AtomicLong firstGiveUpMillis = new AtomicLong();
    public final AtomicLong lastGiveUpMillis = new AtomicLong();

    /**
     * A client gave up reconnecting after {@code attempts} failed attempts; when, the first and the last time, is kept
     * for the summary. Returns whether it was the run's first.
     */
    public boolean gaveUpReconnecting(int attempts) {
        long now = System.currentTimeMillis();
        boolean first = firstGiveUpMillis.compareAndSet(0, now);
        lastGiveUpMillis.accumulateAndGet(now, Math::max);
        count(Count.RECONNECTS_GIVEN_UP);
        count(Count.RECONNECT_ATTEMPTS_GIVEN_UP, null, null, attempts);
        return first;
    }

    /** A client that lost its connection to {@code from} reconnected to {@code to} (failover). */
    public void failedOver(NodeMetrics from, NodeMetrics to) {
        count(Count.FAILOVERS);
        count(Count.MOVED_AWAY, null, from, 1);
        count(Count.MOVED_IN, null, to, 1);
    }

    /** A barrier that timed out or could not work, named after its timer. */
    public void rendezvousFailed(String timer, String reason) {
        count(Count.RENDEZVOUS_FAILURES);
        failures.add(timer, FailureTally.Kind.RENDEZVOUS, reason, 1);
    }

    /** A barrier passage that timed out: a failed rendezvous too. */
    public void rendezvousTimedOut(String timer, String reason) {
        count(Count.RENDEZVOUS_TIMEOUTS);
        rendezvousFailed(timer, reason);
    }

    /** The run's errors so far ({@link Count#ERRORS}), for the progress line and the timeline. */
    public long errors() {
        return counters.errors();
    }
}
