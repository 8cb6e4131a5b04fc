package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
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
    /** The engine's latency figures, one per kind it keeps ({@link Latency.Level#ENGINE}). */
    public final LatencyRecorders latency = new LatencyRecorders(Latency.Level.ENGINE, true);
    /** Pub-to-sub latency per publishing engine, measured and corrected by the clock offsets, never floored. */
    public final PubToSubPairs pubToSubPairs = new PubToSubPairs();
    /** Why the most recent established connection was lost, for the summary. */
    public final AtomicReference<String> lastConnectionLoss = new AtomicReference<>();
    /** When the Connect samplers' connects ran, for the achieved connect rate. */
    public final ConnectSpan connectSpan = new ConnectSpan();
    /** Why things failed: by sampler, kind and reason. */
    public final FailureTally failures = new FailureTally();
    /** The outages the plan declared and how their clients came back. */
    public final RecoveryTracker recovery = new RecoveryTracker();
    /** The engine's clients by client id, for session takeovers. */
    public final ClientIds clientIds = new ClientIds();
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
     * Records one latency of {@code kind} on every level that records it: the engine and {@code sampler} (null: none).
     * The one call of a recording point; kinds recorded per receiver go through {@link #pubToSubRecorder}.
     */
    public void record(Latency kind, SamplerMetrics sampler, long micros) {
        latency.record(kind, micros);
        if (sampler != null && kind.keptAt(Latency.Level.SAMPLER)) {
            sampler.latency.record(kind, micros);
        }
    }

    /** A copy of the run's histogram of {@code kind} so far (after the warm-up), read at the end of the run. */
    public Histogram totalCopy(Latency kind) {
        return latency.totalCopy(kind);
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

    /** A connect sent at {@code start} and accepted at {@code connack} ({@link MicroClock} µs), read whole. */
    public void connected(SamplerMetrics sampler, NodeMetrics node, long start, long connack) {
        record(Latency.CONNECT, sampler, connack - start);
        count(Count.CONNECTS_OK, sampler, node, 1);
        connectSpan.add(start, connack);
    }

    /**
     * A connect and its phases, from its instants in {@link MicroClock} microseconds: the call, the TCP connection
     * established, the TLS handshake done (negative without TLS) and the CONNACK.
     */
    public void connected(SamplerMetrics sampler, NodeMetrics node, long start, long tcpConnected, long tlsDone,
            long connack) {
        connected(sampler, node, start, connack);
        // The phases are differences of the same instants as the whole, so they add up to it exactly.
        record(Latency.CONNECT_TCP, sampler, tcpConnected - start);
        long ready = tcpConnected;
        if (tlsDone >= 0) {
            record(Latency.CONNECT_TLS, sampler, tlsDone - tcpConnected);
            ready = tlsDone;
        }
        record(Latency.CONNECT_CONNACK, sampler, connack - ready);
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

    /**
     * A publish of {@code clientId} failed ({@code connected}: its connection as it failed): while a declared outage held
     * the client offline it is the outage's, counted apart and not judged against the failure tolerance.
     */
    public void publishFailedOf(String clientId, boolean connected) {
        if (recovery.away(clientId, connected)) {
            count(Count.PUBLISH_FAILED_IN_OUTAGE);
        }
    }

    public void acknowledged(SamplerMetrics sampler, NodeMetrics node, long micros) {
        acknowledged(sampler, node, micros, -1);
    }

    /**
     * A publish the broker took {@code micros} after it was sent, {@code lagMicros} after its intended send time
     * (negative: it had none).
     */
    public void acknowledged(SamplerMetrics sampler, NodeMetrics node, long micros, long lagMicros) {
        record(Latency.PUBLISH, sampler, micros);
        if (lagMicros >= 0) {
            record(Latency.PUBLISH_INTENDED, sampler, micros + lagMicros);
        }
        count(Count.ACKNOWLEDGED, sampler, node, 1);
    }

    /** A message sent {@code lagMicros} after its intended send time. */
    public void sentAfterIntended(SamplerMetrics sampler, long lagMicros) {
        record(Latency.SCHEDULE_LAG, sampler, lagMicros);
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
     * Takes one metrics interval of every latency figure of the engine, {@code samplers} and the broker nodes, kind by
     * kind.
     *
     * @param countInTotal whether the interval counts in the run's totals (false during warm-up)
     */
    public Interval takeInterval(Collection<SamplerMetrics> samplers, boolean countInTotal) {
        ReceivedInterval received = takeReceivedInterval(countInTotal);
        List<Interval.OfNode> byNode = new ArrayList<>();
        for (NodeMetrics node : nodes.all()) {
            byNode.add(new Interval.OfNode(node, received.of(node)));
        }
        List<Interval.OfSampler> bySampler = new ArrayList<>(samplers.size());
        for (SamplerMetrics s : samplers) {
            Map<Latency, Histogram> ofSampler = s.latency.takeIntervals(false);
            ofSampler.putAll(received.of(s));
            bySampler.add(new Interval.OfSampler(s, ofSampler));
        }
        Map<Latency, Histogram> engine = latency.takeIntervals(countInTotal);
        engine.putAll(received.engine);
        return new Interval(System.currentTimeMillis(), engine, bySampler, byNode, countInTotal);
    }

    /**
     * Takes the interval of every receiver's recorders ({@link Latency#recordedPerReceiver()}) and adds them up, kind by
     * kind, into the engine's, each node's and each sampler's interval of the kinds those keep, and into their run
     * totals when {@code countInTotal} (false during warm-up); pub-to-sub also into each node pair's.
     */
    public ReceivedInterval takeReceivedInterval(boolean countInTotal) {
        Map<Latency, Histogram> engine = emptyReceived(Latency.Level.ENGINE);
        Map<NodeMetrics, Map<Latency, Histogram>> byNode = new IdentityHashMap<>();
        Map<SamplerMetrics, Map<Latency, Histogram>> bySampler = new IdentityHashMap<>();
        pubToSubPairs.takeInterval(countInTotal);
        for (NodeMetrics node : nodes.all()) {
            Map<Latency, Histogram> ofNode = emptyReceived(Latency.Level.ENGINE);
            for (NodeMetrics.FromNode pair : node.pairs()) {
                Histogram ofPair = LatencyRecorder.newHistogram();
                for (NodeMetrics.Leaf leaf : pair.leaves()) {
                    for (Map.Entry<Latency, Histogram> taken : leaf.recorder.takeIntervals().entrySet()) {
                        Latency kind = taken.getKey();
                        ofNode.get(kind).add(taken.getValue());
                        if (kind == Latency.PUB_TO_SUB) {
                            ofPair.add(taken.getValue());
                        }
                        if (leaf.sampler != null && kind.keptAt(Latency.Level.SAMPLER)) {
                            bySampler.computeIfAbsent(leaf.sampler, s -> emptyReceived(Latency.Level.SAMPLER)).get(kind)
                                    .add(taken.getValue());
                        }
                    }
                }
                if (countInTotal) {
                    pair.total.add(ofPair);
                }
            }
            Map<Latency, Histogram> kept = new EnumMap<>(Latency.class);
            ofNode.forEach((kind, h) -> {
                engine.get(kind).add(h);
                if (kind.keptAt(Latency.Level.NODE)) {
                    kept.put(kind, h);
                }
            });
            byNode.put(node, kept);
        }
        if (countInTotal) {
            engine.forEach(latency::addToTotal);
            byNode.forEach((node, kinds) -> kinds.forEach(node.latency::addToTotal));
            bySampler.forEach((sampler, kinds) -> kinds.forEach(sampler.latency::addToTotal));
        }
        return new ReceivedInterval(engine, byNode, bySampler);
    }

    /** An empty histogram of every kind recorded per receiver that {@code level} keeps. */
    private static Map<Latency, Histogram> emptyReceived(Latency.Level level) {
        Map<Latency, Histogram> m = new EnumMap<>(Latency.class);
        for (Latency kind : Latency.keptBy(level)) {
            if (kind.recordedPerReceiver()) {
                m.put(kind, LatencyRecorder.newHistogram());
            }
        }
        return m;
    }

    /** One tick's latencies recorded per receiver: the engine's, by node and by sampler, by kind. */
    public static final class ReceivedInterval {
        public final Map<Latency, Histogram> engine;
        private final Map<NodeMetrics, Map<Latency, Histogram>> byNode;
        private final Map<SamplerMetrics, Map<Latency, Histogram>> bySampler;

        ReceivedInterval(Map<Latency, Histogram> engine, Map<NodeMetrics, Map<Latency, Histogram>> byNode,
                Map<SamplerMetrics, Map<Latency, Histogram>> bySampler) {
            this.engine = engine;
            this.byNode = byNode;
            this.bySampler = bySampler;
        }

        /** The node's interval by kind (empty histograms when no subscriber of it received anything yet). */
        public Map<Latency, Histogram> of(NodeMetrics node) {
            Map<Latency, Histogram> m = byNode.get(node);
            return m == null ? emptyReceived(Latency.Level.NODE) : m;
        }

        /** The sampler's interval by kind (empty histograms when its subscribers received nothing in it). */
        public Map<Latency, Histogram> of(SamplerMetrics sampler) {
            Map<Latency, Histogram> m = bySampler.get(sampler);
            return m == null ? emptyReceived(Latency.Level.SAMPLER) : m;
        }
    }

    /** Pub-to-sub latencies recorded as 0 because they were negative (clock skew between hosts), so far. */
    public long pubToSubNegativeCount() {
        long n = 0;
        for (NodeMetrics.Leaf leaf : pubToSubLeaves()) {
            n += leaf.recorder.negativeCount(Latency.PUB_TO_SUB);
        }
        return n;
    }

    /** Pub-to-sub latencies above the trackable maximum, recorded at it, so far. */
    public long pubToSubClampedCount() {
        long n = 0;
        for (NodeMetrics.Leaf leaf : pubToSubLeaves()) {
            n += leaf.recorder.clampedCount(Latency.PUB_TO_SUB);
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

    /**
     * A client's session was taken over by another connection with its id (MQTT 5 reason 0x8E, or inferred), for the
     * {@code clientTakeovers}-th time for this client: counted per client and per id, for the ping-pong's length.
     */
    public void sessionTakenOver(String clientId, int clientTakeovers) {
        count(Count.SESSIONS_TAKEN_OVER);
        if (clientTakeovers == 1) {
            count(Count.CLIENTS_TAKEN_OVER);
        } else if (clientTakeovers == 2) {
            count(Count.CLIENTS_TAKEN_OVER_AGAIN);
        }
        peak(Count.TAKEOVERS_PER_CLIENT_ID_MAX, clientIds.takenOver(clientId));
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
