package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.mqttload.common.Checks;
import io.mqttload.common.SharedSubscription;
import io.mqttload.common.TopicMatcher;
import io.mqttload.measure.PayloadHeader;

/**
 * The engine's book of what was published and what must have arrived: publish streams on one
 * side, receiver scopes with their filters on the other. From both, the expected number of
 * deliveries is exact: each message the broker took counts once for every scope whose filters
 * match its topic. Computed on demand (at drain and at the end), never on the publish path.
 */
public final class DeliveryLedger {
    /** Stream ids carry the engine number in their top 12 bits, so ids never collide across engines. */
    public static final int LOCAL_STREAM_BITS = Integer.SIZE - PayloadHeader.ENGINE_BITS;
    static final String CLIENT_SCOPE_PREFIX = "client:";
    /** Whether a subscription of this engine has no local: only then do streams carry their publisher's id. */
    private volatile boolean anyNoLocal;
    public static final int MAX_ENGINE_NUMBER = (1 << (32 - LOCAL_STREAM_BITS)) - 1;
    static final String SHARED_SCOPE_PREFIX = "share:";
    /** Gaps per (scope, stream) beyond which a summary carries the missing count without the ranges. */
    static final int MAX_EXPORTED_GAPS = 1_000;

    private final int engineNumber;
    private final int streamIdBase;
    private final AtomicInteger nextLocalStream = new AtomicInteger();
    private final ConcurrentLinkedQueue<PublishStream> streams = new ConcurrentLinkedQueue<>();
    private final ConcurrentHashMap<Integer, PublishStream> streamsById = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ReceiverScope> scopes = new ConcurrentHashMap<>();
    private final AtomicLong lateSubscriptions = new AtomicLong();
    private volatile boolean sharedGroupsSpanEngines;

    public DeliveryLedger(int engineNumber) {
        Checks.between("mqttload.engineNumber", engineNumber, 0, MAX_ENGINE_NUMBER);
        this.engineNumber = engineNumber;
        this.streamIdBase = engineNumber << LOCAL_STREAM_BITS;
    }

    public PublishStream newStream(String topic) {
        return newStream(topic, null);
    }

    /** A stream of {@code publisher}'s (a client id; null: not known) messages on {@code topic}. */
    public PublishStream newStream(String topic, String publisher) {
        int local = nextLocalStream.incrementAndGet();
        if (local >= (1 << LOCAL_STREAM_BITS)) {
            throw new IllegalStateException("more than " + ((1 << LOCAL_STREAM_BITS) - 1)
                    + " (client, topic) publish streams on one engine; spread the publishers over more engines");
        }
        PublishStream s = new PublishStream(streamIdBase | local, topic, publisher);
        streams.add(s);
        streamsById.put(s.id(), s);
        return s;
    }

