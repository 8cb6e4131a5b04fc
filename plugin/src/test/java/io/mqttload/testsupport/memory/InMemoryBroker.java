package io.mqttload.testsupport.memory;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ControlConnection;
import io.mqttload.client.LoadConnection;
import io.mqttload.client.MqttConnector;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.SubscribeOptions;

/**
 * An MQTT broker in memory that implements the engine's transport port ({@link MqttConnector}), so that the engine's
 * operations, drain, verdicts, summary and merge, and the rendezvous, run in tests within milliseconds, with no socket
 * and no process. Every host and port of the settings reach this one broker.
 *
 * <p>What it models, as the engine sees MQTT 3.1.1 and 5: topic matching with the suite's {@code TopicTrie}; QoS 0, 1
 * and 2 acknowledgements (a publish completes when the broker took the message; a subscriber gets the lower of the
 * publish's and the subscription's QoS, once per matching session); retained messages (set, replaced, cleared by an
 * empty payload, sent on subscribe unless retain handling says not); shared subscriptions {@code $share/group/filter}
 * (one member per message, round robin, online members first); no local; sessions (clean start or resumed, kept while
 * offline for a persistent 3.1.1 session or an MQTT 5 session expiry, with their subscriptions and their QoS 1 and 2
 * messages queued, delivered on reconnect with session present); a second connect with a client's id takes the session
 * over and closes the first connection (MQTT 5: DISCONNECT reason 0x8E; 3.1.1: just closed); the HiveMQ client's
 * reconnect (only after a connection that once worked, by its policy, subscribing again when the session was not
 * kept). Deliveries reach the listeners asynchronously on one broker thread (the event loop), in order per
 * subscription, as the real client's do.
 *
 * <p>Faults, set at any time, on every topic ({@code "#"}) or a filter: drop, duplicate, delay (a fixed time, by the
 * event loop's scheduler), reorder (a delivery held back until the next one to the same client has gone); disconnect a
 * client or all (the listener sees closed and lost, and the client reconnects by its policy), or restart as a broker
 * without persistence (sessions and retained messages forgotten too); refuse connects with a
 * CONNACK reason, or give no answer (the client's CONNACK timeout ends the connect); refuse subscriptions, or hold
 * every SUBSCRIBE unanswered and not set up until released, as a broker busy setting one up; take {@code $share/}
 * filters as ordinary ones (a broker without shared subscriptions). {@link Count}
 * counts what the broker did, for exact assertions.
 *
 * <p>What it does not model: the wire (encoding, packet and payload size limits, topic aliases), keep-alive and
 * PINGREQ, flow control (receive maximum, in-flight windows, back-pressure on a slow subscriber), message expiry,
 * will messages, authentication and access rules, TLS, WebSocket, local addresses, failover between nodes (every
 * node is this broker), a broker's own retries of unacknowledged deliveries, and the connect phases' instants (which
 * stay 0, so connect times are read whole).
 *
 * <p>A test's field with {@code @RegisterExtension} is closed after each test.
 */
public final class InMemoryBroker implements MqttConnector, AutoCloseable, AfterEachCallback {
    /** What the broker counts. */
    public enum Count {
        /** PUBLISH packets taken from clients, the control clients' included. */
        PUBLISHES_RECEIVED,
        /** Messages handed to a subscriber, a duplicate counting twice. */
        DELIVERIES,
        DROPPED,
        DUPLICATED,
        DELAYED,
        /** Deliveries held back by the reorder fault that a later delivery to the same client overtook. */
        REORDERED,
        /** QoS 1 and 2 messages queued for an offline session. */
        QUEUED_OFFLINE,
        CONNECTS_ACCEPTED,
        CONNECTS_REFUSED,
        CONNECTS_UNANSWERED,
        /** Connections the broker closed: the disconnect fault and session takeovers. */
        CONNECTIONS_CLOSED_BY_BROKER,
        SUBSCRIPTIONS_REFUSED,
        /** SUBSCRIBE packets held back by {@link #holdSubscriptions()}. */
        SUBSCRIBES_HELD
    }

    private static final long WAIT_MILLIS = 5_000;

