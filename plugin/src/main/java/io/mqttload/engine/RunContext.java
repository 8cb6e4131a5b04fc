package io.mqttload.engine;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.mqttload.client.ClientKeyStores;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.MqttConnector;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.traffic.LoadClient;

/**
 * What the operations of one run work with: its configuration, counters, delivery ledger and clients, and nothing of
 * the engine's lifecycle (ticker, drain, summary). One per run, made by its {@link EngineRuntime}.
 */
public final class RunContext {
    private final RunConfig config;
    private final EngineMetrics metrics;
    private final DeliveryLedger ledger;
    private final RunClients clients = new RunClients();
    private final ConcurrentHashMap<String, SamplerMetrics> samplers = new ConcurrentHashMap<>();
    /** The labels of the plan's samplers in plan order (see {@link #planSampler}), and how often each name came. */
    private final Map<String, Integer> planPositions = new HashMap<>();
    private final Map<String, Integer> namesSeen = new HashMap<>();
    private final ConcurrentHashMap<Double, RateLimiter> rateLimiters = new ConcurrentHashMap<>();
    /** Clients this engine has made, in connect order: the round-robin over broker nodes counts them. */
    private final AtomicLong clientOrdinal = new AtomicLong();
    /** The run's per-client key stores: each file read once, whichever threads' clients use it. */
    private final ClientKeyStores keyStores = new ClientKeyStores();
    /** The broker of the first MQTT Connect on this engine: where barriers go unless a timer names another. */
    private volatile ConnectionSettings firstConnection;
    private final Runnable onDisconnecting;
    private final Runnable onDraining;
    private final Consumer<ConnectionSettings> onFirstConnection;
    private final SetupRecorder setup;
    private final MqttConnector connector;

    /**
     * @param connector       how the run reaches its brokers, for every connection it makes
     * @param onDisconnecting what the engine does when the first MQTT Disconnect of the run begins
     * @param onDraining      what the engine does when an MQTT Disconnect begins to wait for its subscribers' messages
     * @param onFirstConnection what the engine does with the broker of the run's first MQTT Connect
     */
    RunContext(RunConfig config, MqttConnector connector, EngineMetrics metrics, DeliveryLedger ledger,
            Runnable onDisconnecting, Runnable onDraining, Consumer<ConnectionSettings> onFirstConnection) {
        this.config = config;
        this.connector = connector;
        this.metrics = metrics;
        this.ledger = ledger;
        this.onDisconnecting = onDisconnecting;
        this.onDraining = onDraining;
        this.onFirstConnection = onFirstConnection;
        // Short and random: an MQTT 3.1.1 broker takes ids of up to 23 characters, and engines must not share one.
        this.setup = new SetupRecorder(connector, "mlid-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36)
                + "-", config.brokerVersionTimeoutMillis());
    }

    /** The run's setup as its samplers run it, for the report. */
    public SetupRecorder setup() {
        return setup;
    }

    public RunConfig config() {
        return config;
    }

    /** The transport the run's connections go through. */
    public MqttConnector connector() {
        return connector;
    }

    public EngineMetrics metrics() {
        return metrics;
    }

    public DeliveryLedger ledger() {
        return ledger;
    }

    /** The group named {@code name} of the thread identified by {@code threadKey}, created on first use. */
    public ClientGroup group(Object threadKey, String name) {
        return clients.group(threadKey, name);
    }

    /** The names of the thread's groups that hold a client, sorted. */
    public List<String> groupsWithClients(Object threadKey) {
        return clients.groupsWithClients(threadKey);
    }

    /** The group if it exists, else null (a publish before any connect). */
    public ClientGroup existingGroup(Object threadKey, String name) {
        return clients.existingGroup(threadKey, name);
    }

    /**
     * Called for each MQTT sampler of the plan at test start, which JMeter runs in plan order before any thread
     * starts: the label its figures go under. That is its name, and for a later sampler of a name already met, the name
     * and its count ("MQTT Publish #2"), so that two samplers of one name are not added into one row.
     */
    public synchronized String planSampler(String name) {
        int seen = namesSeen.merge(name, 1, Integer::sum);
        String label = seen == 1 ? name : name + " #" + seen;
        planPositions.putIfAbsent(label, planPositions.size());
        return label;
    }

    /** The metrics of the sampler labelled {@code label}, created on first use. */
    public SamplerMetrics samplerMetrics(String label) {
        SamplerMetrics known = samplers.get(label);
        return known != null ? known : samplers.computeIfAbsent(label, l -> new SamplerMetrics(l, planPosition(l)));
    }

    private synchronized int planPosition(String label) {
        return planPositions.getOrDefault(label, SamplerMetrics.NOT_IN_PLAN);
    }

    /** The broker of this engine's first MQTT Connect, or null before any. */
    public ConnectionSettings firstConnection() {
        return firstConnection;
    }

    Collection<SamplerMetrics> samplers() {
        return samplers.values();
    }

    RunClients clients() {
        return clients;
    }

    void register(LoadClient client) {
        clients.register(client);
    }

    /** Notes the broker a Connect sampler used; the first one becomes the default for barriers. */
    void rememberConnection(ConnectionSettings settings) {
        boolean first;
        synchronized (this) {
            first = firstConnection == null;
            if (first) {
                firstConnection = settings;
            }
        }
        if (first) {
            onFirstConnection.accept(settings);
        }
        setup.brokersOf(settings);
    }

    /** The engine-wide limiter for a connection rate; every thread asking for the same rate shares it. */
    RateLimiter rateLimiter(double perSecond) {
        return rateLimiters.computeIfAbsent(perSecond, RateLimiter::new);
    }

    /** The key stores of the run's per-client certificates. */
    public ClientKeyStores keyStores() {
        return keyStores;
    }

    /** The next client's place among this engine's clients (0-based). */
    long nextClientOrdinal() {
        return clientOrdinal.getAndIncrement();
    }

    /** The first MQTT Disconnect of the run begins: see {@link EngineRuntime}. */
    void disconnecting() {
        onDisconnecting.run();
    }

    /** An MQTT Disconnect begins to wait for what its subscribers are still owed: see {@link EngineRuntime}. */
    void draining() {
        onDraining.run();
    }
}
