package io.mqttload.client;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.reactivex.schedulers.Schedulers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.datatypes.MqttTopic;
import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperty;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;

import io.mqttload.common.NameTemplate;
import io.mqttload.common.SharedSubscription;
import io.mqttload.common.TopicMatcher;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.delivery.ReplyTracker;
import io.mqttload.delivery.StreamTracker;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.measure.SamplerMetrics;

/**
 * One MQTT client of the load: the HiveMQ asynchronous client (3.1.1 or 5) behind one small API,
 * with its publish streams, its subscriptions' receiver scopes, and the engine's counters wired to
 * its lifecycle. All methods return without blocking; callers bound their waits.
 */
public final class LoadClient {
    private static final Logger log = LoggerFactory.getLogger(LoadClient.class);
    /** Where the completions of waited-for publishes go: RxJava's computation threads, the client's default. */
    private static final Executor WAKER = task -> Schedulers.computation().scheduleDirect(task);
    /** Most replies a responder may have that the broker has not taken yet. */
    static final int MAX_REPLIES_IN_FLIGHT = 1000;
    private final String clientId;
    private final int index;
    private final ConnectionSettings settings;
    private final EngineMetrics metrics;
    /** The broker node this client is connected to (or was, last), and its counters; a failover changes it. */
    private volatile NodeMetrics node;
    /** The node a failover reconnect aims at, or null; the node this client's reconnects went through last. */
    private volatile NodeMetrics reconnectTarget;
    private final InetAddress localAddress;
    private final long consumeDelayNanos;
    /** The slow consumer's own event-loop thread, shut down with the client; null for every other client. */
    private final ExecutorService ownEventLoop;
    /** The Connect sampler that made this client: its connects and open connections. */
    private final SamplerMetrics connectSampler;
    /** The Subscribe sampler that last subscribed this client: what it receives. */
    private volatile SamplerMetrics receiveSampler;
    private final DeliveryLedger ledger;
    private final ReconnectPolicy reconnectPolicy;
    /** The protocol-version part: MQTT 3.1.1 or 5. */
    private final MqttSession session;
    private final AtomicBoolean connected = new AtomicBoolean();
    private volatile boolean everConnected;
    private volatile boolean closing;
    /** Receiver scopes of this client's subscriptions, in subscription order; replaced on change. */
    private volatile Subscription[] subscriptions = new Subscription[0];
    /** Messages this client received; written by its Netty thread only. */
    private final AtomicLong receivedCount = new AtomicLong();
    /** Whether this client answers requests (a responder); set by its MQTT Subscribe sampler. */
    private volatile boolean answeringRequests;
    /** A responder's replies not yet taken by the broker, bounded by {@link #MAX_REPLIES_IN_FLIGHT}. */
    private final AtomicInteger repliesInFlight = new AtomicInteger();
    private volatile ReplyTracker replies;
    /** Where the last received message's latency went; one object, so that a reader never sees half an update. */
    private volatile LatencyTarget lastLatencyTarget;
    /** The stream tracker the last received message went to, likewise. */
    private volatile TrackTarget lastTrackTarget;
    /** Publish streams by topic; touched only by the JMeter thread owning this client. */
    private final Map<String, PublishStream> streamsByTopic = new HashMap<>();
    private String lastTopic;
    private PublishStream lastStream;
    /** The last topic a per-client template expanded to for this client, and the template it came from. */
    private NameTemplate topicTemplate;
    private String topicOfTemplate;
    /** Bounds this client's unacknowledged QoS 1/2 publishes; created by the first asynchronous publish. */
    private Semaphore inFlight;