    private final ScheduledThreadPoolExecutor loop;
    private final Map<Count, LongAdder> counts = new EnumMap<>(Count.class);
    private final Faults faults = new Faults();
    private final Map<String, String> refusedFilters = new ConcurrentHashMap<>();
    /** False for a broker without shared subscriptions: it takes {@code $share/group/filter} as an ordinary filter. */
    private volatile boolean sharedSubscriptions = true;
    /** False for a broker that sends retained messages only to filters without wildcards (RabbitMQ 3.x). */
    private volatile boolean retainedToWildcards = true;
    /** The CONNACK reason every connect gets refused with, "" for no answer at all, or null to accept. */
    private volatile String connectRefusal;
    /** The start of the client ids {@link #connectRefusal} applies to: "" for all. */
    private volatile String refusedPrefix = "";
    /** How many more connects {@link #connectRefusal} refuses; -1: all. */
    private final AtomicInteger refusalsLeft = new AtomicInteger(-1);
    private volatile boolean holdingSubscriptions;
    /** SUBSCRIBEs waiting for {@link #releaseSubscriptions()}: touched on the event loop only. */
    private final List<Runnable> heldSubscriptions = new ArrayList<>();
    /** Their SUBACKs, answered at {@link #releaseSubscriptions()}: touched on the event loop only. */
    private final List<Runnable> heldSubacks = new ArrayList<>();
    /** Sessions, subscriptions, retained messages: touched on the event loop only. */
    private final Routing routing = new Routing(this);

    /** The event loop's one thread, once started. */
    private volatile Thread loopThread;

