package io.mqttload.rendezvous;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ControlConnection;
import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.MqttConnector;
import io.mqttload.measure.MicroClock;

/**
 * Barriers across every engine of a run through a broker (the ScalAgent start protocol): each
 * arriving thread announces itself with a retained message on its own topic under the barrier's
 * topic, every engine counts the announcements it sees, and releases its waiting threads when the
 * count reaches the group size. No engine leads; since the broker fans the last announcement out to
 * every engine at once, all are released within milliseconds of each other.
 *
 * <p>One MQTT 3.1.1 client per engine (every broker speaks it), kept out of the load's counters.
 * Topics carry the run id and a generation per barrier, so a barrier can be passed again in the same
 * run and two runs on one broker never mix. Announcements are retained, so an engine that subscribes
 * after others announced still counts them; each engine clears its own once released.
 *
 * <p>Engines of one run that were given different run ids would wait at the same barrier under different topics
 * until the timeout. So each engine also says, once per barrier and not retained, under which run id it arrived,
 * on a topic without the run id; a waiting engine that hears another engine's arrival under another id answers
 * once (so that an engine arriving later learns of it too) and, when its barrier needs other engines' threads and
 * the ids were not both given on purpose (two runs that share a broker and barrier names on purpose each have
 * their own id), gives up at once naming both engines and both ids.
 */
