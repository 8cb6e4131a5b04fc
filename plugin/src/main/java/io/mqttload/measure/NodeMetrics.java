package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the clients of one broker node did: a cluster's nodes compared side by side, and pub-to-sub latency per
 * (publisher's node, subscriber's node) pair, so that a cluster's cross-node cost shows.
 */
public final class NodeMetrics {
    /** Node indexes a payload header can carry (see {@link PayloadHeader}). */
    public static final int MAX_NODES = 63;

    public final int index;
    public final String name;
    /** The counts a node keeps ({@link Count.Level#NODE}), updated through {@link EngineMetrics}. */
    final Counters counters = new Counters(Count.Level.NODE);
    /** When a connection to this node was first lost (ms since the epoch), or -1: when the node went away. */
    public final AtomicLong firstLossMillis = new AtomicLong(-1);
    /** The node's latency figures, one per kind it keeps ({@link Latency.Level#NODE}): what its subscribers received. */
    public final LatencyRecorders latency = new LatencyRecorders(Latency.Level.NODE, true);
    /** By publisher node index + 1 (0: a publisher whose node is not known). */
    private final AtomicReferenceArray<FromNode> fromNode = new AtomicReferenceArray<>(MAX_NODES + 1);

    NodeMetrics(int index, String name) {
        this.index = index;
        this.name = name;
    }

    /** The node's count so far; a count nodes do not keep is refused. */
    public long sum(Count c) {
        return counters.sum(c);
    }

    /** The messages from publishers on node {@code publisherNode} (-1: not known) to subscribers on this node. */
    FromNode from(int publisherNode) {
        int slot = publisherNode < 0 || publisherNode >= MAX_NODES ? 0 : publisherNode + 1;
        FromNode f = fromNode.get(slot);
        if (f == null) {
            fromNode.compareAndSet(slot, null, new FromNode());
            f = fromNode.get(slot);
        }
        return f;
    }

    /** Every publisher node (and the unknown one) that messages to this node's subscribers came from. */
    List<FromNode> pairs() {
        List<FromNode> pairs = new ArrayList<>();
        for (int i = 0; i <= MAX_NODES; i++) {
            FromNode f = fromNode.get(i);
            if (f != null) {
                pairs.add(f);
            }
        }
        return pairs;
    }

    /** The indexes of the known publisher nodes that messages to this node's subscribers came from. */
    public List<Integer> publisherNodes() {
        List<Integer> nodes = new ArrayList<>();
        for (int i = 1; i <= MAX_NODES; i++) {
            if (fromNode.get(i) != null) {
                nodes.add(i - 1);
            }
        }
        return nodes;
    }

    /** Latency of messages from publisher node {@code publisherNode} to this node's subscribers, or null. */
    public LatencyTotal fromNode(int publisherNode) {
        FromNode f = publisherNode >= 0 && publisherNode < MAX_NODES ? fromNode.get(publisherNode + 1) : null;
        return f == null ? null : f.total;
    }

    /**
     * One (publisher node, subscriber node) pair: a recorder per receiving sampler, so that a message is recorded
     * once, and the pair's, the node's, the sampler's and the engine's latency are sums of these recorders.
     */
    static final class FromNode {
        final LatencyTotal total = new LatencyTotal();
        /** Copy-on-write: a run has a handful of Subscribe samplers, read at message rate, added to rarely. */
        private volatile Leaf[] leaves = new Leaf[0];

        PubToSubRecorder recorder(SamplerMetrics sampler) {
            for (Leaf leaf : leaves) {
                if (leaf.sampler == sampler) {
                    return leaf.recorder;
                }
            }
            synchronized (this) {
                for (Leaf leaf : leaves) {
                    if (leaf.sampler == sampler) {
                        return leaf.recorder;
                    }
                }
                Leaf added = new Leaf(sampler);
                Leaf[] more = Arrays.copyOf(leaves, leaves.length + 1);
                more[more.length - 1] = added;
                leaves = more;
                return added.recorder;
            }
        }

        Leaf[] leaves() {
            return leaves;
        }
    }

    /** The recorders of the messages one sampler's subscribers (null: a client no Subscribe sampler made) received. */
    static final class Leaf {
        final SamplerMetrics sampler;
        final PubToSubRecorder recorder = new PubToSubRecorder();

        Leaf(SamplerMetrics sampler) {
            this.sampler = sampler;
        }
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
