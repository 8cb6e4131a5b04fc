package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import io.mqttload.common.Json;
import io.mqttload.common.TopicTrie;

/**
 * The one loss calculation: publish streams against receiver scopes, used by an engine for its own
 * ledger and by the merged report for the ledgers of every engine. A message the broker acknowledged
 * (QoS 0: written) is owed once to every scope whose filters match its topic; a message that left the
 * client but was never acknowledged is not owed, yet if it arrives it is matched to its stream and
 * counted as delivered without acknowledgement, never as a foreign message.
 */
public final class DeliveryCheck {
    private DeliveryCheck() {
    }

    /** One publisher's messages on one topic, as its engine booked them. */
    public static final class Stream {
        final int id;
        final String topic;
        final long sent;
        final long acknowledged;
        /** Sequence numbers that failed (sent or not), as sorted disjoint [from, to] pairs. */
        final long[] failed;

        public Stream(int id, String topic, long sent, long acknowledged, long[] failed) {
            this.id = id;
            this.topic = topic;
            this.sent = sent;
            this.acknowledged = acknowledged;
            this.failed = failed == null ? new long[0] : failed;
        }
    }

    /** What one receiver scope saw of one stream. */
    public static final class Seen {
        final long unique;
        final long highest;
        /** Missing sequence numbers below {@link #highest} as sorted disjoint pairs; null when not known exactly. */
        final long[] missing;

        public Seen(long unique, long highest, long[] missing) {
            this.unique = unique;
            this.highest = highest;
            this.missing = missing;
        }

        /** Two parts of one shared group (members on several engines): what they saw adds up, the ranges no longer tell. */
        Seen plus(Seen other) {
            return new Seen(unique + other.unique, Math.max(highest, other.highest), null);
        }
    }

    /** One place that must receive every matching message once: a client's subscriptions, or a shared group. */
    public static final class Scope {
        final String key;
        String label;
        final Set<String> filters = new LinkedHashSet<>();
        final Map<Integer, Seen> seen = new HashMap<>();

        public Scope(String key, String label) {
            this.key = key;
            this.label = label == null ? "" : label;
        }

        public void addFilter(String filter) {
            filters.add(filter);
        }

        public void see(int streamId, Seen s) {
            seen.merge(streamId, s, Seen::plus);
        }

        boolean isShared() {
            return key.startsWith(DeliveryLedger.SHARED_SCOPE_PREFIX);
        }
    }

    /** Expected versus received over the scopes and streams given. */
    public static final class Result {
        public long expected;
        public long receivedOfExpected;
        /** Messages that arrived although the broker never acknowledged them to their publisher. */
        public long deliveredUnacknowledged;
        /** Distinct messages received from streams not in the book (publishers outside the scopes' run or engine). */
        public long receivedFromUnknownStreams;
        /** {@code [expected, received]} per Subscribe sampler label. */
        public final Map<String, long[]> bySampler = new TreeMap<>();
        /** Receivers owed messages that got none of them: a shared group the broker does not serve, say. */
        public final List<String> receivedNothing = new ArrayList<>();

        public long lost() {
            return expected - receivedOfExpected;
        }
    }

    /**
     * The ledger of one engine as JSON: {@code streams} as {@code [id, topic, acknowledged, sent, [failed ranges]]}
     * and {@code scopes} with their key, label, filters and {@code received} as
     * {@code [stream id, unique, highest, [missing ranges] or null]}.
     */
    static String ledgerJson(Collection<Stream> streams, Collection<Scope> scopes) {
        StringBuilder b = new StringBuilder(64 + streams.size() * 48);
        b.append("{\"streams\": [");
        boolean first = true;
        for (Stream s : streams) {
            b.append(first ? "" : ", ").append('[').append(Integer.toUnsignedString(s.id)).append(", ")
                    .append(Json.quote(s.topic)).append(", ").append(s.acknowledged).append(", ").append(s.sent)
                    .append(", ");
            appendRanges(b, s.failed);
            b.append(']');
            first = false;
        }
        b.append("],\n  \"scopes\": [");
        first = true;
        for (Scope scope : scopes) {
            b.append(first ? "" : ",").append("\n    {\"key\": ").append(Json.quote(scope.key)).append(", \"label\": ")
                    .append(Json.quote(scope.label)).append(", \"filters\": [");
            boolean firstFilter = true;
            for (String f : scope.filters) {
                b.append(firstFilter ? "" : ", ").append(Json.quote(f));
                firstFilter = false;
            }
            b.append("], \"received\": [");
            boolean firstStream = true;
            for (Map.Entry<Integer, Seen> e : scope.seen.entrySet()) {
                Seen seen = e.getValue();
                b.append(firstStream ? "" : ", ").append('[').append(Integer.toUnsignedString(e.getKey())).append(", ")
                        .append(seen.unique).append(", ").append(seen.highest).append(", ");
                appendRanges(b, seen.missing);
                b.append(']');
                firstStream = false;
            }
            b.append("]}");
            first = false;
        }
        return b.append("]}").toString();
    }

