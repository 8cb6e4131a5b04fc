package io.mqttload.testsupport.memory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;

import io.mqttload.client.BrokerNode;
import io.mqttload.client.ClientLoop;
import io.mqttload.client.ConnectPhases;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.Errors;
import io.mqttload.client.LoadConnection;
import io.mqttload.client.PublishProperties;
import io.mqttload.client.SubscribeOptions;

/** A load connection to the {@link InMemoryBroker}: the port's {@link LoadConnection} over a {@link Link}. */
final class MemoryLoadConnection implements LoadConnection {
    /**
     * Where waited-for publishes complete: off the event loop, as the HiveMQ client's do, so that a waiting thread's
     * next publish is not run on the broker's thread.
     */
    private static final Executor WAKER = ForkJoinPool.commonPool();

    private final Link link;
    private final ConnectionSettings settings;
    /** Never filled: the in-memory connection has no TCP or TLS phase, so connect times are read whole. */
    private final ConnectPhases phases = new ConnectPhases();

    @Override
    public ClientLoop eventLoop() {
        return MemoryClientLoop.SHARED;
    }

    MemoryLoadConnection(Link link, ConnectionSettings settings, Listener listener) {
        this.link = link;
        this.settings = settings;
        // As HiveMqConnection: the engine subscribes again itself after a reconnect without session.
        link.resubscribesItself = false;
        link.events(new Link.Events() {
            @Override
            public void opened(boolean reconnect, boolean sessionPresent) {
                listener.opened(reconnect, sessionPresent);
            }

            @Override
            public void closed() {
                listener.closed();
            }

            @Override
            public void lost(Throwable cause) {
                // Only MQTT 5 has a DISCONNECT from the broker to say why; a 3.1.1 client sees its connection closed.
                if (link.mqtt5 && cause instanceof Routing.BrokerClosedConnection
                        && ((Routing.BrokerClosedConnection) cause).reasonCode
                                == Routing.BrokerClosedConnection.SESSION_TAKEN_OVER) {
                    listener.sessionTakenOver(cause);
                } else {
                    listener.lost(false, cause);
                }
            }

            @Override
            public void gaveUp(int attempts) {
                listener.gaveUp(attempts);
            }

            @Override
            public void refused(InMemoryBroker.ConnackRefused refusal) {
                listener.refused(refusal.code(link.mqtt5), refusal.getMessage());
            }

            @Override
            public void retrying(boolean firstConnect, long delayMillis) {
                listener.retrying(firstConnect, delayMillis);
            }

            @Override
            public void message(MemoryMessage message, int qos) {
                listener.message(message.view(qos, link.mqtt5));
            }
        });
    }

    @Override
    public String clientId() {
        return link.clientId;
    }

    @Override
    public int nodeIndex() {
        return settings.node().index;
    }

    @Override
    public List<BrokerNode> nodes() {
        return settings.nodes();
    }

    @Override
    public boolean isConnected() {
        return link.connected;
    }

    @Override
    public boolean isReconnecting() {
        return link.isReconnecting();
    }

    @Override
    public boolean isMqtt5() {
        return link.mqtt5;
    }

    @Override
    public CompletableFuture<Boolean> connect() {
        return link.connect();
    }

    @Override
    public ConnectPhases phases() {
        return phases;
    }

    @Override
    public String connectFailure(Throwable error) {
        Throwable e = Errors.unwrap(error);
        return e instanceof InMemoryBroker.ConnackRefused ? e.getMessage() : Errors.reason(error);
    }

    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain,
            PublishProperties properties) {
        return link.publish(topic, payload, qos, retain, properties, WAKER);
    }

    @Override
    public void publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        link.publish(topic, payload, qos, retain, properties, done);
    }

    @Override
    public CompletableFuture<Void> subscribe(List<String> filters, int qos, SubscribeOptions options) {
        return link.subscribe(filters, qos, options);
    }

    @Override
    public void drop(long offlineMillis) {
        // A network that goes away looks to the client as a broker that closed the connection: lost, then its policy.
        if (link.connected) {
            link.dropOfflineMillis = offlineMillis;
            link.broker.disconnect(link.clientId);
        }
    }

    @Override
    public CompletableFuture<Void> disconnect() {
        return link.disconnect();
    }
}
