package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outages a plan declared and how the clients they took offline came back: each affected client's loss, its
 * reconnect attempts, its return and whether the broker kept its session. A plan declares an outage in two ways: it
 * drops chosen clients itself ({@link #planned}), or it expects the broker to be restarted from outside
 * ({@link #brokerRestartExpected}), which is then seen as the connections lost after the declaration. Nothing is
 * recorded before a declaration, so a plan without one pays a volatile read per connection event. Instants are
 * {@link System#currentTimeMillis()}; the figures come out at the run's end ({@link #figures}) as counts.
 */
public final class RecoveryTracker {
    /** One affected client's outage: its first loss after the declaration until its return. */
    private static final class Outage {
        long lostAtMillis;
        long backAtMillis;
        int attempts;
        boolean sessionPresent;
        /** Messages received after the return that were sent before it (the backlog), and when the last arrived. */
        long backlog;
        long lastBacklogAtMillis;
    }

    private volatile boolean declared;
    /** Clients a planned outage is about to drop: their next loss is the outage's. */
    private final Set<String> planned = ConcurrentHashMap.newKeySet();
    /** When a broker restart was declared, 0: none; every client lost after it is affected. */
    private volatile long restartExpectedAtMillis;
    private volatile long boundMillis;
    private final Map<String, Outage> outages = new ConcurrentHashMap<>();

    /** A planned outage: {@code clientIds} are about to be dropped; recovery within {@code bound} ms is asked. */
    public void planned(Collection<String> clientIds, long bound) {
        planned.addAll(clientIds);
        bound(bound);
    }

    /** A broker restart is expected from now on: the connections lost after this are the outage's. */
    public void brokerRestartExpected(long atMillis, long bound) {
        if (restartExpectedAtMillis == 0) {
            restartExpectedAtMillis = atMillis;
        }
        bound(bound);
    }

    private synchronized void bound(long bound) {
        boundMillis = boundMillis == 0 ? bound : Math.min(boundMillis, bound);
        declared = true;
    }

    /** A client's connection was lost (dropped by the plan, or by the broker or the network). */
    public void lost(String clientId, long atMillis) {
        if (!declared || outages.containsKey(clientId)) {
            return;
        }
        long restart = restartExpectedAtMillis;
        if (planned.remove(clientId) || restart > 0 && atMillis >= restart) {
            Outage o = new Outage();
            o.lostAtMillis = atMillis;
            outages.put(clientId, o);
        }
    }

    /** The outage of {@code clientId}, or null: none declared, or the client not taken offline by one. */
    private Outage of(String clientId) {
        return declared ? outages.get(clientId) : null;
    }

    /** A reconnect attempt of a client. */
    public void attempt(String clientId) {
        Outage o = of(clientId);
        if (o == null) {
            return;
        }
        synchronized (o) {
            o.attempts += o.backAtMillis == 0 ? 1 : 0;
        }
    }

    /** A client's connection opened again after a loss, with the CONNACK's session present flag. */
    public void back(String clientId, long atMillis, boolean sessionPresent) {
        Outage o = of(clientId);
        if (o == null) {
            return;
        }
        synchronized (o) {
            if (o.backAtMillis == 0) {
                o.backAtMillis = Math.max(atMillis, o.lostAtMillis);
                o.sessionPresent = sessionPresent;
            }
        }
    }

    /**
     * A message a client received, sent at {@code sendMicros} (its header's, {@link MicroClock} microseconds), arrived
     * at {@code nowMicros}: sent before the client's return and arrived after it, it is the backlog the broker drained.
     */
    public void received(String clientId, long sendMicros, long nowMicros) {
        Outage o = of(clientId);
        if (o == null) {
            return;
        }
        synchronized (o) {
            if (o.backAtMillis > 0 && sendMicros / 1000 < o.backAtMillis) {
                o.backlog++;
                o.lastBacklogAtMillis = Math.max(o.lastBacklogAtMillis, nowMicros / 1000);
            }
        }
    }

    /** How many of {@code clientIds} lost their connection in a declared outage and are connected again. */
    public int backOf(Collection<String> clientIds) {
        int n = 0;
        for (String id : clientIds) {
            Outage o = outages.get(id);
            if (o != null) {
                synchronized (o) {
                    n += o.backAtMillis > 0 ? 1 : 0;
                }
            }
        }
        return n;
    }

    /** Clients declared outages took offline so far, and of them those connected again: the live panel's. */
    public long[] soFar() {
        long back = 0;
        long affected = 0;
        for (Outage o : outages.values()) {
            synchronized (o) {
                affected++;
                back += o.backAtMillis > 0 ? 1 : 0;
            }
        }
        return new long[] {affected, back};
    }

    /** Whether the plan declared an outage. */
    public boolean declared() {
        return declared;
    }

    /**
     * The recovery figures, as the counts they are declared as: times in milliseconds from {@code startedAtMillis}
     * (the engine's run start), at least 1 so that 0 keeps meaning "none"; the share times from the first loss.
     */
    public Map<Count, Long> figures(long startedAtMillis) {
        Map<Count, Long> f = new EnumMap<>(Count.class);
        List<Outage> all = new ArrayList<>(outages.values());
        long start = Long.MAX_VALUE;
        long end = 0;
        List<Long> recoveries = new ArrayList<>();
        List<Integer> attempts = new ArrayList<>();
        long kept = 0;
        long lost = 0;
        long backlog = 0;
        long drain = 0;
        Set<Outage> back = new HashSet<>();
        for (Outage o : all) {
            synchronized (o) {
                start = Math.min(start, o.lostAtMillis);
                if (o.backAtMillis > 0) {
                    back.add(o);
                    end = Math.max(end, o.backAtMillis);
                    attempts.add(o.attempts);
                    backlog += o.backlog;
                    drain = Math.max(drain, o.backlog == 0 ? 0 : Math.max(1, o.lastBacklogAtMillis - o.backAtMillis));
                    if (o.sessionPresent) {
                        kept++;
                    } else {
                        lost++;
                    }
                }
            }
        }
        for (Outage o : back) {
            recoveries.add(o.backAtMillis - start);
        }
        recoveries.sort(null);
        attempts.sort(null);
        f.put(Count.OUTAGE_CLIENTS, (long) all.size());
        f.put(Count.OUTAGE_CLIENTS_BACK, (long) back.size());
        f.put(Count.OUTAGE_START_MILLIS, all.isEmpty() ? 0 : Math.max(1, start - startedAtMillis));
        f.put(Count.OUTAGE_END_MILLIS, back.isEmpty() ? 0 : Math.max(1, end - startedAtMillis));
        f.put(Count.RECOVERY_P50_MILLIS, share(recoveries, all.size(), 50));
        f.put(Count.RECOVERY_P90_MILLIS, share(recoveries, all.size(), 90));
        f.put(Count.RECOVERY_P99_MILLIS, share(recoveries, all.size(), 99));
        f.put(Count.RECOVERY_P100_MILLIS, share(recoveries, all.size(), 100));
        f.put(Count.RECOVERY_BOUND_MILLIS, boundMillis);
        f.put(Count.RECOVERY_ATTEMPTS_MEDIAN, attempts.isEmpty() ? 0 : (long) attempts.get((attempts.size() - 1) / 2));
        f.put(Count.RECOVERY_ATTEMPTS_MAX, attempts.isEmpty() ? 0 : (long) attempts.get(attempts.size() - 1));
        f.put(Count.OUTAGE_SESSIONS_KEPT, kept);
        f.put(Count.OUTAGE_SESSIONS_LOST, lost);
        f.put(Count.BACKLOG_RECEIVED, backlog);
        f.put(Count.BACKLOG_DRAIN_MILLIS, drain);
        return f;
    }

    /**
     * The time until {@code percent} % of {@code affected} clients were back: the recovery of the client at that rank
     * (the smallest whole number of clients that is at least the share), at least 1 ms; 0 when fewer came back.
     */
    static long share(List<Long> sortedRecoveries, int affected, int percent) {
        if (affected == 0) {
            return 0;
        }
        int rank = (int) Math.max(1, (affected * (long) percent + 99) / 100);
        return rank > sortedRecoveries.size() ? 0 : Math.max(1, sortedRecoveries.get(rank - 1));
    }
}
