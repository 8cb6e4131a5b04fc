package io.mqttload.testsupport.memory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.mqttload.client.PublishProperties;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.Retries;
import io.mqttload.client.SubscribeOptions;

/**
 * One client's side of a connection to the {@link InMemoryBroker}: connect (with the client's own CONNACK timeout),
 * retry a failed first connect and reconnect after a loss by its policy, the way the suite drives the HiveMQ client
 * (subscribing again when the broker kept no session), publish, subscribe, disconnect. Everything but the volatile flags is touched
 * on the broker's event loop only.
 */
final class Link {
    /** What the link tells the connection that owns it, on the event loop. */
    interface Events {
        void opened(boolean reconnect, boolean sessionPresent);

        void closed();

        void lost(Throwable cause);

        /** Every reconnect attempt of the policy failed: the client tries no more. */
        void gaveUp(int attempts);

        /** A CONNACK refused an attempt with this reason; a control connection does not count it. */
        default void refused(InMemoryBroker.ConnackRefused refusal) {
        }

        /** Another attempt is scheduled after this delay; a control connection does not count it. */
        default void retrying(boolean firstConnect, long delayMillis) {
        }

        void message(MemoryMessage message, int qos);
    }

    /** A subscription the client holds, to subscribe again after a reconnect without a session. */
    static final class Granted {
        final int qos;
        final SubscribeOptions options;

        Granted(int qos, SubscribeOptions options) {
            this.qos = qos;
            this.options = options;
        }
    }

    final InMemoryBroker broker;
    final String clientId;
    final boolean mqtt5;
    final boolean cleanStart;
    /** Whether the broker keeps the session once the connection is gone: persistent (3.1.1) or an expiry (5). */
    final boolean keepsSession;
    /** How long the broker keeps it, in seconds; {@link Long#MAX_VALUE} for ever. */
    final long sessionExpirySeconds;
    private final Retries retries;
    private final long connectTimeoutMillis;
    private Events events;
    volatile boolean connected;
    volatile boolean everConnected;
    volatile boolean closing;
    /** Until when a planned outage holds reconnect attempts back, in nano time (as HiveMqConnection's). */
    volatile long offlineUntilNanos;
    /** As HiveMqConnection: the planned outage a drop began, held from the loss the client sees; 0: none. */
    volatile long dropOfflineMillis;
    private volatile boolean reconnecting;
    private int attempts;
    final Map<String, Granted> subscriptions = new LinkedHashMap<>();
    /** Whether a reconnect without session subscribes again by itself (HiveMQ's default; load connections do it themselves). */
    volatile boolean resubscribesItself = true;
    /** A delivery the reorder fault holds back until the next one to this client has gone. */
    Runnable heldBack;

