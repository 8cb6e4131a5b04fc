package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;

/**
 * One place that must receive every matching message once: a client's own subscriptions, or a
 * shared subscription group (whose members split the messages between them). Loss, duplicates and
 * reordering are tracked per scope and publish stream.
 */
public final class ReceiverScope {
    private final String key;
    private final List<String> filters = new CopyOnWriteArrayList<>();
    private final List<String> noLocalFilters = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<Integer, StreamTracker> streams = new ConcurrentHashMap<>();
    /** The label of the Subscribe sampler that made this scope: whose loss it is in the report. */
    private volatile String label = "";
    /** The broker node its subscribers are on; {@link #SEVERAL_NODES} for a shared group spread over nodes. */
    private volatile String node = "";
    /** The MQTT version at which the broker granted this shared group's filter (empty: not granted, or not shared). */
    private volatile String grantedAt = "";
    /** Per filter, its first subscription's window in this engine's clock: {@code [SUBSCRIBE sent, SUBACK received]} µs. */
    private final ConcurrentHashMap<String, long[]> windows = new ConcurrentHashMap<>();
    /** What each stream had delivered when the connection was lost, until the reconnect tells what became of it. */
    private Map<Integer, Long> beforeLoss;
    /** The lapses of this client's subscriptions, in this engine's clock, its number set at the snapshot; guarded by this. */
    private final List<DeliveryCheck.Lapse> lapses = new ArrayList<>();
    private long sessionsKept;

