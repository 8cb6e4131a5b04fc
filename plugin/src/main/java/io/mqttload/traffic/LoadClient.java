package io.mqttload.traffic;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.BrokerNode;
import io.mqttload.client.ClientLoop;
import io.mqttload.client.ConnectPhases;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.Errors;
import io.mqttload.client.InboundMessage;
import io.mqttload.client.LoadConnection;
import io.mqttload.client.MqttConnector;
import io.mqttload.client.PublishProperties;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.SubscribeOptions;
import io.mqttload.common.NameTemplate;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.delivery.ReplyTracker;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;

/**
 * One MQTT client of the load as the engine drives it: its connection ({@link LoadConnection}) with the engine's
 * counters wired to its lifecycle, its publish streams, and its receive path ({@link Receiver}) with request/response.
 * All methods return without blocking; callers bound their waits.
 */
public final class LoadClient {
    private static final Logger log = LoggerFactory.getLogger(LoadClient.class);
    private final int index;
    private final EngineMetrics metrics;
    /** The Connect sampler that made this client: its connects and open connections. */
    private final SamplerMetrics connectSampler;
    private final LoadConnection connection;
    /** The broker node this client is connected to (or was, last), and its counters; a failover changes it. */
    private volatile NodeMetrics node;
    private final PublishStreams streams;
    private final Replies replies;
    private final Responder responder;
    private final Receiver receiver;
    /** Subscribes again after a reconnect without session, and records the lapse. */
    private final Resubscriber resubscriber;
    /** The tally that counted this client last (see {@link #tallyChanged}); only this client's JMeter thread sets it. */
    private Object lastTally;
    private final ReconnectPolicy reconnectPolicy;
    /** When the current connect attempt started (or is to start), in {@link MicroClock} microseconds. */
    private volatile long attemptStartMicros;
    /** Retries of this client's first connect so far. */
    private final AtomicInteger firstConnectRetries = new AtomicInteger();
    /** Other connections with this client's id taking its session over. */
    private final Takeovers takeovers;
    /** Whether the connection ever opened: a refusal after it is a reconnect's. */
    private volatile boolean everOpened;
    private volatile boolean closed;
    /** Whether a first connect that waits or retries under the policy has not ended yet. */
    private volatile boolean firstConnectPending;
    /** What the connection tells this client; package-visible so that tests can play a connection's life. */
    final LoadConnection.Listener events = new ConnectionEvents();

    /**
     * @param connector         the run's transport, which makes the connection
     * @param consumeDelayNanos processing time per received message (a slow consumer), or 0; such a client gets an
     *                          event-loop thread of its own, so its slowness stalls only its own socket
     */
    public LoadClient(MqttConnector connector, String clientId, int index, InetAddress localAddress,
            ConnectionSettings settings, EngineMetrics metrics, SamplerMetrics connectSampler, DeliveryLedger ledger,
            ReconnectPolicy reconnectPolicy, long consumeDelayNanos) {
        this.index = index;
        this.metrics = metrics;
        this.connectSampler = connectSampler;
        this.reconnectPolicy = reconnectPolicy;
        this.node = nodeMetrics(settings.node());
        this.streams = new PublishStreams(clientId, ledger);
        this.replies = new Replies(metrics);
        this.connection = connector.loadConnection(clientId, localAddress, settings, reconnectPolicy, consumeDelayNanos > 0,
                events);
        this.responder = new Responder((topic, payload, qos, properties, done) -> connection.publish(topic, payload, qos,
                false, properties, done), metrics);
        this.receiver = new Receiver(clientId, metrics, ledger, replies, responder, consumeDelayNanos);
        this.resubscriber = new Resubscriber(connection, metrics, ledger, receiver::scopes);
        this.takeovers = new Takeovers(clientId, metrics, connection::isConnected);
    }

    private NodeMetrics nodeMetrics(BrokerNode brokerNode) {
        return metrics.nodes.node(brokerNode.index, brokerNode.name);
    }