    /**
     * @param consumeDelayNanos processing time per received message (a slow consumer), or 0; such a client
     *                          gets an event-loop thread of its own, so its slowness stalls only its own socket
     */
    public LoadClient(String clientId, int index, InetAddress localAddress, ConnectionSettings settings, EngineMetrics metrics,
            SamplerMetrics connectSampler, DeliveryLedger ledger, ReconnectPolicy reconnectPolicy, long consumeDelayNanos) {
        this.clientId = clientId;
        this.consumeDelayNanos = consumeDelayNanos;
        this.connectSampler = connectSampler;
        this.index = index;
        this.settings = settings;
        this.metrics = metrics;
        this.node = metrics.nodes.node(settings.node().index, settings.node().name);
        this.localAddress = localAddress;
        this.ledger = ledger;
        this.reconnectPolicy = reconnectPolicy;
        MqttClientBuilder builder = MqttClient.builder()
                .identifier(clientId)
                .transportConfig(ClientConfigs.transport(settings, localAddress))
                .addConnectedListener(ctx -> onConnected())
                .addDisconnectedListener(this::onDisconnected);
        if (consumeDelayNanos > 0) {
            ownEventLoop = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mqttload-slow-consumer-" + clientId);
                t.setDaemon(true);
                return t;
            });
            builder.executorConfig(ClientConfigs.loadClients().extend().nettyExecutor(ownEventLoop).nettyThreads(1).build());
        } else {
            ownEventLoop = null;
            builder.executorConfig(ClientConfigs.loadClients());
        }
        this.session = MqttSession.of(builder, settings, this::onMessage);
    }

    public String clientId() {
        return clientId;
    }

    public int index() {
        return index;
    }

    /** The broker node's counters: publishes are counted on the publisher's node. */
    public NodeMetrics node() {
        return node;
    }

    /** The index of this client's broker node in the connection's list, for the payload header. */
    public int nodeIndex() {
        return node.index;
    }

    public boolean isConnected() {
        return connected.get();
    }

    /** Whether the client is between a lost connection and a reconnect attempt (or in one). */
    public boolean isReconnecting() {
        return !connected.get() && everConnected && !closing
                && session.state().isConnectedOrReconnect();
    }

    /** Connects; the future completes with whether the broker resumed a session. */
    public CompletableFuture<Boolean> connect() {
        long start = MicroClock.nowMicros();
        CompletableFuture<Boolean> result = session.connect(settings);
        return result.whenComplete((present, error) -> {
            if (error == null) {
                metrics.connected(connectSampler, node, MicroClock.nowMicros() - start);
            } else {
                metrics.failed(FailureTally.Kind.CONNECT, connectSampler, connectFailure(error));
            }
        });
    }

    /**
     * Why a connect failed. A broker that speaks only MQTT 3.1.1 closes the connection on an MQTT 5 CONNECT without a
     * CONNACK (RabbitMQ 3.x does): the client only sees the connection closed, so the reason says what it likely means.
     */
    public String connectFailure(Throwable error) {
        String reason = Errors.reason(error);
        if (session.isMqtt5() && Errors.unwrap(error) instanceof ConnectionClosedException) {
            return reason + " (no CONNACK to an MQTT 5 CONNECT: the broker may speak only MQTT 3.1.1; try mqttVersion"
                    + " = MQTT_3_1_1)";
        }
        return reason;
    }

    private void onConnected() {
        NodeMetrics target = reconnectTarget;
        reconnectTarget = null;
        if (target != null && target != node) {
            metrics.failedOver(node, target);
            node = target;
        }
        if (connected.compareAndSet(false, true)) {
            metrics.connections(connectSampler, node, 1);
        }
        if (everConnected) {
            metrics.count(Count.RECONNECTS);
        }
        everConnected = true;
    }

    private void onDisconnected(MqttClientDisconnectedContext ctx) {
        boolean wasConnected = connected.compareAndSet(true, false);
        if (wasConnected) {
            metrics.connections(connectSampler, node, -1);
        }
        if (ctx.getSource() == MqttDisconnectSource.USER || closing) {
            return;
        }
        if (wasConnected) {
            if (Errors.isProtocolViolation(ctx.getSource(), ctx.getCause())) {
                // Counted as a lost connection too, but its reason is the violation, listed once.
                metrics.failed(FailureTally.Kind.PROTOCOL_VIOLATION, connectSampler, node,
                        "the client closed the connection: " + ctx.getCause().getMessage());
            } else {
                // With several nodes the reason names the node: which one went away shows in the verdict.
                String reason = Errors.reason(ctx.getCause());
                metrics.failed(FailureTally.Kind.CONNECTION_LOST, connectSampler, node,
                        settings.nodes().size() > 1 ? "node " + node.name + ": " + reason : reason);
            }
            String cause = clientId + ": " + Errors.describe(ctx.getCause());
            if (metrics.lastConnectionLoss.getAndSet(cause) == null) {
                log.warn("MQTT connection lost (first of the run; the summary counts all): {}", cause);
            }
        }
        // Only a connection that once worked is retried: a first connect that fails is reported at once.
        if (everConnected) {
            int attempt = ctx.getReconnector().getAttempts();
            if (attempt < reconnectPolicy.maxAttempts()) {
                if (settings.failover()) {
                    // Each attempt tries the next node after the one tried last, the lost node coming round again.
                    NodeMetrics last = reconnectTarget == null ? node : reconnectTarget;
                    int next = (last.index + 1) % settings.nodes().size();
                    BrokerNode target = settings.nodes().get(next);
                    ctx.getReconnector().transportConfig(ClientConfigs.transport(settings.forNode(next), localAddress));
                    reconnectTarget = metrics.nodes.node(next, target.name);
                }
                ctx.getReconnector().reconnect(true).delay(reconnectPolicy.delayMillis(attempt), TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Publishes one message; the future completes when the broker took it: written (QoS 0), PUBACK
     * (QoS 1) or PUBCOMP (QoS 2). The HiveMQ client's future API completes QoS 2 at PUBREC, before
     * the flow is done, so QoS 2 goes through its reactive API, whose stream completes at PUBCOMP.
     * The future completes on a computation thread, not on the event loop: it is for a thread that
     * waits (synchronous publishing), and waking one waiter per message from the event loop let
     * each waiter preempt it, which cost more than the hand-off (docs/performance.md).
     */
    public CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain,
            PublishProperties properties) {
        return session.publish(topic, payload, mqttQos(qos), retain, properties).thenApplyAsync(done -> done, WAKER);
    }

    /** The client library's QoS for 0, 1 or 2 (checked where the plan sets it). */
    private static MqttQos mqttQos(int qos) {
        MqttQos q = MqttQos.fromCode(qos);
        if (q == null) {
            throw new IllegalArgumentException("MQTT QoS must be 0, 1 or 2, not " + qos);
        }
        return q;
    }

    /**
     * Publishes one message and calls {@code done} (with null, or the error) when the broker took it,
     * like {@link #publish} but without an intermediate future: the asynchronous publish path runs
     * this once per message.
     */
    public void publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        session.publish(topic, payload, mqttQos(qos), retain, properties, done);
    }

    /** Whether this client speaks MQTT 5 (MQTT 5 properties and subscription options need it). */
    public boolean isMqtt5() {
        return session.isMqtt5();
    }

    /**
     * This client's in-flight window. MQTT 3.1.1 has no Receive Maximum, and a broker may close a
     * connection that exceeds its own limit (Mosquitto does beyond max_inflight_messages for QoS 2),
     * so the suite bounds it per client as well as per thread. Called by the owning thread only.
     */
    public Semaphore inFlight(int limit) {
        if (inFlight == null) {
            inFlight = new Semaphore(limit);
        }
        return inFlight;
    }

    /**
     * The topic of a template whose placeholders do not change per message: expanded once per client
     * instead of once per message. Called by the owning thread only.
     */
    public String topic(NameTemplate template, NameTemplate.Values values) {
        if (template != topicTemplate) {
            topicOfTemplate = template.expand(values);
            topicTemplate = template;
        }
        return topicOfTemplate;
    }

    /** The stream for messages of this client on {@code topic}; called by the owning JMeter thread only. */
    public PublishStream stream(String topic) {
        if (topic.equals(lastTopic)) {
            return lastStream;
        }
        PublishStream s = streamsByTopic.get(topic);
        if (s == null) {
            s = ledger.newStream(topic, clientId);
            streamsByTopic.put(topic, s);
        }
        lastTopic = topic;
        lastStream = s;
        return s;
    }

    /** Attributes what this client receives from now on to {@code sampler}. */
    public void receiveInto(SamplerMetrics sampler) {
        receiveSampler = sampler;
    }

    /**
     * Subscribes to {@code filters} at {@code qos}. The future completes normally when the broker
     * granted every filter, and exceptionally with {@link SubscribeRefusedException} naming each
     * refused filter and its code otherwise.
     */
    public CompletableFuture<Void> subscribe(List<String> filters, int qos, SubscribeOptions options) {
        List<Subscription> added = registerScopes(filters, options.noLocal());
        return session.subscribe(filters, mqttQos(qos), options).thenRun(() -> checkSentMeanwhile(added));
    }

    /**
     * Whether this client answers every received request (an MQTT 5 message with a response topic) from now on, as
     * its latest MQTT Subscribe says; see {@link #answer}.
     */
    public void answerRequests(boolean answer) {
        answeringRequests = answer;
    }

    /**
     * Messages published on matching topics while the broker set the subscription up (by other threads or engines'
     * publishers) may not have reached it, though the ledger owes them: the subscription counts as late.
     */
    private void checkSentMeanwhile(List<Subscription> added) {
        for (Subscription s : added) {
            if (!s.lateWhenAsked && ledger.sentMatching(s.filter)) {
                ledger.lateSubscription();
            }
        }
    }

    /** Registers the filters' receiver scopes, noting the matching messages already sent; returns the new subscriptions. */
    private List<Subscription> registerScopes(List<String> filters, boolean noLocal) {
        List<Subscription> added = new ArrayList<>(filters.size());
        for (String f : filters) {
            boolean isShared = SharedSubscription.isShared(f);
            SharedSubscription shared = isShared ? SharedSubscription.parse("topicFilters", f) : null;
            String filter = isShared ? shared.filter() : f;
            boolean late = ledger.sentMatching(filter);
            if (late) {
                ledger.lateSubscription();
            }
            ReceiverScope scope = isShared ? ledger.sharedScope(shared) : ledger.clientScope(clientId, f, noLocal);
            scope.labelIfUnset(receiveSampler == null ? null : receiveSampler.label);
            scope.nodeOf(node.name);
            added.add(new Subscription(filter, scope, late));
        }
        List<Subscription> next = new ArrayList<>(List.of(subscriptions));
        next.addAll(added);
        subscriptions = next.toArray(new Subscription[0]);
        return added;
    }

    /** Runs on the client's Netty thread: counting, recording and (for a responder) an asynchronous reply; no blocking. */
    private void onMessage(MqttTopic topic, ByteBuffer payload, Mqtt5Publish mqtt5) {
        long now = MicroClock.nowMicros();
        if (consumeDelayNanos > 0) {
            // A slow consumer: reading stalls while it "processes", so the broker sees a slow socket.
            LockSupport.parkNanos(consumeDelayNanos);
        }
        if (mqtt5 != null && isReply(mqtt5)) {
            // A reply: its own figures, outside the delivery ledger; only the requester's first one is an answer.
            reply(payload, now);
            return;
        }
        SamplerMetrics sampler = receiveSampler;
        receivedCount.lazySet(receivedCount.get() + 1);
        metrics.received(sampler, node, payload == null ? 0 : payload.remaining());
        if (answeringRequests && mqtt5 != null) {
            answer(mqtt5, payload);
        }
        if (payload == null || !PayloadHeader.isPlausible(payload, now)) {
            metrics.count(Count.RECEIVED_UNMEASURED);
            return;
        }
        latencyRecorder(sampler, PayloadHeader.node(payload)).record(now - PayloadHeader.sendMicros(payload));
        ReceiverScope scope = scopeFor(topic);
        if (scope != null) {
            scope.track(tracker(scope, PayloadHeader.streamId(payload)), PayloadHeader.sequence(payload), metrics);
        }
    }

    /** The scope's tracker of a stream: looked up only when scope or stream differ from the last message's. */
    private StreamTracker tracker(ReceiverScope scope, int streamId) {
        TrackTarget last = lastTrackTarget;
        if (last == null || last.scope != scope || last.streamId != streamId) {
            last = new TrackTarget(scope, streamId, scope.tracker(streamId));
            lastTrackTarget = last;
        }
        return last.tracker;
    }

    private void reply(ByteBuffer payload, long now) {
        ReplyTracker tracker = replies;
        if (tracker == null || payload == null || !PayloadHeader.isPlausible(payload, now)) {
            metrics.count(Count.REPLIES_FOREIGN);
            return;
        }
        switch (tracker.accept(PayloadHeader.streamId(payload), PayloadHeader.sequence(payload))) {
            case FIRST:
                metrics.count(Count.REPLIES_RECEIVED);
                metrics.roundTripLatency.record(now - PayloadHeader.sendMicros(payload));
                break;
            case DUPLICATE:
                metrics.count(Count.REPLY_DUPLICATES);
                break;
            default:
                metrics.count(Count.REPLIES_FOREIGN);
                break;
        }
    }

    /** This client's requests and their replies; created by the owning JMeter thread at its first request. */
    public ReplyTracker replies() {
        ReplyTracker r = replies;
        if (r == null) {
            r = new ReplyTracker();
            replies = r;
        }
        return r;
    }

    /** Requests of this client the broker took that have no reply yet (0 for a client that sent none). */
    public long repliesOwed() {
        ReplyTracker r = replies;
        return r == null ? 0 : Math.max(0, r.owed());
    }

    /** Replies this client (a responder) sent that the broker has not yet taken. */
    public int repliesInFlight() {
        return repliesInFlight.get();
    }

    private static boolean isReply(Mqtt5Publish message) {
        for (Mqtt5UserProperty p : message.getUserProperties().asList()) {
            if (p.getName().toString().equals(PublishProperties.REPLY_PROPERTY)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A responder's answer to a request: the request's payload (so its measurement header, with the request's send
     * time, travels back for the round trip) to its response topic, with its correlation data, at its QoS.
     */
    private void answer(Mqtt5Publish request, ByteBuffer payload) {
        if (request.getResponseTopic().isEmpty()) {
            return;
        }
        byte[] body = payload == null ? new byte[0] : copy(payload);
        byte[] correlation = request.getCorrelationData().map(LoadClient::copy).orElse(null);
        SamplerMetrics sampler = receiveSampler;
        if (repliesInFlight.incrementAndGet() > MAX_REPLIES_IN_FLIGHT) {
            // The client queues publishes beyond the broker's receive maximum without bound: refuse instead.
            repliesInFlight.decrementAndGet();
            metrics.replyFailed(sampler, "responder has " + MAX_REPLIES_IN_FLIGHT + " replies the broker has not taken");
            return;
        }
        metrics.count(Count.REPLIES_PENDING);
        try {
            session.publish(request.getResponseTopic().get().toString(), body, request.getQos(), false,
                    PublishProperties.reply(correlation), error -> {
                        repliesInFlight.decrementAndGet();
                        metrics.replySettled(sampler, error == null ? null : Errors.reason(error));
                    });
        } catch (RuntimeException e) {
            repliesInFlight.decrementAndGet();
            metrics.replySettled(sampler, Errors.reason(e));
        }
    }

    /** The buffer's remaining bytes: the client's buffers are only valid during its callback. */
    private static byte[] copy(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** The recorder of a message from {@code publisherNode}: looked up only when it differs from the last one's. */
    private LatencyRecorder latencyRecorder(SamplerMetrics sampler, int publisherNode) {
        NodeMetrics on = node;
        LatencyTarget last = lastLatencyTarget;
        if (last == null || last.sampler != sampler || last.node != on || last.publisherNode != publisherNode) {
            last = new LatencyTarget(sampler, on, publisherNode, metrics.pubToSubRecorder(sampler, on, publisherNode));
            lastLatencyTarget = last;
        }
        return last.recorder;
    }

    /** The scope of the subscription a message arrived for; the topic is decoded only when there are several. */
    private ReceiverScope scopeFor(MqttTopic topic) {
        Subscription[] subs = subscriptions;
        if (subs.length == 1) {
            return subs[0].scope;
        }
        String name = topic.toString();
        for (Subscription s : subs) {
            if (TopicMatcher.matches(s.filter, name)) {
                return s.scope;
            }
        }
        return null;
    }

    public long receivedCount() {
        return receivedCount.get();
    }

    public boolean hasSubscriptions() {
        return subscriptions.length > 0;
    }

    /** The receiver scopes of this client's subscriptions. */
    public List<ReceiverScope> scopes() {
        List<ReceiverScope> out = new ArrayList<>();
        for (Subscription s : subscriptions) {
            if (!out.contains(s.scope)) {
                out.add(s.scope);
            }
        }
        return out;
    }

    /** Sends DISCONNECT; the future completes when it was sent or the client was not connected. */
    public CompletableFuture<Void> disconnect() {
        closing = true;
        CompletableFuture<Void> f = session.disconnect();
        return f.handle((ok, error) -> {
            if (error == null) {
                metrics.count(Count.DISCONNECTS);
            }
            if (ownEventLoop != null) {
                ownEventLoop.shutdown();
            }
            return null;
        });
    }

    /** A receiver scope, a publish stream and the scope's tracker of it. */
    private static final class TrackTarget {
        final ReceiverScope scope;
        final int streamId;
        final StreamTracker tracker;

        TrackTarget(ReceiverScope scope, int streamId, StreamTracker tracker) {
            this.scope = scope;
            this.streamId = streamId;
            this.tracker = tracker;
        }
    }

    /** A (sampler, node, publisher node) and its pub-to-sub recorder. */
    private static final class LatencyTarget {
        final SamplerMetrics sampler;
        final NodeMetrics node;
        final int publisherNode;
        final LatencyRecorder recorder;

        LatencyTarget(SamplerMetrics sampler, NodeMetrics node, int publisherNode, LatencyRecorder recorder) {
            this.sampler = sampler;
            this.node = node;
            this.publisherNode = publisherNode;
            this.recorder = recorder;
        }
    }

    private static final class Subscription {
        final String filter;
        final ReceiverScope scope;
        /** Whether matching messages had already been sent when the subscription was asked for (counted late then). */
        final boolean lateWhenAsked;

        Subscription(String filter, ReceiverScope scope, boolean lateWhenAsked) {
            this.filter = filter;
            this.scope = scope;
            this.lateWhenAsked = lateWhenAsked;
        }
    }
}
