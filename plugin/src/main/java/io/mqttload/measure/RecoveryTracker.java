package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outages a plan declared and how the clients they took offline came back: each affected client's loss, its
 * reconnect attempts, its return and whether the broker kept its session. A plan declares an outage in two ways: it
 * drops chosen clients itself ({@link #planned}), or it expects the broker to be restarted from outside
 * ({@link #brokerRestartExpected}), which is then seen as the connections lost after the declaration. Each declaration
 * is a window of its own, and a client taken offline by several is counted once per window. Nothing is recorded before
 * a declaration, so a plan without one pays a volatile read per connection event and per received message. Instants
 * are {@link System#currentTimeMillis()}; the figures come out at the run's end ({@link #figures}) as counts.
 */
public final class RecoveryTracker {
    /** One affected client's outage: its loss in a window until its return. */
    private static final class Outage {
        final Window window;
        long lostAtMillis;
        long backAtMillis;
        int attempts;
        boolean sessionPresent;
        /** Messages received after the return that were sent before it (the backlog), and when the last arrived. */
        long backlog;
        long lastBacklogAtMillis;

        Outage(Window window, long lostAtMillis) {
            this.window = window;
            this.lostAtMillis = lostAtMillis;
        }
    }

    /** One declared outage and the clients' outages in it; its recovery is timed from its first loss. */
    private static final class Window {
        final List<Outage> outages = new ArrayList<>();
    }

    private volatile boolean declared;
    /** Clients a planned outage is about to drop, and its window: their next loss is the outage's. */
    private final Map<String, Window> planned = new ConcurrentHashMap<>();
    /** The broker restart declared last, and when; every client lost after it is affected. */
    private volatile Window restart;
    private volatile long restartExpectedAtMillis;
    /** Until when a loss is the declared restart's; a later one is a failure, not the outage. */
    private volatile long restartUntilMillis = Long.MAX_VALUE;
    private volatile long boundMillis;
    private final List<Window> windows = new ArrayList<>();
    /** Each affected client's latest outage: where its attempts, return and backlog go. */
    private final Map<String, Outage> current = new ConcurrentHashMap<>();

    /** A planned outage: {@code clientIds} are about to be dropped; recovery within {@code bound} ms is asked. */
    public void planned(Collection<String> clientIds, long bound) {
        Window w = declare(bound);
        for (String id : clientIds) {
            planned.put(id, w);
        }
    }

    /**
     * A broker restart is expected from now on: the connections lost in the next {@code windowMillis} (0: until the
     * run's end) are the outage's.
     */
    public void brokerRestartExpected(long atMillis, long bound, long windowMillis) {
        Window w = declare(bound);
        restartExpectedAtMillis = atMillis;
        restartUntilMillis = windowMillis == 0 ? Long.MAX_VALUE : atMillis + windowMillis;
        restart = w;
    }

    /** Whether {@code atMillis} falls in the declared restart's window. */
    private boolean inRestartWindow(long atMillis) {
        return restart != null && atMillis >= restartExpectedAtMillis && atMillis <= restartUntilMillis;
    }

    /**
     * Whether a declared outage holds {@code clientId} offline: a planned one about to drop it or whose loss it has not
     * come back from, or, not {@code connected}, a broker restart expected now.
     */
    public boolean away(String clientId, boolean connected) {
        if (!declared) {
            return false;
        }
        if (planned.containsKey(clientId)) {
            return true;
        }
        Outage o = current.get(clientId);
        if (o != null) {
            synchronized (o) {
                if (o.backAtMillis == 0) {
                    return true;
                }
            }
        }
        return !connected && inRestartWindow(System.currentTimeMillis());
    }

    private synchronized Window declare(long bound) {
        boundMillis = boundMillis == 0 ? bound : Math.min(boundMillis, bound);
        Window w = new Window();
        windows.add(w);
        declared = true;
        return w;
    }

    /** A client's connection was lost (dropped by the plan, or by the broker or the network). */
    public void lost(String clientId, long atMillis) {
        if (!declared) {
            return;
        }
        Outage previous = current.get(clientId);
        if (previous != null) {
            synchronized (previous) {
                if (previous.backAtMillis == 0) {
                    // Still away: a second loss notice of one outage.
                    return;
                }
            }
        }
        Window w = planned.remove(clientId);
        Window r = restart;
        // A restart window takes each client once: a later loss of a client back from it is no longer expected.
        if (w == null && r != null && inRestartWindow(atMillis) && (previous == null || previous.window != r)) {
            w = r;
        }
        if (w == null) {
            return;
        }
        Outage o = new Outage(w, atMillis);
        synchronized (this) {
            w.outages.add(o);
        }
        current.put(clientId, o);
    }

    /** The outage of {@code clientId}, or null: none declared, or the client not taken offline by one. */
    private Outage of(String clientId) {
        return declared ? current.get(clientId) : null;
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
            Outage o = current.get(id);
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
        for (Outage o : all()) {
            synchronized (o) {
                affected++;
                back += o.backAtMillis > 0 ? 1 : 0;
            }
        }
        return new long[] {affected, back};
    }

    /**
     * The recovery counts that have a value while the run goes, as of now ({@link #soFar}): the live InfluxDB points and
     * the Prometheus export write these beside the live counters, until the run's end gives the final {@link #figures}.
     */
    public Map<Count, Long> soFarCounts() {
        long[] s = soFar();
        Map<Count, Long> counts = new EnumMap<>(Count.class);
        counts.put(Count.OUTAGE_CLIENTS, s[0]);
        counts.put(Count.OUTAGE_CLIENTS_BACK, s[1]);
        return counts;
    }

    private synchronized List<Outage> all() {
        List<Outage> all = new ArrayList<>();
        for (Window w : windows) {
            all.addAll(w.outages);
        }
        return all;
    }

    /** Whether the plan declared an outage. */
    public boolean declared() {
        return declared;
    }

    /**
     * The recovery figures, as the counts they are declared as: times in milliseconds from {@code startedAtMillis}
     * (the engine's run start), at least 1 so that 0 keeps meaning "none"; the share times from each window's first loss,
     * the slowest window's.
     */
    public Map<Count, Long> figures(long startedAtMillis) {
        Map<Count, Long> f = new EnumMap<>(Count.class);
        long affected = 0;
        long back = 0;
        long start = Long.MAX_VALUE;
        long end = 0;
        List<Integer> attempts = new ArrayList<>();
        long kept = 0;
        long lost = 0;
        long backlog = 0;
        long drain = 0;
        long[] shares = new long[SHARES.length];
        boolean[] reached = {true, true, true, true};
        for (List<Outage> window : windowsCopy()) {
            long first = Long.MAX_VALUE;
            List<Long> backAt = new ArrayList<>();
            for (Outage o : window) {
                synchronized (o) {
                    first = Math.min(first, o.lostAtMillis);
                    if (o.backAtMillis > 0) {
                        backAt.add(o.backAtMillis);
                        end = Math.max(end, o.backAtMillis);
                        attempts.add(o.attempts);
                        backlog += o.backlog;
                        drain = Math.max(drain, o.backlog == 0 ? 0 : Math.max(1, o.lastBacklogAtMillis - o.backAtMillis));
                        kept += o.sessionPresent ? 1 : 0;
                        lost += o.sessionPresent ? 0 : 1;
                    }
                }
            }
            affected += window.size();
            back += backAt.size();
            start = Math.min(start, first);
            List<Long> recoveries = new ArrayList<>();
            for (long at : backAt) {
                recoveries.add(at - first);
            }
            recoveries.sort(null);
            // Several windows: each share is the slowest window's, and one that did not reach it is not reached.
            for (int i = 0; i < SHARES.length && !window.isEmpty(); i++) {
                long v = share(recoveries, window.size(), SHARES[i]);
                reached[i] &= v > 0;
                shares[i] = Math.max(shares[i], v);
            }
        }
        attempts.sort(null);
        f.put(Count.OUTAGE_CLIENTS, affected);
        f.put(Count.OUTAGE_CLIENTS_BACK, back);
        f.put(Count.OUTAGE_START_MILLIS, affected == 0 ? 0 : Math.max(1, start - startedAtMillis));
        f.put(Count.OUTAGE_END_MILLIS, back == 0 ? 0 : Math.max(1, end - startedAtMillis));
        for (int i = 0; i < SHARES.length; i++) {
            f.put(SHARE_COUNTS[i], reached[i] ? shares[i] : 0);
        }
        f.put(Count.RECOVERY_BOUND_MILLIS, boundMillis);
        f.put(Count.RECOVERY_ATTEMPTS_MEDIAN, attempts.isEmpty() ? 0 : (long) attempts.get((attempts.size() - 1) / 2));
        f.put(Count.RECOVERY_ATTEMPTS_MAX, attempts.isEmpty() ? 0 : (long) attempts.get(attempts.size() - 1));
        f.put(Count.OUTAGE_SESSIONS_KEPT, kept);
        f.put(Count.OUTAGE_SESSIONS_LOST, lost);
        f.put(Count.BACKLOG_RECEIVED, backlog);
        f.put(Count.BACKLOG_DRAIN_MILLIS, drain);
        return f;
    }

    private static final int[] SHARES = {50, 90, 99, 100};
    private static final Count[] SHARE_COUNTS = {Count.RECOVERY_P50_MILLIS, Count.RECOVERY_P90_MILLIS,
        Count.RECOVERY_P99_MILLIS, Count.RECOVERY_P100_MILLIS};

    private synchronized List<List<Outage>> windowsCopy() {
        List<List<Outage>> copy = new ArrayList<>();
        for (Window w : windows) {
            copy.add(new ArrayList<>(w.outages));
        }
        return copy;
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