    /**
     * Whether {@code tally} differs from the one this asked last, which it becomes: a count of distinct clients per
     * sampler looks a client up only when it moves to another sampler, not once per message.
     */
    public boolean tallyChanged(Object tally) {
        if (lastTally == tally) {
            return false;
        }
        lastTally = tally;
        return true;
    }

    public String clientId() {
        return connection.clientId();
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
        return connection.isConnected();
    }

    /** Whether the client is between a lost connection and a reconnect attempt (or in one). */
    public boolean isReconnecting() {
        return connection.isReconnecting();
    }

    /** Whether the client's first connect is still waiting or retrying under its policy. */
    public boolean isFirstConnectPending() {
        return firstConnectPending && !closed;
    }

    /** Whether this client speaks MQTT 5 (MQTT 5 properties and subscription options need it). */
    public boolean isMqtt5() {
        return connection.isMqtt5();
    }

    /**
     * Connects, after the policy's initial wait (none by default); the future completes with whether the broker resumed
     * a session, after the retries the policy allows a first connect that failed.
     */
    public CompletableFuture<Boolean> connect() {
        takeovers.register();
        long wait = reconnectPolicy.initialWaitMillis(ThreadLocalRandom.current());
        if (reconnectPolicy.retriesFirstConnect() || wait > 0) {
            // Until it ends, the run's end must close this client, or it would go on trying after the run.
            firstConnectPending = true;
        }
        if (wait == 0) {
            return connectNow();
        }
        // A fleet's devices start apart; the JMeter thread does not wait for each one.
        CompletableFuture<Boolean> connected = new CompletableFuture<>();
        CompletableFuture.delayedExecutor(wait, TimeUnit.MILLISECONDS).execute(() -> {
            if (closed) {
                firstConnectPending = false;
                connected.completeExceptionally(new IllegalStateException("closed before its initial wait ended"));
                return;
            }
            connectNow().whenComplete((present, error) -> {
                if (error == null) {
                    connected.complete(present);
                } else {
                    connected.completeExceptionally(error);
                }
            });
        });
        return connected;
    }

    private CompletableFuture<Boolean> connectNow() {
        attemptStartMicros = MicroClock.nowMicros();
        takeovers.connecting(attemptStartMicros);
        metrics.count(Count.CONNECT_ATTEMPTS);
        return connection.connect().whenComplete((present, error) -> {
            firstConnectPending = false;
            takeovers.settled();
            // A retried connect is timed from its last attempt: the delays before it are the policy's, not the broker's.
            long start = attemptStartMicros;
            if (error == null) {
                long connack = MicroClock.nowMicros();
                ConnectPhases phases = connection.phases();
                long tcp = phases.tcpConnectedNanos();
                if (tcp == 0 || MicroClock.micros(tcp) < start) {
                    // Not seen (the connection's pipeline was not the one watched), or an earlier attempt's: the whole.
                    metrics.connected(connectSampler, node, start, connack);
                } else {
                    long tls = phases.tlsDoneNanos();
                    metrics.connected(connectSampler, node, start, MicroClock.micros(tcp),
                            tls == 0 ? -1 : MicroClock.micros(tls), connack);
                }
                return;
            }
            if (firstConnectRetries.get() > 0) {
                metrics.count(Count.CONNECTS_GIVEN_UP);
            }
            if (Errors.connectViolation(error) != null) {
                metrics.connectViolated(connectSampler, node, connectFailure(error));
            } else {
                metrics.failed(FailureTally.Kind.CONNECT, connectSampler, connectFailure(error));
            }
        });
    }

    /** Why a connect failed, as the transport reads it (see {@link LoadConnection#connectFailure}). */
    public String connectFailure(Throwable error) {
        return connection.connectFailure(error);
    }