    /**
     * Whether a message was already sent on a stream whose topic {@code filter} matches. A subscription asked for
     * after one, or granted after one went out while it was being set up, may have missed messages that the ledger
     * owes it: see {@link #lateSubscription()}.
     */
    public boolean sentMatching(String filter) {
        for (PublishStream stream : streams) {
            if (stream.sentCount() > 0 && TopicMatcher.matches(filter, stream.topic())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The latest sequence number sent of each of these streams that this engine publishes: read before a SUBSCRIBE,
     * every one up to it was surely sent before it; read once its SUBACK is in, every one two above it surely after
     * (the one above may have been on its way as the number was read; a stream's messages leave one after another).
     */
    public Map<Integer, Long> lastSent(Collection<Integer> streamIds) {
        Map<Integer, Long> out = new TreeMap<>();
        for (Integer id : streamIds) {
            PublishStream s = streamsById.get(id);
            if (s != null) {
                out.put(id, s.lastSent());
            }
        }
        return out;
    }

    /** Counts a subscription that may have missed messages it matches: a loss the ledger reports may be overstated. */
    public void lateSubscription() {
        lateSubscriptions.incrementAndGet();
    }

    /** The scope of a client's own (non-shared) subscriptions. */
    public ReceiverScope clientScope(String clientId, String filter) {
        return clientScope(clientId, filter, false);
    }

    /** Like {@link #clientScope(String, String)}; with {@code noLocal}, the client's own messages on it are not owed. */
    public ReceiverScope clientScope(String clientId, String filter, boolean noLocal) {
        ReceiverScope scope = scopes.computeIfAbsent(CLIENT_SCOPE_PREFIX + clientId, ReceiverScope::new);
        scope.addFilter(filter);
        if (noLocal) {
            scope.noLocal(filter);
            anyNoLocal = true;
        } else {
            scope.local(filter);
        }
        return scope;
    }

    /** The scope of a shared subscription: its group splits the messages of {@code filter}. */
    public ReceiverScope sharedScope(SharedSubscription shared) {
        ReceiverScope scope = scopes.computeIfAbsent(SHARED_SCOPE_PREFIX + shared.group() + "/" + shared.filter(), ReceiverScope::new);
        scope.addFilter(shared.filter());
        return scope;
    }

    /**
     * Declares that other engines take part in the run: a shared group of the same name there may take
     * part of this engine's messages, so this engine alone cannot judge its shared groups.
     */
    public void sharedGroupsSpanEngines(boolean span) {
        this.sharedGroupsSpanEngines = span;
    }

    /**
     * Whether subscribers here received messages published on other engines: what those engines still
     * send is not in this ledger, so a drain must also wait for the traffic to go quiet.
     */
    public boolean receivesFromOtherEngines() {
        for (ReceiverScope scope : scopes.values()) {
            if (scope.hasStreamOutside(engineNumber)) {
                return true;
            }
        }
        return false;
    }

    /** Snapshot of what the ledger says about delivery right now. */
    public Delivery delivery() {
        return delivery(new ArrayList<>(scopes.values()));
    }

    /** Snapshot restricted to some receiver scopes (one thread's subscribers draining before disconnect). */
    public Delivery delivery(List<ReceiverScope> all) {
        List<DeliveryCheck.Scope> judged = new ArrayList<>(all.size());
        int sharedAcrossEngines = 0;
        long gapsOpen = 0;
        for (ReceiverScope scope : all) {
            gapsOpen += scope.missingInGaps();
            // Members elsewhere take their share of this engine's messages: only the merged report can judge the group.
            if (scope.isShared() && (sharedGroupsSpanEngines || scope.hasStreamOutside(engineNumber))) {
                sharedAcrossEngines++;
                continue;
            }
            judged.add(scope.snapshot(engineNumber));
        }
        List<DeliveryCheck.Stream> books = new ArrayList<>();
        for (PublishStream stream : streams) {
            books.add(stream.snapshot(anyNoLocal));
        }
        return new Delivery(DeliveryCheck.check(books, judged, DeliveryCheck.Clocks.SAME_ENGINE), gapsOpen, all.size(), books.size(),
                lateSubscriptions.get(), sharedAcrossEngines);
    }

    /**
     * The ledger as it travels in the engine summary: every publish stream (id, topic, messages acknowledged and
     * sent, failed sequence numbers) and every receiver scope (filters, and per stream what it saw).
     */
    public DeliveryCheck.Ledger book() {
        List<DeliveryCheck.Stream> books = new ArrayList<>();
        for (PublishStream stream : streams) {
            books.add(stream.snapshot(anyNoLocal));
        }
        List<DeliveryCheck.Scope> seen = new ArrayList<>();
        for (ReceiverScope scope : scopes.values()) {
            seen.add(scope.snapshot(engineNumber));
        }
        return new DeliveryCheck.Ledger(books, seen);
    }

    /** Expected versus received, exact for publishers and subscribers on this engine. */
    public static final class Delivery {
        /** Deliveries owed: each message the broker took, once per matching receiver scope. */
        public final long expected;
        /** Of those, how many arrived at least once. */
        public final long receivedOfExpected;
        /** Messages that arrived although the broker never acknowledged them (sent, not acknowledged, delivered). */
        public final long deliveredUnacknowledged;
        /** Messages sent to their own publisher's no-local subscription (a broker breaking MQTT 5). */
        public final long deliveredDespiteNoLocal;
        /** Distinct messages received from publishers this ledger does not hold (other engines, other runs). */
        public final long receivedFromUnknownStreams;
        /** Sequence numbers skipped and still missing (gaps), over every stream a scope received. */
        public final long missingInGaps;
        public final int receiverScopes;
        public final int publishStreams;
        /** Subscriptions made after messages they match had been published (see {@link #sentMatching}). */
        public final long lateSubscriptions;
        /** Shared groups left out of expected and received: their members may sit on other engines. */
        public final int sharedScopesAcrossEngines;
        /** Expected and received ({@code [expected, received]}) per Subscribe sampler label: whose loss it is. */
        public final Map<String, long[]> bySampler;
        /** Expected and received per broker node of the receivers. */
        public final Map<String, long[]> byNode;
        /** Receivers owed messages that got none (see {@link DeliveryCheck.Result#receivedNothing}). */
        public final List<String> receivedNothing;
        /** Shared groups the broker granted and never served (see {@link DeliveryCheck.Result#sharedGroupsUnserved}). */
        public final long sharedGroupsUnserved;
        /** What those groups' filters matched: owed to nobody, not in expected (see {@link DeliveryCheck.Result}). */
        public final long unservedSharedDeliveries;
        /** Deliveries owed to nobody: published before the subscription (see {@link DeliveryCheck.Result}). */
        public final long publishedBeforeSubscription;
        /** Missing deliveries neither owed nor lost (see {@link DeliveryCheck.Result#undecidedAroundSubscription}). */
        public final long undecidedAroundSubscription;
        /** Deliveries owed to nobody: published while the session was lost (see {@link DeliveryCheck.Result}). */
        public final long publishedWhileSessionLost;
        /** Of the loss, what was owed to sessions the broker kept (see {@link DeliveryCheck.Result}). */
        public final long lostFromKeptSessions;

        Delivery(DeliveryCheck.Result r, long missingInGaps, int receiverScopes, int publishStreams,
                long lateSubscriptions, int sharedScopesAcrossEngines) {
            this.expected = r.expected;
            this.receivedOfExpected = r.receivedOfExpected;
            this.deliveredUnacknowledged = r.deliveredUnacknowledged;
            this.deliveredDespiteNoLocal = r.deliveredDespiteNoLocal;
            this.receivedFromUnknownStreams = r.receivedFromUnknownStreams;
            this.bySampler = r.bySampler;
            this.byNode = r.byNode;
            this.receivedNothing = r.receivedNothing;
            this.sharedGroupsUnserved = r.sharedGroupsUnserved;
            this.unservedSharedDeliveries = r.unservedSharedDeliveries;
            this.publishedBeforeSubscription = r.publishedBeforeSubscription;
            this.undecidedAroundSubscription = r.undecidedAroundSubscription;
            this.publishedWhileSessionLost = r.publishedWhileSessionLost;
            this.lostFromKeptSessions = r.lostFromKeptSessions;
            this.missingInGaps = missingInGaps;
            this.receiverScopes = receiverScopes;
            this.publishStreams = publishStreams;
            this.lateSubscriptions = lateSubscriptions;
            this.sharedScopesAcrossEngines = sharedScopesAcrossEngines;
        }

        public long lost() {
            return expected - receivedOfExpected;
        }

        /**
         * What a drain waits for: the loss so far, and what the filters of granted shared groups that have received
         * nothing yet match; their first messages may still be on their way, and only at the run's end is such a
         * group one the broker does not serve.
         */
        public long stillMissing() {
            return lost() + unservedSharedDeliveries;
        }
    }
}