public final class Rendezvous implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Rendezvous.class);
    private static final String ROOT = "mqttload/rendezvous/";
    /** Between connect attempts to a broker that gave no answer: it is busy, so give it a moment. */
    private static final long RECONNECT_PAUSE_MILLIS = 1_000;
    private static final long MIN_ATTEMPT_MILLIS = 1_000;
    /** Arrivals by run id, outside every run's topics; not under {@link #ROOT}, where a run id could be the same word. */
    private static final String ARRIVALS_ROOT = "mqttload/rendezvous-runs/";

    private final ControlConnection client;
    private final String runTopic;
    private final String engineId;
    private final String runId;
    private final boolean runIdGiven;
    private final String runIdOrigin;
    private final long operationTimeoutMillis;
    private final Map<String, Barrier> barriers = new ConcurrentHashMap<>();
    private final AtomicInteger nextArrival = new AtomicInteger();
    /** Set first thing in {@link #close()}: a reconnect during it must not announce again what is being cleared. */
    private volatile boolean closing;

    /** One barrier passage on this engine, and what it saw. */
    public static final class Barrier {
        public final String name;
        public final int generation;
        public final int groupSize;
        final String topic;
        final String arrivalsTopic;
        /** Whether this engine's own threads cannot fill the barrier: only then do other engines' run ids matter. */
        final boolean crossEngine;
        /** Other engines heard at this barrier under another run id, as "engine (run id)", with where their id came from. */
        private final Map<String, String> otherRuns = new ConcurrentHashMap<>();
        private final AtomicBoolean arrivalSaid = new AtomicBoolean();
        private volatile String mismatch;
        /** Set once this engine's subscriptions to the barrier are granted: its threads announce after that. */
        volatile boolean subscribed;
        private final Set<String> arrivals = ConcurrentHashMap.newKeySet();
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicBoolean broken = new AtomicBoolean();
        private final AtomicBoolean cleared = new AtomicBoolean();
        private final AtomicBoolean releaseReported = new AtomicBoolean();
        private final List<String> ownArrivals = new ArrayList<>();
        private final AtomicInteger localThreads = new AtomicInteger();
        private final AtomicLong firstWakeMicros = new AtomicLong(Long.MAX_VALUE);
        private final AtomicLong lastWakeMicros = new AtomicLong(Long.MIN_VALUE);
        private final long createdAtMicros = MicroClock.nowMicros();
        private volatile int arrivedAtRelease;
        private volatile long releasedAtMicros;

        Barrier(String name, int generation, int groupSize, String topic, String arrivalsTopic, boolean crossEngine) {
            this.name = name;
            this.generation = generation;
            this.groupSize = groupSize;
            this.topic = topic;
            this.arrivalsTopic = arrivalsTopic;
            this.crossEngine = crossEngine;
        }

        void onArrival(String arrivalTopic) {
            arrivals.add(arrivalTopic);
            if (arrivals.size() >= groupSize && released.getCount() > 0 && mismatch == null) {
                arrivedAtRelease = arrivals.size();
                releasedAtMicros = MicroClock.nowMicros();
                released.countDown();
            }
        }

        /** True for exactly one caller: the thread that reports this engine's release. */
        public boolean claimReleaseReport() {
            return isReleased() && releaseReported.compareAndSet(false, true);
        }

        public int arrived() {
            return arrivals.size();
        }

        public boolean isReleased() {
            return released.getCount() == 0 && mismatch == null;
        }

        /** Why this barrier cannot release (engines of this run arrived under another run id), or null. */
        public String mismatch() {
            return mismatch;
        }

        /** Other engines that arrived here under another run id, e.g. "engine-2 (run run-x)"; empty when none. */
        public Set<String> otherRuns() {
            return new TreeSet<>(otherRuns.keySet());
        }

        /** Ends the wait of every thread here without a release; true for the call that did it. */
        synchronized boolean giveUp(String why) {
            if (released.getCount() == 0) {
                return false;
            }
            mismatch = why;
            released.countDown();
            return true;
        }

        public boolean isBroken() {
            return broken.get();
        }

        public int localThreads() {
            return localThreads.get();
        }

        public int arrivedAtRelease() {
            return arrivedAtRelease;
        }

        public long releasedAtMicros() {
            return releasedAtMicros;
        }

        /** When the first and the last thread of this engine went on after the release (µs since the epoch). */
        public long firstWakeMicros() {
            return firstWakeMicros.get();
        }

        public long lastWakeMicros() {
            return lastWakeMicros.get();
        }

        /** Engines whose threads announced themselves, from the announcement topics. */
        public Set<String> enginesSeen() {
            Set<String> engines = new TreeSet<>();
            for (String a : arrivals) {
                String rest = a.substring(topic.length() + 1);
                engines.add(rest.substring(0, rest.indexOf('/')));
            }
            return engines;
        }

        public String describe() {
            return "'" + name + "' #" + generation;
        }
    }

    /** What happened to one thread at a barrier. */
    public static final class Passage {
        public final Barrier barrier;
        /** True when released; false when the wait timed out or the barrier was already broken by a timeout. */
        public final boolean released;
        /** True for the one thread whose timeout broke the barrier on this engine: it reports the failure. */
        public final boolean brokeIt;

        Passage(Barrier barrier, boolean released, boolean brokeIt) {
            this.barrier = barrier;
            this.released = released;
            this.brokeIt = brokeIt;
        }
    }

    /**
     * One engine's rendezvous client for the run {@code runId}, through the broker of {@code settings}.
     *
     * @param runIdGiven  whether every engine of the run got the id from one place (a property, its controller, its
     *                    fleet), not made up by the engine: two runs with ids given so may share a broker and barrier names
     * @param runIdOrigin where the run id came from, in words, for the message that names a mismatch
     */
    public Rendezvous(ConnectionSettings settings, String runId, boolean runIdGiven, String runIdOrigin, String engineId,
            int engineNumber) {
        this(HiveMqConnector.INSTANCE, settings, runId, runIdGiven, runIdOrigin, engineId, engineNumber, 0);
    }

    /**
     * As above, trying again for up to {@code patienceMillis} while the broker gives no answer in time: a broker busy
     * with a storm of the load's connects (RabbitMQ at 3,000 connects/s left an engine's control client without a
     * CONNACK for its whole timeout) answers a little later, and the barrier would wait that long anyway. A refusal, or
     * a broker that is not there, fails at once.
     *
     * @param connector the run's transport, which makes the rendezvous's control client
     * @throws IllegalStateException naming the broker and why, with the attempts made
     */
    public Rendezvous(MqttConnector connector, ConnectionSettings settings, String runId, boolean runIdGiven,
            String runIdOrigin, String engineId, int engineNumber, long patienceMillis) {
        this.engineId = engineId;
        this.runId = runId;
        this.runIdGiven = runIdGiven;
        this.runIdOrigin = runIdOrigin;
        this.runTopic = ROOT + topicLevel(runId) + "/";
        this.operationTimeoutMillis = settings.connectTimeoutMs();
        // Within 23 characters and distinct per engine and run; never one of the load's client ids.
        String id = "rdv-" + Integer.toHexString(engineNumber) + "-"
                + Integer.toHexString((runId + "/" + engineId).hashCode());
        // Reconnects after a broker restart, then subscribes again and re-announces its waiting threads: a broker
        // without persistence forgets both, and a barrier that waits through a restart would otherwise never release.
        this.client = connect(connector, id, settings, patienceMillis);
    }

    private ControlConnection connect(MqttConnector connector, String id, ConnectionSettings settings, long patienceMillis) {
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            // An attempt ends with the patience (a second at least): the barrier's timeout bounds the whole wait.
            long leftMillis = patienceMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long attemptMillis = patienceMillis <= 0 ? operationTimeoutMillis
                    : Math.min(operationTimeoutMillis, Math.max(MIN_ATTEMPT_MILLIS, leftMillis));
            try {
                return connector.controlConnection(id, settings, attemptMillis, this::restore, this::onMessage);
            } catch (ControlConnection.NoAnswer e) {
                long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                if (waitedMillis + RECONNECT_PAUSE_MILLIS >= patienceMillis || Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "rendezvous client %s (%d %s in %.1f s)",
                            e.getMessage(), attempt, attempt == 1 ? "attempt" : "attempts", waitedMillis / 1000.0), e);
                }
                log.warn("rendezvous client of {}: {} (attempt {}); trying again, for at most {} ms in all", engineId,
                        e.getMessage(), attempt, patienceMillis);
                try {
                    Thread.sleep(RECONNECT_PAUSE_MILLIS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("rendezvous client " + e.getMessage() + " (interrupted)", e);
                }
            } catch (IllegalStateException e) {
                throw new IllegalStateException("rendezvous client " + e.getMessage(), e);
            }
        }
    }

    /** After a reconnect: the subscriptions of every barrier, and the announcements of those still waiting. */
    private void restore() {
        if (closing) {
            return;
        }
        for (Barrier b : barriers.values()) {
            client.subscribe(b.topic + "/#", 1);
            client.subscribe(b.arrivalsTopic, 1);
            if (b.isReleased()) {
                continue;
            }
            List<String> own;
            synchronized (b.ownArrivals) {
                own = new ArrayList<>(b.ownArrivals);
            }
            for (String arrival : own) {
                announce(arrival);
            }
        }
    }

    /** One waiting thread's retained announcement. */
    private CompletableFuture<?> announce(String arrival) {
        return client.publish(arrival, engineId.getBytes(StandardCharsets.UTF_8), 1, true);
    }

    /** A topic level made of the characters that are safe in every broker's topic names. */
    static String topicLevel(String text) {
        return text.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private void onMessage(String topic, byte[] payload) {
        if (payload.length == 0) {
            return; // an announcement being cleared
        }
        if (topic.startsWith(ARRIVALS_ROOT)) {
            onArrivalUnderRunId(topic, payload);
            return;
        }
        for (Barrier b : barriers.values()) {
            if (topic.startsWith(b.topic + "/")) {
                b.onArrival(topic);
                return;
            }
        }
    }

    /** This engine's arrival at {@code b} under its run id: "given flag, engine id, origin, run id", one a line. */
    private byte[] arrivalUnderRunId() {
        return String.join("\n", runIdGiven ? "given" : "made", engineId, runIdOrigin, runId)
                .getBytes(StandardCharsets.UTF_8);
    }

    private void sayArrival(Barrier b) {
        client.publish(b.arrivalsTopic, arrivalUnderRunId(), 1, false);
    }

    /** Another engine (or this one) arrived at a barrier, under the run id it names. */
    private void onArrivalUnderRunId(String topic, byte[] payload) {
        String[] said = new String(payload, StandardCharsets.UTF_8).split("\n", 4);
        if (said.length < 4 || said[3].equals(runId)) {
            return; // this run's own engines: their announcements are counted under the run's topics
        }
        for (Barrier b : barriers.values()) {
            if (!topic.equals(b.arrivalsTopic) || b.isReleased()) {
                continue;
            }
            String other = said[1] + " (run " + said[3] + ")";
            if (b.otherRuns.putIfAbsent(other, said[2]) == null) {
                // Once per other engine: it may have arrived after this engine said so, and must hear it too.
                // Published off the client's event loop, which calls this method.
                ForkJoinPool.commonPool().execute(() -> sayArrival(b));
            }
            boolean bothGiven = runIdGiven && "given".equals(said[0]);
            if (b.crossEngine && !bothGiven) {
                b.giveUp(String.format(Locale.ROOT, "engine %s arrived under run id %s (%s), this engine %s under run id"
                        + " %s (%s): the engines of one run must share one run id (see docs/distributed.md, Run ids)",
                        said[1], said[3], said[2], engineId, runId, runIdOrigin));
            }
        }
    }

    /**
     * Announces one thread at generation {@code generation} of barrier {@code name} and waits until
     * {@code groupSize} threads of all engines have arrived, or {@code timeoutMillis} passed, or another
     * engine arrived there under another run id (see the class comment).
     *
     * @param crossEngine whether this engine's own threads cannot fill the barrier, so that it needs other engines
     */
    public Passage await(String name, int generation, int groupSize, long timeoutMillis, boolean crossEngine)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Barrier barrier = barrier(name, generation, groupSize, timeoutMillis, crossEngine);
        if (barrier.isBroken()) {
            return new Passage(barrier, false, false);
        }
        barrier.localThreads.incrementAndGet();
        String arrival = barrier.topic + "/" + topicLevel(engineId) + "/" + nextArrival.incrementAndGet();
        synchronized (barrier.ownArrivals) {
            barrier.ownArrivals.add(arrival);
        }
        String notAcknowledged = ControlConnection.await(announce(arrival), Math.max(1, remainingMillis(deadline)));
        if (notAcknowledged != null) {
            log.warn("MQTT rendezvous {}: announcement not acknowledged: {}", barrier.describe(), notAcknowledged);
        }
        if (barrier.arrivalSaid.compareAndSet(false, true)) {
            sayArrival(barrier);
        }
        boolean released = barrier.released.await(Math.max(0, remainingMillis(deadline)), TimeUnit.MILLISECONDS)
                && barrier.mismatch == null;
        long woke = MicroClock.nowMicros();
        if (!released) {
            return new Passage(barrier, false, barrier.broken.compareAndSet(false, true));
        }
        barrier.firstWakeMicros.accumulateAndGet(woke, Math::min);
        barrier.lastWakeMicros.accumulateAndGet(woke, Math::max);
        clearOwnAnnouncements(barrier);
        return new Passage(barrier, true, false);
    }

    private static long remainingMillis(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }

    /** The barrier's state on this engine; the first thread to reach it subscribes (bounded) before announcing. */
    private Barrier barrier(String name, int generation, int groupSize, long timeoutMillis, boolean crossEngine) {
        String key = name + "\u0000" + generation;
        Barrier existing = barriers.get(key);
        if (existing != null && existing.subscribed) {
            return existing;
        }
        // A barrier still being subscribed to is waited for (its first thread holds the lock while it subscribes): an
        // announcement sent before the subscription reaches this engine only as a retained message, which a broker
        // may not send to a wildcard subscription (RabbitMQ 3.10 does not), and the barrier would wait for it in vain.
        synchronized (barriers) {
            existing = barriers.get(key);
            if (existing != null) {
                return existing;
            }
            String level = topicLevel(name) + "/" + generation;
            Barrier b = new Barrier(name, generation, groupSize, runTopic + level, ARRIVALS_ROOT + level, crossEngine);
            // Registered before subscribing: retained announcements arrive right after the SUBACK.
            barriers.put(key, b);
            try {
                // The other runs' arrivals first: one that arrives while this engine announces is heard.
                client.subscribe(b.arrivalsTopic, 1, Math.min(timeoutMillis, operationTimeoutMillis));
                client.subscribe(b.topic + "/#", 1, Math.min(timeoutMillis, operationTimeoutMillis));
                b.subscribed = true;
            } catch (IllegalStateException e) {
                barriers.remove(key);
                throw new IllegalStateException("rendezvous " + b.describe() + ": " + e.getMessage(), e);
            }
            return b;
        }
    }

    /** Once released, this engine's announcements are removed from the broker (an empty retained message each). */
    private List<CompletableFuture<?>> clearOwnAnnouncements(Barrier barrier) {
        List<CompletableFuture<?>> sent = new ArrayList<>();
        if (!barrier.cleared.compareAndSet(false, true)) {
            return sent;
        }
        List<String> own;
        synchronized (barrier.ownArrivals) {
            own = new ArrayList<>(barrier.ownArrivals);
        }
        for (String topic : own) {
            sent.add(client.publish(topic, new byte[0], 1, true));
        }
        return sent;
    }

    /** Every barrier this engine passed or waited at, in no particular order. */
    public List<Barrier> barriers() {
        return new ArrayList<>(barriers.values());
    }

    /** Milliseconds this engine's first thread waited at {@code b} before the release. */
    public static double waitedMillis(Barrier b) {
        return b.isReleased() ? (b.releasedAtMicros - b.createdAtMicros) / 1000.0 : 0;
    }

    /** Leaves no announcement on the broker, also of barriers that timed out; then disconnects (bounded). */
    @Override
    public void close() {
        closing = true;
        List<CompletableFuture<?>> clearing = new ArrayList<>();
        for (Barrier b : barriers.values()) {
            clearing.addAll(clearOwnAnnouncements(b));
        }
        String failure = ControlConnection.await(CompletableFuture.allOf(clearing.toArray(new CompletableFuture<?>[0])),
                operationTimeoutMillis);
        String disconnect = client.close(operationTimeoutMillis);
        if (failure != null || disconnect != null) {
            log.debug("MQTT rendezvous client did not disconnect cleanly: {}", failure != null ? failure : disconnect);
        }
    }
}
