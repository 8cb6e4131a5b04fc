package io.mqttload.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the clients of one broker node did: a cluster's nodes compared side by side, and pub-to-sub latency per
 * (publisher's node, subscriber's node) pair, so that a cluster's cross-node cost shows.
 */
public final class NodeMetrics {
    /** Node indexes a payload header can carry (see {@link PayloadHeader}). */
    public static final int MAX_NODES = 63;

    public final int index;
    public final String name;
    public final LongAdder connectsOk = new LongAdder();
    public final LongAdder connectionsLost = new LongAdder();
    public final LongAdder activeConnections = new LongAdder();
    public final LongAdder published = new LongAdder();
    public final LongAdder acknowledged = new LongAdder();
    public final LongAdder received = new LongAdder();
    /** Clients that left this node for another after losing their connection (failover), and that came to it. */
    public final LongAdder movedAway = new LongAdder();
    public final LongAdder movedIn = new LongAdder();
    /** When a connection to this node was first lost (ms since the epoch), or -1: when the node went away. */
    public final AtomicLong firstLossMillis = new AtomicLong(-1);
    /** Of the messages this node's subscribers received, by the publisher's node: latency. */
    public final LatencyRecorder pubToSubLatency = new LatencyRecorder();
    private final ConcurrentHashMap<Integer, LatencyRecorder> fromNode = new ConcurrentHashMap<>();

    NodeMetrics(int index, String name) {
        this.index = index;
        this.name = name;
    }

    /** A message from a publisher on node {@code publisherNode} (-1: not known) reached a subscriber on this node. */
    void pubToSub(int publisherNode, long micros) {
        pubToSubLatency.record(micros);
        if (publisherNode >= 0) {
            LatencyRecorder pair = fromNode.get(publisherNode);
            if (pair == null) {
                pair = fromNode.computeIfAbsent(publisherNode, k -> new LatencyRecorder());
            }
            pair.record(micros);
        }
    }

    /** Latency of messages from each publisher node to this node's subscribers, by publisher node index. */
    public List<Integer> publisherNodes() {
        return new ArrayList<>(fromNode.keySet());
    }

    public LatencyRecorder fromNode(int publisherNode) {
        return fromNode.get(publisherNode);
    }

    /** The nodes of one engine's run, created when a client first connects to one. */
    public static final class Table {
        private final AtomicReferenceArray<NodeMetrics> nodes = new AtomicReferenceArray<>(MAX_NODES);

        public NodeMetrics node(int index, String name) {
            NodeMetrics n = nodes.get(index);
            if (n == null) {
                nodes.compareAndSet(index, null, new NodeMetrics(index, name));
                n = nodes.get(index);
            }
            return n;
        }

        /** The node with this index, or null when no client used it. */
        public NodeMetrics get(int index) {
            return index >= 0 && index < MAX_NODES ? nodes.get(index) : null;
        }

        public List<NodeMetrics> all() {
            List<NodeMetrics> all = new ArrayList<>();
            for (int i = 0; i < MAX_NODES; i++) {
                if (nodes.get(i) != null) {
                    all.add(nodes.get(i));
                }
            }
            return all;
        }
    }
}