    ReceiverScope(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    /** A shared subscription group: its members split the messages, possibly across engines. */
    public boolean isShared() {
        return key.startsWith(DeliveryLedger.SHARED_SCOPE_PREFIX);
    }

    public String label() {
        return label;
    }

    /** The first subscribing sampler names the scope (a shared group's members usually share one). */
    public void labelIfUnset(String samplerLabel) {
        if (label.isEmpty() && samplerLabel != null) {
            label = samplerLabel;
        }
    }

    /** The node of a subscriber that joined; a scope whose subscribers sit on different nodes has no one node. */
    public synchronized void nodeOf(String subscriberNode) {
        if (node.isEmpty()) {
            node = subscriberNode;
        } else if (!node.equals(subscriberNode)) {
            node = DeliveryCheck.SEVERAL_NODES;
        }
    }

    /**
     * The broker granted this scope's filter to a client speaking {@code mqttVersion}. For a shared group that then
     * receives nothing, it says that the broker took the {@code $share/} filter without serving it as a group: a broker
     * without shared subscriptions at that version takes it as an ordinary filter that no topic matches.
     */
    public void granted(String mqttVersion) {
        if (isShared() && grantedAt.isEmpty()) {
            grantedAt = mqttVersion;
        }
    }

    /**
     * {@code filter} (without any $share prefix) was asked for at {@code askedMicros} and granted by {@code grantedMicros}
     * ({@code MicroClock}): the subscription took effect at the broker in between, and what was published before it is
     * owed to nobody. Only the first is kept: a later SUBSCRIBE of the same filter changes nothing that was owed.
     */
    public void subscribed(String filter, long askedMicros, long grantedMicros) {
        windows.putIfAbsent(filter, new long[] {askedMicros, grantedMicros});
    }

    /**
     * The subscribing client's connection was lost: what each stream has delivered so far is where a lapse of its
     * subscriptions would begin, should the broker it comes back to have kept no session for it.
     */
    public synchronized void connectionLost() {
        if (beforeLoss != null) {
            // Lost again before its subscriptions were granted back (a SUBSCRIBE cut short): the lapse began earlier.
            return;
        }
        Map<Integer, Long> highest = new TreeMap<>();
        for (var e : streams.entrySet()) {
            StreamTracker t = e.getValue();
            synchronized (t) {
                highest.put(e.getKey(), t.highest());
            }
        }
        beforeLoss = highest;
    }

    /**
     * The client came back to a broker that had kept its session: nothing lapsed, what was published meanwhile stays
     * owed; {@code promised} (a subscription at QoS 1 or 2) names its loss as loss against the broker's promise.
     */
    public synchronized void sessionKept(boolean promised) {
        beforeLoss = null;
        if (promised) {
            sessionsKept++;
        }
    }

    /** The streams this scope has received from. */
    public List<Integer> streamIds() {
        return new ArrayList<>(streams.keySet());
    }

    /**
     * The client came back to a broker that had kept no session for it and subscribed again, SUBSCRIBE sent at
     * {@code askedMicros} and SUBACK read by {@code grantedMicros}: its subscriptions lapsed from the loss to then.
     * {@code sentBefore} and {@code sentAfter}: see {@link DeliveryCheck.Lapse}.
     */
    public synchronized void lapsed(long askedMicros, long grantedMicros, Map<Integer, Long> sentBefore,
            Map<Integer, Long> sentAfter) {
        Map<Integer, Long> highest = beforeLoss == null ? Map.of() : beforeLoss;
        beforeLoss = null;
        lapses.add(new DeliveryCheck.Lapse(0, askedMicros, grantedMicros, highest, sentBefore, sentAfter));
    }

    /** The lapse could not be recorded (subscribing again failed): what was published meanwhile stays owed. */
    public synchronized void lapseUnrecorded() {
        beforeLoss = null;
    }

    /** Topic filters (without any $share prefix) whose messages this scope must receive. */
    public List<String> filters() {
        return filters;
    }

    void addFilter(String filter) {
        if (!filters.contains(filter)) {
            filters.add(filter);
        }
    }

    /** Marks {@code filter} as subscribed with no local (MQTT 5): the broker keeps the client's own messages from it. */
    void noLocal(String filter) {
        if (!noLocalFilters.contains(filter)) {
            noLocalFilters.add(filter);
        }
    }

    /** {@code filter} subscribed again without no local: the client's own messages on it are owed again. */
    void local(String filter) {
        noLocalFilters.remove(filter);
    }

    /** Tracks one measured message; called from the receiving client's Netty thread. */
    public void track(int streamId, int sequence, EngineMetrics metrics) {
        track(tracker(streamId), sequence, false, metrics);
    }

    /**
     * The tracker of publish stream {@code streamId} in this scope, created at its first message. It stays the
     * stream's for the scope's life, so a receiving client may keep it for the stream's next messages: the map
     * lookup was the largest part of the suite's own work per delivered message (docs/performance.md).
     */
    public StreamTracker tracker(int streamId) {
        StreamTracker tracker = streams.get(streamId);
        return tracker != null ? tracker : streams.computeIfAbsent(streamId, id -> new StreamTracker());
    }

    /**
     * Tracks one measured message of the stream whose tracker here is {@code tracker}; {@code exactlyOnce}: it came at
     * QoS 2, so a second copy is a broken promise, not the duplicate QoS 1 allows.
     */
    public void track(StreamTracker tracker, int sequence, boolean exactlyOnce, EngineMetrics metrics) {
        StreamTracker.Outcome outcome;
        long gap = 0;
        // Members of a shared group receive on different event-loop threads.
        synchronized (tracker) {
            outcome = tracker.accept(Integer.toUnsignedLong(sequence));
            if (outcome == StreamTracker.Outcome.GAP) {
                gap = tracker.lastGapSize();
            }
        }
        switch (outcome) {
            case GAP:
                metrics.count(Count.GAPS, null, null, gap);
                break;
            case REORDERED:
                metrics.reordered();
                break;
            case DUPLICATE:
                metrics.count(Count.DUPLICATES);
                if (exactlyOnce) {
                    metrics.count(Count.QOS2_DUPLICATES);
                }
                break;
            default:
                break;
        }
    }

    long missingInGaps() {
        long n = 0;
        for (StreamTracker t : streams.values()) {
            synchronized (t) {
                n += t.missingCount();
            }
        }
        return n;
    }

    /** This scope as the delivery check reads it: filters, and what it saw of every stream. */
    DeliveryCheck.Scope snapshot(int engineNumber) {
        DeliveryCheck.Scope scope = new DeliveryCheck.Scope(key, label);
        windows.forEach((filter, w) -> scope.windows.add(new DeliveryCheck.Window(filter, engineNumber, w[0], w[1])));
        synchronized (this) {
            lapses.forEach(l -> scope.lapses.add(l.on(engineNumber)));
            scope.sessionsKept = sessionsKept;
        }
        scope.node = node;
        scope.grantedAt = grantedAt;
        filters.forEach(scope::addFilter);
        noLocalFilters.forEach(scope.noLocalFilters::add);
        for (var e : streams.entrySet()) {
            StreamTracker t = e.getValue();
            synchronized (t) {
                scope.see(e.getKey(), t.seen(DeliveryLedger.MAX_EXPORTED_GAPS));
            }
        }
        return scope;
    }

    /** Whether a message of a stream whose id lacks {@code streamIdBase}'s engine bits has arrived here. */
    boolean hasStreamOutside(int engineNumber) {
        for (Integer id : streams.keySet()) {
            if ((id >>> DeliveryLedger.LOCAL_STREAM_BITS) != engineNumber) {
                return true;
            }
        }
        return false;
    }

}