    /**
     * Publishes one message; the future completes when the broker took it, on the event loop, for a JMeter thread
     * that waits (see {@link LoadConnection#publish(String, byte[], int, boolean, PublishProperties)}).
     */
    public CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain,
            PublishProperties properties) {
        return connection.publish(topic, payload, qos, retain, properties);
    }

    /** The event loop this client's I/O runs on; null when its connection has none. */
    public ClientLoop eventLoop() {
        return connection.eventLoop();
    }

    /** Publishes one message and calls {@code done} (with null, or the error) on the event loop when the broker took it. */
    public void publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        connection.publish(topic, payload, qos, retain, properties, done);
    }

    /**
     * This client's in-flight window. MQTT 3.1.1 has no Receive Maximum, and a broker may close a connection that
     * exceeds its own limit (Mosquitto does beyond max_inflight_messages for QoS 2), so the suite bounds it per client
     * as well as per thread. Called by the owning thread only.
     */
    public Semaphore inFlight(int limit) {
        return streams.inFlight(limit);
    }

    /**
     * The topic of a template whose placeholders do not change per message: expanded once per client instead of once
     * per message. Called by the owning thread only.
     */
    public String topic(NameTemplate template, NameTemplate.Values values) {
        return streams.topic(template, values);
    }

    /** The stream for messages of this client on {@code topic}; called by the owning JMeter thread only. */
    public PublishStream stream(String topic) {
        return streams.stream(topic);
    }

    /**
     * Subscribes to {@code filters} at {@code qos}, what arrives from now on counting for {@code sampler} (and, with
     * {@code answerRequests}, every request answered). The future completes normally when the broker granted every
     * filter, and exceptionally with the refusal naming each refused filter and its code otherwise.
     */
    public CompletableFuture<Void> subscribe(List<String> filters, int qos, SubscribeOptions options,
            SamplerMetrics sampler, boolean answerRequests) {
        receiver.receiveFor(sampler, answerRequests);
        List<Receiver.Subscription> added = receiver.register(filters, options.noLocal(), node);
        long asked = MicroClock.nowMicros();
        return connection.subscribe(filters, qos, options).thenRun(() -> {
            long granted = MicroClock.nowMicros();
            receiver.checkSentMeanwhile(added);
            String version = connection.isMqtt5() ? "MQTT 5" : "MQTT 3.1.1";
            for (Receiver.Subscription s : added) {
                s.scope.granted(version);
                s.scope.subscribed(s.filter, asked, granted);
            }
            resubscriber.granted(filters, qos, options, sampler);
        });
    }

    /** This client's requests and their replies; created by the owning JMeter thread at its first request. */
    public ReplyTracker replies() {
        return replies.tracker();
    }

    /** Requests of this client the broker took that have no reply yet (0 for a client that sent none). */
    public long repliesOwed() {
        return replies.owed();
    }

    /** Replies this client (a responder) sent that the broker has not yet taken. */
    public int repliesInFlight() {
        return responder.inFlight();
    }

    public long receivedCount() {
        return receiver.receivedCount();
    }

    public boolean hasSubscriptions() {
        return receiver.hasSubscriptions();
    }

    /** The receiver scopes of this client's subscriptions. */
    public List<ReceiverScope> scopes() {
        return receiver.scopes();
    }

    /**
     * Drops the connection as a network or a broker going away would, without DISCONNECT: the client comes back through
     * its reconnect policy, not before {@code offlineMillis} (an MQTT Outage sampler's planned outage).
     */
    public void drop(long offlineMillis) {
        connection.drop(offlineMillis);
    }

    /** Sends DISCONNECT; the future completes when it was sent or the client was not connected. */
    public CompletableFuture<Void> disconnect() {
        closed = true;
        return connection.disconnect().handle((ok, error) -> {
            if (error == null) {
                metrics.count(Count.DISCONNECTS);
            }
            return null;
        });
    }

    /** The client lost its session to another connection with its id: not a lost connection, the broker did right. */
    private void takenOver(boolean inferred) {
        if (receiver.hasSubscriptions()) {
            resubscriber.lost();
        }
        takeovers.takenOver(inferred);
    }

    /** The count of a CONNACK refusal that means "later", or null for any other. */
    private Count laterRefusal(int code) {
        boolean mqtt5 = connection.isMqtt5();
        if (!ReconnectPolicy.meansLater(code, mqtt5)) {
            return null;
        }
        if (!mqtt5 || code == 0x88) {
            return Count.CONNACK_SERVER_UNAVAILABLE;
        }
        return code == 0x89 ? Count.CONNACK_SERVER_BUSY : code == 0x97 ? Count.CONNACK_QUOTA_EXCEEDED
                : Count.CONNACK_CONNECTION_RATE_EXCEEDED;
    }

    /** The connection's events, counted where they happened: on the event loop, without blocking. */
    private final class ConnectionEvents implements LoadConnection.Listener {
        @Override
        public void opened(boolean reconnect, boolean sessionPresent) {
            everOpened = true;
            takeovers.settled();
            metrics.connections(connectSampler, node, 1);
            if (reconnect) {
                metrics.recovery.back(clientId(), System.currentTimeMillis(), sessionPresent);
                metrics.count(Count.RECONNECTS);
                if (receiver.hasSubscriptions()) {
                    resubscriber.reopened(sessionPresent);
                }
            }
        }

        @Override
        public void closed() {
            metrics.connections(connectSampler, node, -1);
        }

        @Override
        public void movedNode(int from, int to) {
            NodeMetrics target = nodeMetrics(connection.nodes().get(to));
            metrics.failedOver(node, target);
            node = target;
        }

        @Override
        public void gaveUp(int attempts) {
            takeovers.settled();
            if (metrics.gaveUpReconnecting(attempts)) {
                log.warn("MQTT client {} gave up reconnecting after {} attempt(s) (first of the run; the summary counts"
                        + " all)", clientId(), attempts);
            }
        }

        @Override
        public void lost(boolean protocolViolation, Throwable cause) {
            if (!protocolViolation && takeovers.closedByAnother()) {
                // Closed without a reason while another client of this engine with this id connects or is connected:
                // only a takeover closes a connection then.
                takenOver(true);
                return;
            }
            metrics.recovery.lost(clientId(), System.currentTimeMillis());
            if (receiver.hasSubscriptions()) {
                resubscriber.lost();
            }
            if (protocolViolation) {
                // Counted as a lost connection too, but its reason is the violation, listed once.
                metrics.failed(FailureTally.Kind.PROTOCOL_VIOLATION, connectSampler, node,
                        "the client closed the connection: " + cause.getMessage());
            } else {
                // With several nodes the reason names the node: which one went away shows in the verdict.
                String reason = Errors.reason(cause);
                metrics.failed(FailureTally.Kind.CONNECTION_LOST, connectSampler, node,
                        connection.nodes().size() > 1 ? "node " + node.name + ": " + reason : reason);
            }
            String described = clientId() + ": " + Errors.describe(cause);
            if (metrics.lastConnectionLoss.getAndSet(described) == null) {
                log.warn("MQTT connection lost (first of the run; the summary counts all): {}", described);
            }
        }

        @Override
        public void sessionTakenOver(Throwable cause) {
            takenOver(false);
        }

        @Override
        public void refused(int code, String reason) {
            Count later = laterRefusal(code);
            if (later != null) {
                metrics.count(later);
            } else if (everOpened) {
                // A reconnect refused for good: the client gives up; the reason is counted as a first connect's is.
                metrics.failed(FailureTally.Kind.CONNECT, connectSampler, "reconnect " + reason);
            }
        }

        @Override
        public void retrying(boolean firstConnect, long delayMillis) {
            takeovers.connecting(MicroClock.nowMicros() + delayMillis * 1000);
            metrics.count(Count.CONNECT_ATTEMPTS);
            if (firstConnect) {
                firstConnectRetries.incrementAndGet();
                attemptStartMicros = MicroClock.nowMicros() + delayMillis * 1000;
                metrics.count(Count.CONNECT_RETRIES);
            } else {
                metrics.count(Count.RECONNECT_ATTEMPTS_MADE);
                metrics.recovery.attempt(clientId());
            }
        }

        @Override
        public void message(InboundMessage message) {
            receiver.receive(message, node);
        }
    }
}