    public InMemoryBroker() {
        loop = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "in-memory-broker");
            t.setDaemon(true);
            loopThread = t;
            return t;
        });
        // A connect's CONNACK timeout is cancelled when the CONNACK comes: thousands must not wait in the queue.
        loop.setRemoveOnCancelPolicy(true);
        for (Count c : Count.values()) {
            counts.put(c, new LongAdder());
        }
        // What BrokerIdentity asks for, so that a run's setup names this broker at once.
        execute(() -> routing.retain(new MemoryMessage("$SYS/broker/version",
                "in-memory broker".getBytes(StandardCharsets.UTF_8), 0, true, null)));
    }

    @Override
    public LoadConnection loadConnection(String clientId, InetAddress localAddress, ConnectionSettings settings,
            ReconnectPolicy reconnectPolicy, boolean ownEventLoop, LoadConnection.Listener listener) {
        boolean mqtt5 = settings.protocolVersion() == ProtocolVersion.MQTT_5;
        Link link = new Link(this, clientId, mqtt5, settings.cleanStart(), settings.sessionExpirySeconds(),
                reconnectPolicy, settings.connectTimeoutMs());
        return new MemoryLoadConnection(link, settings, listener);
    }

    @Override
    public ControlConnection controlConnection(String clientId, ConnectionSettings settings, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        return MemoryControlConnection.connect(this, clientId, settings.describe(), timeoutMillis, afterReconnect,
                onMessage);
    }

    @Override
    public ControlConnection controlConnection(String clientId, String host, int port, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        return MemoryControlConnection.connect(this, clientId, host + ":" + port, timeoutMillis, afterReconnect,
                onMessage);
    }

    /** Drops the deliveries {@code which} takes among those on topics matching {@code filter} ({@code "#"}: all). */
    public InMemoryBroker drop(Which which, String filter) {
        faults.add(Faults.Kind.DROP, filter, which, 0);
        return this;
    }

    /** Delivers twice the deliveries {@code which} takes among those on topics matching {@code filter}. */
    public InMemoryBroker duplicate(Which which, String filter) {
        faults.add(Faults.Kind.DUPLICATE, filter, which, 0);
        return this;
    }

    /** Delays every delivery on topics matching {@code filter} by {@code millis}. */
    public InMemoryBroker delay(long millis, String filter) {
        faults.add(Faults.Kind.DELAY, filter, Which.all(), millis);
        return this;
    }

    /** Swaps each delivery {@code which} takes with the next delivery to the same client. */
    public InMemoryBroker reorder(Which which, String filter) {
        faults.add(Faults.Kind.REORDER, filter, which, 0);
        return this;
    }

    /** Removes every drop, duplicate, delay and reorder rule. */
    public InMemoryBroker clearFaults() {
        faults.clear();
        return this;
    }

    /** Refuses every connect from now on with this CONNACK reason (e.g. {@code NOT_AUTHORIZED}). */
    public InMemoryBroker refuseConnects(String reason) {
        refusedPrefix = "";
        refusalsLeft.set(-1);
        connectRefusal = reason;
        return this;
    }

    /**
     * Refuses the next {@code times} connects of clients whose id starts with {@code clientIdPrefix} with this CONNACK
     * reason (e.g. {@code SERVER_BUSY}), then accepts them again: a broker that says "later". The engine's own control
     * clients, named otherwise, are not refused.
     */
    public InMemoryBroker refuseNextConnects(String clientIdPrefix, String reason, int times) {
        refusedPrefix = clientIdPrefix;
        refusalsLeft.set(times);
        connectRefusal = times > 0 ? reason : null;
        return this;
    }

    /** Answers no connect from now on: each ends with its client's CONNACK timeout. */
    public InMemoryBroker ignoreConnects() {
        connectRefusal = "";
        return this;
    }

    public InMemoryBroker acceptConnects() {
        refusedPrefix = "";
        refusalsLeft.set(-1);
        connectRefusal = null;
        return this;
    }

    /** Refuses subscriptions to exactly {@code filter} with this SUBACK reason (e.g. {@code NOT_AUTHORIZED}). */
    public InMemoryBroker refuseSubscribe(String filter, String reason) {
        refusedFilters.put(filter, reason);
        return this;
    }

    /**
     * Sets up no subscription from now on until {@link #releaseSubscriptions()}: a SUBSCRIBE waits unanswered, and
     * what is published meanwhile does not reach it, as with a broker still setting the subscription up.
     */
    public InMemoryBroker holdSubscriptions() {
        holdingSubscriptions = true;
        return this;
    }

    /**
     * Sets up the held SUBSCRIBEs in their order without answering them (what is published now reaches them), as a
     * broker whose SUBACK is still on its way; {@link #releaseSubscriptions()} answers them. Returns once done.
     */
    public void setUpHeldSubscriptions() {
        onLoop(() -> {
            heldSubscriptions.forEach(Runnable::run);
            heldSubscriptions.clear();
        });
    }

    /** Sets up the held SUBSCRIBEs in their order, answering each, and holds none from now on; returns once done. */
    public void releaseSubscriptions() {
        onLoop(() -> {
            holdingSubscriptions = false;
            heldSubscriptions.forEach(Runnable::run);
            heldSubscriptions.clear();
            heldSubacks.forEach(Runnable::run);
            heldSubacks.clear();
        });
    }

    /** Sends retained messages only to subscriptions without wildcards, as RabbitMQ 3.10 does. */
    public InMemoryBroker noRetainedToWildcards() {
        retainedToWildcards = false;
        return this;
    }

    boolean sendsRetainedTo(String filter) {
        return retainedToWildcards || !(filter.contains("#") || filter.contains("+"));
    }

    /**
     * From now on takes {@code $share/group/filter} as an ordinary filter, as a broker without shared subscriptions
     * does (amqtt, aedes, ActiveMQ 5 and Moquette at MQTT 3.1.1): granted, and matched by no topic of a run. For the
     * subscriptions made after it.
     */
    public InMemoryBroker shareFiltersAsPlainFilters() {
        sharedSubscriptions = false;
        return this;
    }

    /** Closes {@code clientId}'s connection as a broker that goes away would; returns once it is closed. */
    public void disconnect(String clientId) {
        onLoop(() -> routing.closeByBroker(clientId));
    }

    /** Closes every connection, the control clients' too; returns once they are closed. */
    public void disconnectAll() {
        onLoop(() -> routing.closeByBroker(null));
    }

    /**
     * Restarts as a broker without persistence: closes every connection (each client reconnects by its policy) and
     * forgets every session and retained message; returns once that is done.
     */
    public void restart() {
        onLoop(routing::restart);
    }

    /** Returns once every task the event loop has now (not the delayed deliveries) has run. */
    public void awaitIdle() {
        onLoop(() -> { });
    }

    public long count(Count c) {
        return counts.get(c).sum();
    }

    /** The retained message's payload on {@code topic} as text, or null when none is retained. */
    public String retained(String topic) {
        CompletableFuture<String> payload = new CompletableFuture<>();
        onLoop(() -> {
            MemoryMessage m = routing.retained(topic);
            payload.complete(m == null ? null : new String(m.payload, StandardCharsets.UTF_8));
        });
        return payload.getNow(null);
    }

    /** Ends the event loop; connections still open are left as they are, their futures unanswered. */
    @Override
    public void close() {
        loop.shutdownNow();
        try {
            // The executor counts as terminated just before its thread exits: join the thread too, so that a closed
            // broker has no thread left, whichever other brokers of other tests still run theirs.
            Thread thread = loopThread;
            if (!loop.awaitTermination(WAIT_MILLIS, TimeUnit.MILLISECONDS) || !joined(thread)) {
                throw new IllegalStateException("the in-memory broker's event loop did not end within " + WAIT_MILLIS
                        + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean joined(Thread thread) throws InterruptedException {
        if (thread != null) {
            thread.join(WAIT_MILLIS);
        }
        return thread == null || !thread.isAlive();
    }

    /** Whether this broker's event-loop thread still runs. */
    boolean loopThreadAlive() {
        Thread thread = loopThread;
        return thread != null && thread.isAlive();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    void count(Count c, long n) {
        counts.get(c).add(n);
    }

    Faults faults() {
        return faults;
    }

    boolean servesSharedSubscriptions() {
        return sharedSubscriptions;
    }

    /** The reason a SUBSCRIBE to {@code filter} is refused with, or null. */
    String subscribeRefusal(String filter) {
        return refusedFilters.get(filter);
    }

    void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            // Closed: what a client does after the broker's end goes unanswered, as with a broker that is gone.
        }
    }

    Future<?> schedule(Runnable task, long millis) {
        try {
            return loop.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Runs {@code task} on the event loop and waits for it, bounded. */
    private void onLoop(Runnable task) {
        ScheduledFuture<?> done = loop.schedule(task, 0, TimeUnit.MILLISECONDS);
        try {
            done.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the in-memory broker's event loop did not answer within " + WAIT_MILLIS
                    + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the in-memory broker", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the in-memory broker failed: " + e.getCause(), e.getCause());
        }
    }

    // Called by the links, on the event loop.

    void connect(Link link, CompletableFuture<Boolean> connack) {
        String refusal = link.clientId.startsWith(refusedPrefix) ? connectRefusal : null;
        if (refusal != null && refusal.isEmpty()) {
            count(Count.CONNECTS_UNANSWERED, 1);
            return;
        }
        if (refusal != null) {
            count(Count.CONNECTS_REFUSED, 1);
            if (refusalsLeft.get() > 0 && refusalsLeft.decrementAndGet() == 0) {
                connectRefusal = null;
            }
            connack.completeExceptionally(new ConnackRefused(refusal));
            return;
        }
        count(Count.CONNECTS_ACCEPTED, 1);
        routing.connect(link, connack);
    }

    void publish(Link from, MemoryMessage message, Consumer<Throwable> done) {
        if (!from.connected) {
            done.accept(new IllegalStateException("MQTT client is not connected."));
            return;
        }
        count(Count.PUBLISHES_RECEIVED, 1);
        routing.route(from, message);
        done.accept(null);
    }

    void subscribe(Link link, List<String> filters, int qos, SubscribeOptions options,
            CompletableFuture<Void> suback) {
        if (holdingSubscriptions) {
            count(Count.SUBSCRIBES_HELD, 1);
            CompletableFuture<Void> setUp = new CompletableFuture<>();
            heldSubscriptions.add(() -> routing.subscribe(link, filters, qos, options, setUp));
            heldSubacks.add(() -> setUp.whenComplete((v, e) -> {
                if (e == null) {
                    suback.complete(null);
                } else {
                    suback.completeExceptionally(e);
                }
            }));
            return;
        }
        routing.subscribe(link, filters, qos, options, suback);
    }

    void disconnected(Link link) {
        routing.offline(link);
    }

    /** A CONNACK with a refusal reason, read as the HiveMQ client's refusal reads. */
    static final class ConnackRefused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** MQTT 5 reason codes of the reasons tests name; any other is 0x80, unspecified error. */
        private static final Map<String, Integer> CODES = Map.of("BAD_USER_NAME_OR_PASSWORD", 0x86,
                "NOT_AUTHORIZED", 0x87, "SERVER_UNAVAILABLE", 0x88, "SERVER_BUSY", 0x89, "QUOTA_EXCEEDED", 0x97,
                "CONNECTION_RATE_EXCEEDED", 0x9F);
        /** The MQTT 5 reason code. */
        private final int code;

        ConnackRefused(String reason) {
            super("CONNACK refused: " + reason + " (in-memory broker)");
            this.code = CODES.getOrDefault(reason, 0x80);
        }

        /**
         * The code as a client of the version reads it: MQTT 3.1.1 has return codes 4 (bad user name or password),
         * 5 (not authorized) and 3 (server unavailable), which a 3.1.1 broker also sends for busy and over quota.
         */
        int code(boolean mqtt5) {
            if (mqtt5) {
                return code;
            }
            return code == 0x86 ? 4 : code == 0x87 || code == 0x80 ? 5 : 3;
        }
    }
}
