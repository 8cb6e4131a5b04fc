package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.mqttload.common.TopicMatcher;
import io.mqttload.common.TopicTrie;

/**
 * The one loss calculation: publish streams against receiver scopes, used by an engine for its own
 * ledger and by the merged report for the ledgers of every engine. A message the broker acknowledged
 * (QoS 0: written) is owed once to every scope whose filters match its topic; a message that left the
 * client but was never acknowledged is not owed, yet if it arrives it is matched to its stream and
 * counted as delivered without acknowledgement, never as a foreign message.
 */
public final class DeliveryCheck {
    /** The node of a receiver whose subscribers sit on several broker nodes (a shared group across a cluster). */
    public static final String SEVERAL_NODES = "(several nodes)";

    private DeliveryCheck() {
    }

    /** One publisher's messages on one topic, as its engine booked them. */
    @JsonPropertyOrder({"id", "topic", "sent", "acknowledged", "failed"})
    public static final class Stream {
        @JsonProperty
        final int id;
        @JsonProperty
        final String topic;
        @JsonProperty
        final long sent;
        @JsonProperty
        final long acknowledged;
        /** Sequence numbers that failed (sent or not), as sorted disjoint [from, to] pairs. */
        @JsonProperty
        final long[] failed;

        /** The publishing client's id, only when some subscription has no local (null otherwise, and not written). */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_NULL)
        final String publisher;

