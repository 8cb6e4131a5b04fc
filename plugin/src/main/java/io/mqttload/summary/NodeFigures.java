package io.mqttload.summary;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.NodeMetrics;

/**
 * One broker node of a cluster, as the clients connected to it saw it: connections, messages published through it
 * and received from it, the deliveries owed to its subscribers, and pub-to-sub latency, also per publisher node.
 */
public final class NodeFigures {
    private static final DateTimeFormatter LOSS_TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** What a node's figures carry of its counts: the counters a node keeps ({@link Count.Level#NODE}). */
    public static final List<Count> COUNTS = nodeCounts();

    public String name;
    /** The node's {@link #COUNTS}; in the JSON as fields of their own, by their keys. */
    private final Map<Count, Long> counts = new EnumMap<>(Count.class);
    /** When a connection to this node was first lost (ms since the epoch), or -1. */
    public long firstLossMillis = -1;
    /** Deliveries owed to subscribers on this node, and of those, received (from the ledgers, exact). */
    public long expected;
    public long receivedOfExpected;
    /** Duplicates and reordered messages its subscribers received (written only when not 0). */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public long duplicates;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public long reordered;
    public LatencyStats pubToSub;
    /** Latency of messages reaching this node's subscribers, by the publisher's node. */
    public Map<String, LatencyStats> pubToSubFrom = new TreeMap<>();

    public long lost() {
        return expected - receivedOfExpected;
    }

    /** One of {@link #COUNTS}; 0 when the node has none of it. */
    public long count(Count c) {
        Long v = counts.get(c);
        return v == null ? 0 : v;
    }

    @JsonAnyGetter
    public Map<String, Long> countsByKey() {
        Map<String, Long> byKey = new LinkedHashMap<>();
        counts.forEach((c, v) -> byKey.put(c.key(), v));
        return byKey;
    }

    /** Reads a count back from the JSON; any other field is refused, as the mapper refuses unknown fields. */
    @JsonAnySetter
    public void readCount(String key, long value) {
        Count c = Count.of(key);
        if (!COUNTS.contains(c)) {
            throw new IllegalArgumentException("'" + key + "' is not a count of a broker node");
        }
        counts.put(c, value);
    }

    private static List<Count> nodeCounts() {
        List<Count> counts = new ArrayList<>();
        for (Count c : Count.counted(Count.Level.NODE)) {
            if (c.source() == Count.Source.COUNTER) {
                counts.add(c);
            }
        }
        return List.copyOf(counts);
    }

    /** The nodes side by side under a report's table, and latency per node pair; nothing for a single broker. */
    public static void appendTable(StringBuilder t, Collection<NodeFigures> nodes, String rule) {
        if (nodes.size() < 2) {
            return;
        }
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-18s %8s %6s %10s %10s %10s %10s %10s %7s %6s %9s %8s %8s%n",
                "broker node", "connects", "lost", "published", "acked", "received", "expected", "recv'd", "missing",
                "dups", "reordered", "p50 ms", "p99 ms"));
        for (NodeFigures n : nodes) {
            t.append(String.format(Locale.ROOT, "%-18s %8d %6d %10d %10d %10d %10d %10d %7d %6d %9d %8.3f %8.3f%n",
                    n.name, n.count(Count.CONNECTS_OK), n.count(Count.CONNECTIONS_LOST), n.count(Count.PUBLISHED),
                    n.count(Count.ACKNOWLEDGED), n.count(Count.RECEIVED), n.expected,
                    n.receivedOfExpected, n.lost(), n.duplicates, n.reordered, n.pubToSub.percentile(50.0) / 1000.0,
                    n.pubToSub.percentile(99.0) / 1000.0));
        }
        for (NodeFigures n : nodes) {
            if (n.firstLossMillis >= 0 || n.count(Count.MOVED_AWAY) > 0 || n.count(Count.MOVED_IN) > 0) {
                t.append(String.format(Locale.ROOT, "node %s: first connection lost at %s, %d client(s) moved away, %d"
                        + " moved in%n", n.name, n.firstLossMillis < 0 ? "-" : LOSS_TIME.format(
                                Instant.ofEpochMilli(n.firstLossMillis)), n.count(Count.MOVED_AWAY),
                        n.count(Count.MOVED_IN)));
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
            for (Count c : COUNTS) {
                f.counts.put(c, n.sum(c));
            }
            f.firstLossMillis = n.firstLossMillis.get();
            long[] d = deliveryByNode.get(n.name);
            f.expected = d == null ? 0 : d[0];
            f.receivedOfExpected = d == null ? 0 : d[1];
            f.duplicates = d == null || d.length < 4 ? 0 : d[2];
            f.reordered = d == null || d.length < 4 ? 0 : d[3];
            f.pubToSub = new LatencyStats(n.latency.totalCopy(Latency.PUB_TO_SUB));
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
                n.counts.forEach((c, v) -> m.counts.merge(c, v, c.merge()::combine));
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
                m.duplicates = d.length < 4 ? 0 : d[2];
                m.reordered = d.length < 4 ? 0 : d[3];
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