    private static void appendRanges(StringBuilder b, long[] ranges) {
        if (ranges == null) {
            b.append("null");
            return;
        }
        b.append('[');
        for (int i = 0; i < ranges.length; i++) {
            b.append(i == 0 ? "" : ",").append(ranges[i]);
        }
        b.append(']');
    }

    /**
     * Adds one engine's ledger ({@link #ledgerJson}) to {@code streams} and {@code scopes}. Scopes with the same key
     * are one receiver (a shared group with members on several engines): what its parts saw adds up.
     */
    public static void readLedger(JsonNode ledger, Map<Integer, Stream> streams, Map<String, Scope> scopes) {
        for (JsonNode s : ledger.path("streams")) {
            int id = (int) s.get(0).asLong();
            streams.put(id, new Stream(id, s.get(1).asText(), s.path(3).asLong(), s.get(2).asLong(), ranges(s.get(4))));
        }
        for (JsonNode sc : ledger.path("scopes")) {
            Scope scope = scopes.computeIfAbsent(sc.path("key").asText(), k -> new Scope(k, sc.path("label").asText("")));
            if (scope.label.isEmpty()) {
                scope.label = sc.path("label").asText("");
            }
            sc.path("filters").forEach(f -> scope.addFilter(f.asText()));
            for (JsonNode r : sc.path("received")) {
                scope.see((int) r.get(0).asLong(), new Seen(r.get(1).asLong(), r.path(2).asLong(), ranges(r.get(3))));
            }
        }
    }

    private static long[] ranges(JsonNode array) {
        if (array == null || !array.isArray()) {
            return null;
        }
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }

    public static Result check(Collection<Stream> streams, Collection<Scope> scopes) {
        TopicTrie<Scope> trie = new TopicTrie<>();
        for (Scope scope : scopes) {
            for (String f : scope.filters) {
                trie.add(f, scope);
            }
        }
        Result r = new Result();
        Map<Integer, Stream> byId = new HashMap<>();
        Map<Scope, long[]> perScope = new HashMap<>();
        for (Stream stream : streams) {
            byId.put(stream.id, stream);
            if (stream.sent == 0 && stream.acknowledged == 0) {
                continue;
            }
            for (Scope scope : trie.match(stream.topic)) {
                Seen seen = scope.seen.get(stream.id);
                long unique = seen == null ? 0 : seen.unique;
                long receivedAcknowledged = Math.min(stream.acknowledged, unique - receivedOf(stream, seen));
                r.expected += stream.acknowledged;
                r.receivedOfExpected += receivedAcknowledged;
                r.deliveredUnacknowledged += unique - receivedAcknowledged;
                long[] forLabel = r.bySampler.computeIfAbsent(scope.label, k -> new long[2]);
                forLabel[0] += stream.acknowledged;
                forLabel[1] += receivedAcknowledged;
                long[] forScope = perScope.computeIfAbsent(scope, k -> new long[2]);
                forScope[0] += stream.acknowledged;
                forScope[1] += unique;
            }
        }
        for (Scope scope : scopes) {
            for (Map.Entry<Integer, Seen> e : scope.seen.entrySet()) {
                if (!byId.containsKey(e.getKey())) {
                    r.receivedFromUnknownStreams += e.getValue().unique;
                }
            }
        }
        List<String> nothing = new ArrayList<>();
        int plainScopesWithNothing = 0;
        for (Map.Entry<Scope, long[]> e : perScope.entrySet()) {
            if (e.getValue()[0] == 0 || e.getValue()[1] > 0) {
                continue;
            }
            Scope scope = e.getKey();
            if (scope.isShared()) {
                nothing.add("shared group " + scope.key.substring(DeliveryLedger.SHARED_SCOPE_PREFIX.length())
                        + " received none of " + e.getValue()[0] + " messages owed to it");
            } else {
                plainScopesWithNothing++;
            }
        }
        nothing.sort(null);
        if (plainScopesWithNothing > 0) {
            nothing.add(plainScopesWithNothing + " subscribing client(s) received none of the messages owed to them");
        }
        r.receivedNothing.addAll(nothing);
        return r;
    }

    /**
     * How many of a stream's failed sequence numbers a scope received: exact where the scope's missing ranges are
     * known, else the least consistent with its count (unacknowledged messages only account for an excess).
     */
    private static long receivedOf(Stream stream, Seen seen) {
        if (seen == null || stream.failed.length == 0) {
            return 0;
        }
        if (seen.missing == null) {
            return Math.max(0, Math.min(Ranges.count(stream.failed), seen.unique - stream.acknowledged));
        }
        return Ranges.countUpTo(stream.failed, seen.highest) - Ranges.overlap(stream.failed, seen.missing);
    }
}
