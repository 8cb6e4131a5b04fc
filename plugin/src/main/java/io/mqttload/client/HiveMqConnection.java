package io.mqttload.client;

import java.net.InetAddress;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.lifecycle.MqttClientConnectedContext;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt3.lifecycle.Mqtt3ClientConnectedContext;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.lifecycle.Mqtt5ClientConnectedContext;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;

/**
 * One MQTT connection of the load, on the HiveMQ asynchronous client (3.1.1 or 5): it connects, publishes,
 * subscribes, disconnects, reconnects a connection that once worked and fails over to the next broker node, and
 * tells its {@link Listener} what happened and what arrived. It counts nothing itself; every method returns without
 * blocking, and callers bound their waits.
 */
public final class HiveMqConnection implements LoadConnection {
    private final String clientId;
    private final ConnectionSettings settings;
    private final InetAddress localAddress;
    /** The attempts of this connection under its policy; touched on its event loop only. */
    private final Retries retries;
    private final Listener listener;
    /** A slow consumer's own event loop, shut down with the connection; null for every other client. */
    private final NioEventLoopGroup ownEventLoop;
    private final ClientLoop eventLoop;
    /** The instants of the connect, for its phases. */
    private final ConnectPhases phases = new ConnectPhases();
    /** The protocol-version part: MQTT 3.1.1 or 5. */
    private final MqttSession session;
    private final AtomicBoolean connected = new AtomicBoolean();
    private volatile boolean everConnected;
    private volatile boolean closing;
    /** How long the planned outage that {@link #drop} began holds the client away from its loss, ms; 0: none. */
    private volatile long dropOfflineMillis;
    /** Until when a planned outage holds reconnect attempts back, in nano time: its time from the loss the client saw. */
    private volatile long offlineUntilNanos;
    /** The index of the broker node in the settings' list this client is connected to (or was, last). */
    private volatile int node;
    /** The node a failover reconnect aims at, or -1. */
    private volatile int reconnectTarget = -1;

