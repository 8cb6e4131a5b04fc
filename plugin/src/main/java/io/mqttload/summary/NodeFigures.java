package io.mqttload.summary;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.NodeMetrics;

/**
 * One broker node of a cluster, as the clients connected to it saw it: connections, messages published through it
 * and received from it, the deliveries owed to its subscribers, and pub-to-sub latency, also per publisher node.
 */
public final class NodeFigures {
    private static final DateTimeFormatter LOSS_TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    public String name;
    public long connectsOk;
    public long connectionsLost;
    public long published;
    public long acknowledged;
    public long received;
    /** Clients that failed over away from this node after losing it, and to it from others. */
    public long movedAway;
    public long movedIn;
    /** When a connection to this node was first lost (ms since the epoch), or -1. */
    public long firstLossMillis = -1;
    /** Deliveries owed to subscribers on this node, and of those, received (from the ledgers, exact). */
    public long expected;
    public long receivedOfExpected;
    public LatencyStats pubToSub;
    /** Latency of messages reaching this node's subscribers, by the publisher's node. */
    public Map<String, LatencyStats> pubToSubFrom = new TreeMap<>();

    public long lost() {
        return expected - receivedOfExpected;
    }

    /** The nodes side by side under a report's table, and latency per node pair; nothing for a single broker. */
    public static void appendTable(StringBuilder t, Collection<NodeFigures> nodes, String rule) {
        if (nodes.size() < 2) {
            return;
        }
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-18s %8s %6s %10s %10s %10s %10s %10s %7s %8s %8s%n", "broker node",
                "connects", "lost", "published", "acked", "received", "expected", "recv'd", "missing", "p50 ms",
                "p99 ms"));
        for (NodeFigures n : nodes) {
            t.append(String.format(Locale.ROOT, "%-18s %8d %6d %10d %10d %10d %10d %10d %7d %8.3f %8.3f%n", n.name,
                    n.connectsOk, n.connectionsLost, n.published, n.acknowledged, n.received, n.expected,
                    n.receivedOfExpected, n.lost(), n.pubToSub.percentile(50.0) / 1000.0,
                    n.pubToSub.percentile(99.0) / 1000.0));
        }
        for (NodeFigures n : nodes) {
            if (n.firstLossMillis >= 0 || n.movedAway > 0 || n.movedIn > 0) {
                t.append(String.format(Locale.ROOT, "node %s: first connection lost at %s, %d client(s) moved away, %d"
                        + " moved in%n", n.name, n.firstLossMillis < 0 ? "-" : LOSS_TIME.format(
                                Instant.ofEpochMilli(n.firstLossMillis)), n.movedAway, n.movedIn));
            }
        }
        for (NodeFigures n : nodes) {
            n.pubToSubFrom.forEach((from, s) -> t.append(String.format(Locale.ROOT,
                    "pub-to-sub %s -> %s: %d messages, p50 %.3f ms, p99 %.3f ms, max %.3f ms%n", from, n.name, s.count,
                    s.percentile(50.0) / 1000.0, s.percentile(99.0) / 1000.0, s.max / 1000.0)));
        }
    }

    /** An engine's nodes from its counters and its ledger's view of who was owed what. */
    static List<NodeFigures> of(List<NodeMetrics> nodes, Map<String, long[]> deliveryByNode) {
        // A publisher's node by its index; a node no client of this engine used has no name here.
        Map<Integer, String> names = new HashMap<>();
        nodes.forEach(n -> names.put(n.index, n.name));
        List<NodeFigures> out = new ArrayList<>();
        for (NodeMetrics n : nodes) {
            NodeFigures f = new NodeFigures();
            f.name = n.name;
            f.connectsOk = n.connectsOk.sum();
            f.connectionsLost = n.connectionsLost.sum();
            f.published = n.published.sum();
            f.acknowledged = n.acknowledged.sum();
            f.received = n.received.sum();
            f.movedAway = n.movedAway.sum();
            f.movedIn = n.movedIn.sum();
            f.firstLossMillis = n.firstLossMillis.get();
            long[] d = deliveryByNode.get(n.name);
            f.expected = d == null ? 0 : d[0];
            f.receivedOfExpected = d == null ? 0 : d[1];
            f.pubToSub = new LatencyStats(n.pubToSubLatency.totalCopy());
            for (int from : n.publisherNodes()) {
                f.pubToSubFrom.put(names.getOrDefault(from, "node " + (from + 1)),
                        new LatencyStats(n.fromNode(from).totalCopy()));
            }
            out.add(f);
        }
        return out;
    }

    /**
     * Every engine's figures of the same node added up (histograms merge exactly); expected and received deliveries
     * come from the merged ledgers, which see receivers owed messages published on other engines.
     */
    static Map<String, NodeFigures> merge(List<EngineSummary> summaries, Map<String, long[]> deliveryByNode) {
        Map<String, NodeFigures> merged = new TreeMap<>();
        for (EngineSummary s : summaries) {
            for (NodeFigures n : s.nodes) {
                NodeFigures m = merged.computeIfAbsent(n.name, k -> {
                    NodeFigures f = new NodeFigures();
                    f.name = k;
                    f.pubToSub = new LatencyStats(new Histogram(3));
                    return f;
                });
                m.connectsOk += n.connectsOk;
                m.connectionsLost += n.connectionsLost;
                m.published += n.published;
                m.acknowledged += n.acknowledged;
                m.received += n.received;
                m.movedAway += n.movedAway;
                m.movedIn += n.movedIn;
                if (n.firstLossMillis >= 0 && (m.firstLossMillis < 0 || n.firstLossMillis < m.firstLossMillis)) {
                    m.firstLossMillis = n.firstLossMillis;
                }
                m.pubToSub = add(m.pubToSub, n.pubToSub);
                n.pubToSubFrom.forEach((from, stats) -> m.pubToSubFrom.merge(from, stats, NodeFigures::add));
            }
        }
        deliveryByNode.forEach((name, d) -> {
            NodeFigures m = merged.get(name);
            if (m != null) {
                m.expected = d[0];
                m.receivedOfExpected = d[1];
            }
        });
        return merged;
    }

    private static LatencyStats add(LatencyStats a, LatencyStats b) {
        if (b == null) {
            return a;
        }
        Histogram sum = a.histogram().copy();
        sum.add(b.histogram());
        return new LatencyStats(sum);
    }
}