        /**
         * When its messages were sent, in its engine's clock: {@code [sequence, µs, ...]} checkpoints in sequence order
         * (see {@link SendTimes}); null when not booked (a ledger of an earlier version).
         */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_NULL)
        long[] sendTimes;

        public Stream(int id, String topic, long sent, long acknowledged, long[] failed) {
            this(id, topic, sent, acknowledged, failed, null);
        }

        @JsonCreator
        public Stream(@JsonProperty("id") int id, @JsonProperty("topic") String topic, @JsonProperty("sent") long sent,
                @JsonProperty("acknowledged") long acknowledged, @JsonProperty("failed") long[] failed,
                @JsonProperty("publisher") String publisher) {
            this.id = id;
            this.topic = topic;
            this.sent = sent;
            this.acknowledged = acknowledged;
            this.failed = failed == null ? new long[0] : failed;
            this.publisher = publisher;
        }
    }

    /** What one receiver scope saw of one stream. */
    @JsonPropertyOrder({"unique", "highest", "missing", "duplicates", "reordered"})
    public static final class Seen {
        @JsonProperty
        final long unique;
        @JsonProperty
        final long highest;
        /** Missing sequence numbers below {@link #highest} as sorted disjoint pairs; null when not known exactly. */
        @JsonProperty
        final long[] missing;
        /** Messages that arrived again, and messages that arrived after a later one (written only when not 0). */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        final long duplicates;
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        final long reordered;

        public Seen(long unique, long highest, long[] missing) {
            this(unique, highest, missing, 0, 0);
        }

        @JsonCreator
        public Seen(@JsonProperty("unique") long unique, @JsonProperty("highest") long highest,
                @JsonProperty("missing") long[] missing, @JsonProperty("duplicates") long duplicates,
                @JsonProperty("reordered") long reordered) {
            this.unique = unique;
            this.highest = highest;
            this.missing = missing;
            this.duplicates = duplicates;
            this.reordered = reordered;
        }

        /** Two parts of one shared group (members on several engines): what they saw adds up, the ranges no longer tell. */
        Seen plus(Seen other) {
            return new Seen(unique + other.unique, Math.max(highest, other.highest), null, duplicates + other.duplicates,
                    reordered + other.reordered);
        }
    }

    /** One place that must receive every matching message once: a client's subscriptions, or a shared group. */
    @JsonPropertyOrder({"key", "label", "node", "filters", "received"})
    public static final class Scope {
        @JsonProperty
        final String key;
        @JsonProperty
        String label;
        /** The broker node of its subscribers (empty: not known). */
        @JsonProperty
        String node = "";
        @JsonProperty
        final Set<String> filters = new LinkedHashSet<>();
        /** The MQTT version at which the broker granted a shared group's filter (empty: not granted, or not shared). */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        String grantedAt = "";
        /** What this scope saw, by stream id. */
        @JsonProperty("received")
        final Map<Integer, Seen> seen = new TreeMap<>();
        /** Filters subscribed with no local (MQTT 5): the subscribing client's own messages on them are not owed. */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        final Set<String> noLocalFilters = new LinkedHashSet<>();
        /** When its filters' subscriptions took effect, per filter and engine (a shared group's parts each bring theirs). */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        final List<Window> windows = new ArrayList<>();
        /**
         * Each time its client came back to a broker that had kept no session for it, and subscribed again: what was
         * published in between was owed to nobody (see {@link OwedDeliveries}). A client's scope only.
         */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        final List<Lapse> lapses = new ArrayList<>();
        /**
         * Reconnects of its QoS 1 or 2 subscriber to a broker that had kept its session (CONNACK session present 1): what
         * the broker acknowledged meanwhile it promised to deliver, so its loss is named as such.
         */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        long sessionsKept;

        public Scope(String key, String label) {
            this.key = key;
            this.label = label == null ? "" : label;
        }

        @JsonCreator
        Scope(@JsonProperty("key") String key, @JsonProperty("label") String label,
                @JsonProperty("filters") List<String> filters, @JsonProperty("received") Map<Integer, Seen> received,
                @JsonProperty("noLocalFilters") List<String> noLocalFilters,
                @JsonProperty("windows") List<Window> windows, @JsonProperty("lapses") List<Lapse> lapses) {
            this(key, label);
            if (windows != null) {
                this.windows.addAll(windows);
            }
            if (lapses != null) {
                this.lapses.addAll(lapses);
            }
            if (filters != null) {
                this.filters.addAll(filters);
            }
            if (noLocalFilters != null) {
                this.noLocalFilters.addAll(noLocalFilters);
            }
            if (received != null) {
                this.seen.putAll(received);
            }
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

        /** Whether the broker keeps {@code stream} from this scope: its own client's messages, on no-local filters only. */
        boolean excludes(Stream stream) {
            if (noLocalFilters.isEmpty() || stream.publisher == null
                    || !key.equals(DeliveryLedger.CLIENT_SCOPE_PREFIX + stream.publisher)) {
                return false;
            }
            for (String f : filters) {
                if (!noLocalFilters.contains(f) && TopicMatcher.matches(f, stream.topic)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * When one filter's subscription took effect at the broker, in the subscribing engine's clock (µs, as latencies
     * use): after its SUBSCRIBE was sent ({@link #from}) and before its SUBACK was read ({@link #to}).
     */
    @JsonPropertyOrder({"filter", "engine", "from", "to"})
    public static final class Window {
        @JsonProperty
        final String filter;
        @JsonProperty
        final int engine;
        @JsonProperty
        final long from;
        @JsonProperty
        final long to;

        @JsonCreator
        public Window(@JsonProperty("filter") String filter, @JsonProperty("engine") int engine,
                @JsonProperty("from") long from, @JsonProperty("to") long to) {
            this.filter = filter;
            this.engine = engine;
            this.from = from;
            this.to = to;
        }
    }

    /**
     * A client's subscriptions lapsed: its connection was lost, and the broker it came back to had kept no session for
     * it (CONNACK session present 0), so the suite subscribed again. What each stream had delivered before the loss
     * ({@link #highest}) and when the new subscriptions took effect, in the subscribing engine's clock: after their
     * SUBSCRIBE was sent ({@link #from}) and before their SUBACK was read ({@link #to}).
     */
    @JsonPropertyOrder({"engine", "from", "to", "highest", "sentBefore", "sentAfter"})
    public static final class Lapse {
        @JsonProperty
        final int engine;
        @JsonProperty
        final long from;
        @JsonProperty
        final long to;
        /** The highest sequence number received before the loss, by stream id (a stream not in it: none). */
        @JsonProperty
        final Map<Integer, Long> highest;
        /**
         * Of the streams its engine published, by id: the highest sequence number surely sent before the new SUBSCRIBE
         * ({@link #sentBefore}) and the lowest surely sent after its SUBACK ({@link #sentAfter}), read from the
         * streams themselves, exact where send times are a step apart.
         */
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        final Map<Integer, Long> sentBefore;
        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        final Map<Integer, Long> sentAfter;

        public Lapse(int engine, long from, long to, Map<Integer, Long> highest) {
            this(engine, from, to, highest, null, null);
        }

        @JsonCreator
        public Lapse(@JsonProperty("engine") int engine, @JsonProperty("from") long from, @JsonProperty("to") long to,
                @JsonProperty("highest") Map<Integer, Long> highest,
                @JsonProperty("sentBefore") Map<Integer, Long> sentBefore,
                @JsonProperty("sentAfter") Map<Integer, Long> sentAfter) {
            this.engine = engine;
            this.from = from;
            this.to = to;
            this.highest = highest == null ? Map.of() : new TreeMap<>(highest);
            this.sentBefore = sentBefore == null ? Map.of() : new TreeMap<>(sentBefore);
            this.sentAfter = sentAfter == null ? Map.of() : new TreeMap<>(sentAfter);
        }

        /** The same lapse as booked by engine {@code engineNumber}. */
        Lapse on(int engineNumber) {
            return new Lapse(engineNumber, from, to, highest, sentBefore, sentAfter);
        }

        long highest(int streamId) {
            return highest.getOrDefault(streamId, 0L);
        }
    }

    /** How two engines' clocks differ: what turns a subscription's window into its publisher's clock. */
    @FunctionalInterface
    public interface Clocks {
        /** One engine's own clock: 0 ± 0; other engines' are not known. */
        Clocks SAME_ENGINE = (subscriber, publisher) -> subscriber == publisher ? new long[] {0, 0} : null;

        /**
         * The subscribing engine's clock minus the publishing engine's and the bound of that difference, µs, as
         * {@code [difference, bound]}; null when not measured.
         */
        long[] difference(int subscriberEngine, int publisherEngine);
    }

    /** Expected versus received over the scopes and streams given. */
    public static final class Result {
        public long expected;
        public long receivedOfExpected;
        /** Messages that arrived although the broker never acknowledged them to their publisher. */
        public long deliveredUnacknowledged;
        /** Messages a broker sent to their own publisher's no-local subscription, which MQTT 5 forbids. */
        public long deliveredDespiteNoLocal;
        /** Distinct messages received from streams not in the book (publishers outside the scopes' run or engine). */
        public long receivedFromUnknownStreams;
        /** {@code [expected, received, duplicates, reordered]} per Subscribe sampler label. */
        public final Map<String, long[]> bySampler = new TreeMap<>();
        /** {@code [expected, received, duplicates, reordered]} per broker node of the receivers, when the connection lists several. */
        public final Map<String, long[]> byNode = new TreeMap<>();
        /**
         * Shared groups owed messages that got none although the broker granted their filter: a broker without shared
         * subscriptions (at that MQTT version) took {@code $share/...} as an ordinary filter. Fails the verdict.
         */
        public long sharedGroupsUnserved;
        /**
         * What the ledger would owe those groups: owed to nobody, as the broker never made them groups, so left out of
         * {@link #expected} (and the subscribers' and nodes' figures) and counted here.
         */
        public long unservedSharedDeliveries;
        /**
         * Deliveries of messages published before the receiver's subscription could have taken effect (the send time's
         * latest against the SUBSCRIBE's, with the clocks' bound): owed to nobody, left out of {@link #expected}.
         */
        public long publishedBeforeSubscription;
        /**
         * Deliveries that did not arrive, of messages published while the subscription was being set up, as far as
         * the send times and the clocks' bound tell (or, the clocks not measured, before the first message of their
         * stream that arrived): neither owed nor lost, and not in {@link #expected}. Makes a run without loss uncertain.
         */
        public long undecidedAroundSubscription;
        /**
         * Deliveries that did not arrive of messages published while their subscriber's broker held no session for it
         * (between the connection's loss and the new subscription, see {@link Lapse}): owed to nobody, not in
         * {@link #expected}.
         */
        public long publishedWhileSessionLost;
        /** Of {@link #lost()}, what was owed to receivers whose broker kept their session across a lost connection. */
        public long lostFromKeptSessions;
        /** Receivers owed messages that got none of them: a shared group the broker does not serve, say. */
        public final List<String> receivedNothing = new ArrayList<>();

        public long lost() {
            return expected - receivedOfExpected;
        }
    }

    /**
     * One engine's book as it travels in its summary: every publish stream and every receiver scope. Merging the
     * ledgers of every engine gives exact expected-versus-received figures when publishers and subscribers run on
     * different engines.
     */
    @JsonPropertyOrder({"streams", "scopes"})
    public static final class Ledger {
        @JsonProperty
        final List<Stream> streams;
        @JsonProperty
        final List<Scope> scopes;

        @JsonCreator
        public Ledger(@JsonProperty("streams") List<Stream> streams, @JsonProperty("scopes") List<Scope> scopes) {
            this.streams = streams == null ? List.of() : List.copyOf(streams);
            this.scopes = scopes == null ? List.of() : List.copyOf(scopes);
        }

        public int streamCount() {
            return streams.size();
        }

        public int scopeCount() {
            return scopes.size();
        }

        /** (Receiver scope, stream) entries: what a ledger's size grows with besides its streams. */
        public long receivedCount() {
            long n = 0;
            for (Scope scope : scopes) {
                n += scope.seen.size();
            }
            return n;
        }
    }

    /**
     * What the receiver scopes of one engine's {@code ledger} received (distinct messages), by the number of the engine
     * that published them (the top bits of the stream id, {@link DeliveryLedger#LOCAL_STREAM_BITS}): which clocks meet
     * in that engine's pub-to-sub latencies.
     */
    public static Map<Integer, Long> receivedByPublishingEngine(Ledger ledger) {
        Map<Integer, Long> byEngine = new TreeMap<>();
        for (Scope scope : ledger.scopes) {
            scope.seen.forEach((stream, seen) -> byEngine.merge(stream >>> DeliveryLedger.LOCAL_STREAM_BITS, seen.unique,
                    Long::sum));
        }
        return byEngine;
    }

    /**
     * Adds one engine's ledger to {@code streams} and {@code scopes}. Scopes with the same key are one receiver (a
     * shared group with members on several engines): what its parts saw adds up.
     */
    public static void add(Ledger ledger, Map<Integer, Stream> streams, Map<String, Scope> scopes) {
        for (Stream s : ledger.streams) {
            streams.put(s.id, s);
        }
        for (Scope part : ledger.scopes) {
            Scope scope = scopes.computeIfAbsent(part.key, k -> new Scope(k, part.label));
            // Each part's window stays with its engine: only the clocks can tell which took effect first.
            scope.windows.addAll(part.windows);
            scope.lapses.addAll(part.lapses);
            scope.sessionsKept += part.sessionsKept;
            if (scope.label.isEmpty()) {
                scope.label = part.label;
            }
            String partNode = part.node == null ? "" : part.node;
            if (scope.node.isEmpty()) {
                scope.node = partNode;
            } else if (!partNode.isEmpty() && !scope.node.equals(partNode)) {
                scope.node = SEVERAL_NODES;
            }
            if (scope.grantedAt.isEmpty() && part.grantedAt != null) {
                scope.grantedAt = part.grantedAt;
            }
            part.filters.forEach(scope::addFilter);
            scope.noLocalFilters.addAll(part.noLocalFilters);
            part.seen.forEach(scope::see);
        }
    }

    /** Like {@link #check(Collection, Collection, Clocks)} with one engine's clock only. */
    public static Result check(Collection<Stream> streams, Collection<Scope> scopes) {
        return check(streams, scopes, Clocks.SAME_ENGINE);
    }

    /**
     * Expected versus received. A message is owed to a scope only if it was published after the scope's subscription
     * took effect: {@code clocks} turn the scope's windows into the publisher's clock (see {@link OwedDeliveries}).
     */
    public static Result check(Collection<Stream> streams, Collection<Scope> scopes, Clocks clocks) {
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
                if (scope.excludes(stream)) {
                    Seen own = scope.seen.get(stream.id);
                    r.deliveredDespiteNoLocal += own == null ? 0 : own.unique;
                    continue;
                }
                Seen seen = scope.seen.get(stream.id);
                long unique = seen == null ? 0 : seen.unique;
                long receivedAcknowledged = Math.min(stream.acknowledged, unique - receivedOf(stream, seen));
                r.deliveredUnacknowledged += unique - receivedAcknowledged;
                OwedDeliveries owed = OwedDeliveries.of(stream, scope, seen, receivedAcknowledged, clocks);
                r.publishedBeforeSubscription += owed.notOwed;
                r.publishedWhileSessionLost += owed.lapsed;
                r.undecidedAroundSubscription += owed.undecided;
                if (scope.sessionsKept > 0) {
                    r.lostFromKeptSessions += owed.expected - owed.received;
                }
                r.expected += owed.expected;
                r.receivedOfExpected += owed.received;
                if (!scope.node.isEmpty()) {
                    add(r.byNode.computeIfAbsent(scope.node, k -> new long[4]), owed.expected, owed.received, seen);
                }
                add(r.bySampler.computeIfAbsent(scope.label, k -> new long[4]), owed.expected, owed.received, seen);
                long[] forScope = perScope.computeIfAbsent(scope, k -> new long[2]);
                forScope[0] += owed.expected;
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
                // The filter as the plan wrote it: "perf/test/#" alone reads as an ordinary filter of topic perf/test.
                String group = "shared group $share/" + scope.key.substring(DeliveryLedger.SHARED_SCOPE_PREFIX.length());
                long matching = e.getValue()[0];
                if (scope.grantedAt == null || scope.grantedAt.isEmpty()) {
                    nothing.add(group + " received none of " + matching + " messages owed to it");
                } else {
                    r.sharedGroupsUnserved++;
                    notOwed(r, scope, matching);
                    nothing.add(group + " received none of the " + matching + " messages its filter matches, though the"
                            + " broker granted the filter at " + scope.grantedAt + ": the broker probably does not"
                            + " support shared subscriptions at " + scope.grantedAt + " (it takes $share/... as an"
                            + " ordinary filter, which no topic matches)");
                }
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
     * Takes what a receiver that got nothing was counted as owed back out of expected, its subscriber's and its node's
     * figures (it received none, so it added to nothing else), and counts it as owed to nobody.
     */
    private static void notOwed(Result r, Scope scope, long matching) {
        r.expected -= matching;
        r.bySampler.get(scope.label)[0] -= matching;
        if (!scope.node.isEmpty()) {
            r.byNode.get(scope.node)[0] -= matching;
        }
        r.unservedSharedDeliveries += matching;
    }

    /** Adds one (scope, stream) to a subscriber's or node's {@code [expected, received, duplicates, reordered]}. */
    private static void add(long[] figures, long expected, long received, Seen seen) {
        figures[0] += expected;
        figures[1] += received;
        if (seen != null) {
            figures[2] += seen.duplicates;
            figures[3] += seen.reordered;
        }
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