    Link(InMemoryBroker broker, String clientId, boolean mqtt5, boolean cleanStart, long sessionExpirySeconds,
            ReconnectPolicy policy, long connectTimeoutMillis) {
        this.broker = broker;
        this.clientId = clientId;
        this.mqtt5 = mqtt5;
        this.cleanStart = cleanStart;
        this.keepsSession = mqtt5 ? sessionExpirySeconds > 0 : !cleanStart;
        this.sessionExpirySeconds = mqtt5 ? sessionExpirySeconds : Long.MAX_VALUE;
        // Seeded: a test's run draws the same jittered delays each time.
        this.retries = new Retries(policy, new Random(clientId.hashCode()));
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    void events(Events e) {
        this.events = e;
    }

    boolean isReconnecting() {
        return !connected && everConnected && !closing && reconnecting;
    }

    /**
     * The user's connect: one CONNECT, then, when it fails and the policy retries a first connect, more until one is
     * accepted or the policy gives up; the future completes with the last one, as the HiveMQ client's does.
     */
    CompletableFuture<Boolean> connect() {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        firstConnect(result);
        return result;
    }

    private void firstConnect(CompletableFuture<Boolean> result) {
        once().whenComplete((present, error) -> {
            if (error == null) {
                result.complete(present);
                return;
            }
            broker.execute(() -> {
                long delay = closing ? Retries.NONE : retries.next(true, attempts, refused(error), mqtt5);
                if (delay == Retries.NONE) {
                    attempts = 0;
                    result.completeExceptionally(error);
                    return;
                }
                attempts++;
                events.retrying(true, delay);
                broker.schedule(() -> {
                    if (closing) {
                        result.completeExceptionally(error);
                    } else {
                        firstConnect(result);
                    }
                }, delay);
            });
        });
    }

    /** The refusal's code, told to the events, or -1 when {@code error} is no CONNACK refusal. */
    private int refused(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (!(e instanceof InMemoryBroker.ConnackRefused)) {
            return -1;
        }
        InMemoryBroker.ConnackRefused refusal = (InMemoryBroker.ConnackRefused) e;
        events.refused(refusal);
        return refusal.code(mqtt5);
    }

    /** One CONNECT; the future fails with {@link NoConnack} when the broker has not answered in the client's timeout. */
    private CompletableFuture<Boolean> once() {
        CompletableFuture<Boolean> connack = new CompletableFuture<>();
        Future<?> timeout = broker.schedule(() -> connack.completeExceptionally(new NoConnack(
                "Timeout while waiting for CONNACK (" + connectTimeoutMillis + " ms, in-memory broker)")),
                connectTimeoutMillis);
        connack.whenComplete((present, error) -> timeout.cancel(false));
        broker.execute(() -> broker.connect(this, connack));
        return connack;
    }

    /** The broker accepted a CONNECT. */
    void opened(boolean sessionPresent) {
        boolean reconnect = everConnected;
        connected = true;
        everConnected = true;
        reconnecting = false;
        attempts = 0;
        retries.connected();
        events.opened(reconnect, sessionPresent);
    }

    /** The connection closed: by the user ({@code cause} null) or by the broker. */
    void closedBy(Throwable cause) {
        if (!connected) {
            return;
        }
        connected = false;
        flushHeldBack();
        events.closed();
        if (cause == null || closing) {
            return;
        }
        events.lost(cause);
        reconnectLater(-1);
    }

    /** Schedules the next reconnect attempt after a loss, or gives up, as the policy says. */
    private void reconnectLater(int refusal) {
        long delay = closing ? Retries.NONE : retries.next(false, attempts, refusal, mqtt5);
        if (delay == Retries.NONE) {
            reconnecting = false;
            if (!closing && attempts > 0) {
                events.gaveUp(attempts);
            }
            return;
        }
        long offline = dropOfflineMillis;
        if (offline > 0 && refusal < 0) {
            dropOfflineMillis = 0;
            offlineUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(offline);
        }
        delay = Math.max(delay, Retries.millisUntil(offlineUntilNanos));
        reconnecting = true;
        attempts++;
        events.retrying(false, delay);
        broker.schedule(() -> {
            if (closing) {
                reconnecting = false;
                return;
            }
            once().whenComplete((present, error) -> {
                if (error != null) {
                    broker.execute(() -> reconnectLater(refused(error)));
                }
            });
        }, delay);
    }

    /** Hands a delivery to the client; a held-back one follows it, so the two arrive swapped. */
    void deliver(MemoryMessage message, int qos) {
        events.message(message, qos);
        if (heldBack != null) {
            broker.count(InMemoryBroker.Count.REORDERED, 1);
            flushHeldBack();
        }
    }

    void flushHeldBack() {
        Runnable held = heldBack;
        heldBack = null;
        if (held != null) {
            held.run();
        }
    }

    void publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        if (qos < 0 || qos > 2) {
            throw new IllegalArgumentException("MQTT QoS must be 0, 1 or 2, not " + qos);
        }
        MemoryMessage m = new MemoryMessage(topic, payload.clone(), qos, retain, mqtt5 ? properties : null);
        broker.execute(() -> broker.publish(this, m, done));
    }

    /** As above, the future completing on {@code completion} when the broker took the message. */
    CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Executor completion) {
        CompletableFuture<Void> taken = new CompletableFuture<>();
        Consumer<Throwable> done = error -> completion.execute(() -> {
            if (error == null) {
                taken.complete(null);
            } else {
                taken.completeExceptionally(error);
            }
        });
        publish(topic, payload, qos, retain, properties, done);
        return taken;
    }

    CompletableFuture<Void> subscribe(List<String> filters, int qos, SubscribeOptions options) {
        CompletableFuture<Void> suback = new CompletableFuture<>();
        broker.execute(() -> broker.subscribe(this, List.copyOf(filters), qos, options, suback));
        return suback;
    }

    /** DISCONNECT: fails, as the HiveMQ client's does, when the client is not connected. */
    CompletableFuture<Void> disconnect() {
        closing = true;
        CompletableFuture<Void> done = new CompletableFuture<>();
        broker.execute(() -> {
            if (!connected) {
                done.completeExceptionally(new IllegalStateException("MQTT client is not connected."));
                return;
            }
            broker.disconnected(this);
            closedBy(null);
            done.complete(null);
        });
        return done;
    }

    /** The client's own CONNACK timeout, as the HiveMQ client reports it. */
    static final class NoConnack extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoConnack(String message) {
            super(message);
        }
    }
}