    /**
     * @param ownEventLoop whether this client gets an event-loop thread of its own (a slow consumer: its slowness then
     *                     stalls only its own socket, as a slow reader's would)
     */
    public HiveMqConnection(String clientId, InetAddress localAddress, ConnectionSettings settings,
            ReconnectPolicy reconnectPolicy, boolean ownEventLoop, Listener listener) {
        this.clientId = clientId;
        this.settings = settings;
        this.localAddress = localAddress;
        this.retries = new Retries(reconnectPolicy, new Random());
        this.listener = listener;
        this.node = settings.node().index;
        MqttClientBuilder builder = MqttClient.builder()
                .identifier(clientId)
                .transportConfig(ClientConfigs.transport(settings, localAddress))
                .addConnectedListener(ctx -> onConnected(sessionPresent(ctx)))
                .addDisconnectedListener(this::onDisconnected);
        if (ownEventLoop) {
            // One daemon thread, which ends with the loop.
            this.ownEventLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("mqttload-slow-consumer-" + clientId,
                    true));
        } else {
            this.ownEventLoop = null;
        }
        EventLoop loop = ClientConfigs.nextLoop(this.ownEventLoop);
        this.eventLoop = new NettyClientLoop(loop);
        builder.executorConfig(ClientConfigs.loadClient(phases, loop));
        this.session = MqttSession.of(builder, settings, listener::message);
    }

    @Override
    public String clientId() {
        return clientId;
    }

    @Override
    public ClientLoop eventLoop() {
        return eventLoop;
    }

    /** The index of this client's broker node in the settings' list: the one it is (or was last) connected to. */
    @Override
    public int nodeIndex() {
        return node;
    }

    /** The broker nodes of the settings, this client's among them. */
    @Override
    public List<BrokerNode> nodes() {
        return settings.nodes();
    }

    @Override
    public boolean isConnected() {
        return connected.get();
    }

    /** Whether the client is between a lost connection and a reconnect attempt (or in one). */
    @Override
    public boolean isReconnecting() {
        return !connected.get() && everConnected && !closing && session.state().isConnectedOrReconnect();
    }

    /** Whether this client speaks MQTT 5 (MQTT 5 properties and subscription options need it). */
    @Override
    public boolean isMqtt5() {
        return session.isMqtt5();
    }

    /** Connects; the future completes with whether the broker resumed a session. */
    @Override
    public CompletableFuture<Boolean> connect() {
        phases.reset();
        return session.connect(settings);
    }

    /** The instants of the last connect (TCP established, TLS done), read when its CONNACK arrived. */
    @Override
    public ConnectPhases phases() {
        return phases;
    }

    /**
     * Why a connect failed. A broker that speaks only MQTT 3.1.1 closes the connection on an MQTT 5 CONNECT without a
     * CONNACK (RabbitMQ 3.x does): the client only sees the connection closed, so the reason says what it likely means.
     */
    @Override
    public String connectFailure(Throwable error) {
        String violation = Errors.connectViolation(error);
        if (violation != null) {
            // A CONNACK an MQTT 5 client cannot read often is a 3.1.1 broker's (or an MQTT 5 broker's 3.1.1 code).
            return session.isMqtt5() && violation.contains("decoding CONNACK") ? violation + " (an MQTT 5 CONNACK the"
                    + " client cannot read: the broker may speak only MQTT 3.1.1 correctly; try mqttVersion = MQTT_3_1_1)"
                    : violation;
        }
        String reason = Errors.reason(error);
        // A connection closed by a TLS alert (a refused client certificate) is not a 3.1.1 broker's silence.
        if (session.isMqtt5() && Errors.unwrap(error) instanceof ConnectionClosedException && !Errors.isTls(error)) {
            return reason + " (no CONNACK to an MQTT 5 CONNECT: the broker may speak only MQTT 3.1.1; try mqttVersion"
                    + " = MQTT_3_1_1)";
        }
        return reason;
    }

    /** The CONNACK's session-present flag, whichever MQTT version the client speaks. */
    private static boolean sessionPresent(MqttClientConnectedContext ctx) {
        if (ctx instanceof Mqtt5ClientConnectedContext) {
            return ((Mqtt5ClientConnectedContext) ctx).getConnAck().isSessionPresent();
        }
        if (ctx instanceof Mqtt3ClientConnectedContext) {
            return ((Mqtt3ClientConnectedContext) ctx).getConnAck().isSessionPresent();
        }
        // The client makes one of the two for every connection; a session is not presumed lost without its word.
        return true;
    }

    private void onConnected(boolean sessionPresent) {
        int target = reconnectTarget;
        reconnectTarget = -1;
        if (target >= 0 && target != node) {
            int from = node;
            node = target;
            listener.movedNode(from, target);
        }
        retries.connected();
        if (connected.compareAndSet(false, true)) {
            if (everConnected && !sessionPresent) {
                // The session ended (at the loss, or at this CONNACK) and took the receivers with it: see onDisconnected.
                session.receiveAgain();
            }
            listener.opened(everConnected, sessionPresent);
        }
        everConnected = true;
    }

    private void onDisconnected(MqttClientDisconnectedContext ctx) {
        boolean wasConnected = connected.compareAndSet(true, false);
        if (wasConnected) {
            listener.closed();
        }
        if (ctx.getSource() == MqttDisconnectSource.USER || closing) {
            return;
        }
        if (wasConnected && isSessionTakenOver(ctx)) {
            listener.sessionTakenOver(ctx.getCause());
        } else if (wasConnected) {
            listener.lost(Errors.isProtocolViolation(ctx.getSource(), ctx.getCause()), ctx.getCause());
        }
        int refusal = Errors.connackCode(ctx.getCause());
        if (refusal >= 0) {
            listener.refused(refusal, Errors.reason(ctx.getCause()));
        }
        // The client's reconnector counts a failed first connect as its attempt 1; after a loss it starts at 0.
        int attempts = ctx.getReconnector().getAttempts() - (everConnected ? 0 : 1);
        long delay = retries.next(!everConnected, attempts, refusal, session.isMqtt5());
        if (delay == Retries.NONE) {
            if (everConnected && attempts > 0) {
                listener.gaveUp(attempts);
            }
            return;
        }
        if (everConnected) {
            // The suite subscribes again itself after a reconnect without session, timed, so that the ledger knows when
            // the gap ended (LoadClient); the client's own resubscription would leave that unknown.
            ctx.getReconnector().resubscribeIfSessionExpired(false);
        }
        if (everConnected && settings.failover()) {
            // Each attempt tries the next node after the one tried last, the lost node coming round again.
            int last = reconnectTarget < 0 ? node : reconnectTarget;
            int next = (last + 1) % settings.nodes().size();
            ctx.getReconnector().transportConfig(ClientConfigs.transport(settings.forNode(next), localAddress));
            reconnectTarget = next;
        }
        // A planned outage's clients stay away for its time from the loss they saw (after it was told to the listener,
        // so that the recovery, timed from that loss, is never shorter), then go on under their policy.
        long offline = dropOfflineMillis;
        if (offline > 0 && wasConnected) {
            dropOfflineMillis = 0;
            offlineUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(offline);
        }
        delay = Math.max(delay, Retries.millisUntil(offlineUntilNanos));
        listener.retrying(!everConnected, delay);
        // Through the client's reconnector: it keeps the first connect's future open across the retries, and the
        // session's subscriptions and queued publishes across a reconnect.
        ctx.getReconnector().reconnect(true).delay(delay, TimeUnit.MILLISECONDS);
    }

    /** Whether the broker closed the connection with an MQTT 5 DISCONNECT saying another connection took the session. */
    private static boolean isSessionTakenOver(MqttClientDisconnectedContext ctx) {
        return ctx.getSource() == MqttDisconnectSource.SERVER && ctx.getCause() instanceof Mqtt5DisconnectException
                && ((Mqtt5DisconnectException) ctx.getCause()).getMqttMessage().getReasonCode()
                        == Mqtt5DisconnectReasonCode.SESSION_TAKEN_OVER;
    }

    /**
     * Publishes one message; the future completes when the broker took it: written (QoS 0), PUBACK (QoS 1) or PUBCOMP
     * (QoS 2). The HiveMQ client's future API completes QoS 2 at PUBREC, before the flow is done, so QoS 2 goes through
     * its reactive API, whose stream completes at PUBCOMP. The future completes on the event loop, which wakes the
     * thread that waits for it (synchronous publishing) itself: handing the completion to RxJava's computation pool
     * first cost a second thread's wake-up per message, 0.83-0.91 of the CPU per message without it on two cores and
     * 0.91-0.98 on one (docs/performance.md, issue 43).
     */
    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain,
            PublishProperties properties) {
        return session.publish(topic, payload, mqttQos(qos), retain, properties);
    }

    /**
     * Publishes one message and calls {@code done} (with null, or the error) when the broker took it, like
     * {@link #publish(String, byte[], int, boolean, PublishProperties)} but without an intermediate future, on the event
     * loop: the asynchronous publish path and the responders run this once per message.
     */
    @Override
    public void publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        session.publish(topic, payload, mqttQos(qos), retain, properties, done);
    }

    /** The client library's QoS for 0, 1 or 2 (checked where the plan sets it). */
    static MqttQos mqttQos(int qos) {
        MqttQos q = MqttQos.fromCode(qos);
        if (q == null) {
            throw new IllegalArgumentException("MQTT QoS must be 0, 1 or 2, not " + qos);
        }
        return q;
    }

    /**
     * Subscribes to {@code filters} at {@code qos}. The future completes normally when the broker granted every
     * filter, and exceptionally with {@link SubscribeRefusedException} naming each refused filter and its code
     * otherwise.
     */
    @Override
    public CompletableFuture<Void> subscribe(List<String> filters, int qos, SubscribeOptions options) {
        return session.subscribe(filters, mqttQos(qos), options);
    }

    @Override
    public void drop(long offlineMillis) {
        if (connected.get()) {
            dropOfflineMillis = offlineMillis;
            phases.drop();
        }
    }

    /** Sends DISCONNECT; the future completes, successfully only when it was sent, once the client is closed. */
    @Override
    public CompletableFuture<Void> disconnect() {
        closing = true;
        return session.disconnect().whenComplete((ok, error) -> {
            if (ownEventLoop != null) {
                ownEventLoop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            }
        });
    }
}
