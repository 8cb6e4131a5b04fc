package io.mqttload.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import com.hivemq.client.mqtt.MqttClientTransportConfig;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3Client;
import com.hivemq.client.mqtt.mqtt3.Mqtt3ClientBuilder;
import com.hivemq.client.mqtt.mqtt3.message.auth.Mqtt3SimpleAuth;

/**
 * The HiveMQ client's {@link ControlConnection}: a small MQTT 3.1.1 client for the engine's own messages, outside the
 * load and its counters (the rendezvous, the clock exchange, the {@code $SYS} reader, the broker agent). Every broker
 * speaks 3.1.1. It runs on the suite's daemon event loop (the library's own threads are not daemons, and a control
 * client that could not connect kept a headless JMeter alive), and, when asked, reconnects a connection that once
 * worked until it is closed, then calls back so that its owner can subscribe and announce again: a broker without
 * persistence forgets both.
 */
public final class ControlClient implements ControlConnection {
    private final Mqtt3AsyncClient client;
    private final String broker;
    private final AtomicBoolean connectedOnce = new AtomicBoolean();
    private volatile boolean closing;

    private ControlClient(String clientId, MqttClientTransportConfig transport, String broker, Mqtt3SimpleAuth auth,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        this.broker = broker;
        ReconnectPolicy reconnects = ReconnectPolicy.untilClosed(200, 2_000);
        Mqtt3ClientBuilder builder = Mqtt3Client.builder().identifier(clientId).transportConfig(transport)
                .executorConfig(ClientConfigs.sharedEventLoop())
                .addConnectedListener(ctx -> {
                    if (!connectedOnce.compareAndSet(false, true) && afterReconnect != null) {
                        afterReconnect.run();
                    }
                })
                // Only a connection that once worked is retried (the library's automatic reconnect would also hold a
                // first connect to a closed port until its timeout, instead of failing it at once).
                .addDisconnectedListener(ctx -> {
                    if (afterReconnect != null && connectedOnce.get() && !closing
                            && ctx.getSource() != MqttDisconnectSource.USER) {
                        ClientConfigs.reconnectLater(ctx, reconnects);
                    }
                });
        if (auth != null) {
            builder = builder.simpleAuth(auth);
        }
        this.client = builder.buildAsync();
        if (onMessage != null) {
            client.publishes(MqttGlobalPublishFilter.ALL,
                    p -> onMessage.accept(p.getTopic().toString(), p.getPayloadAsBytes()));
        }
    }

    /**
     * A client of the broker the settings name (their first node, transport, TLS and credentials; none of the load's
     * CONNECT options), connected within {@code timeoutMillis}.
     *
     * @param afterReconnect called after each reconnect of a connection that once worked; null: never reconnects
     * @param onMessage      gets each received message's topic and payload on the event loop; null: none expected
     * @throws IllegalStateException naming the broker and why, when it could not connect in time
     */
    public static ControlClient connect(String clientId, ConnectionSettings settings, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        return new ControlClient(clientId, ClientConfigs.transport(settings, null), settings.describe(),
                Mqtt3Session.auth(settings), afterReconnect, onMessage).connect(timeoutMillis);
    }

    /** As {@link #connect(String, ConnectionSettings, long, Runnable, BiConsumer)}, over plain TCP without credentials. */
    public static ControlClient connect(String clientId, String host, int port, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        return new ControlClient(clientId, MqttClientTransportConfig.builder().serverHost(host).serverPort(port).build(),
                host + ":" + port, null, afterReconnect, onMessage).connect(timeoutMillis);
    }

    private ControlClient connect(long timeoutMillis) {
        CompletableFuture<?> connack = client.connectWith().cleanSession(true).keepAlive(60).send();
        String failure = ControlConnection.await(connack, timeoutMillis);
        if (failure != null) {
            // Before the close below, which ends the attempt: still pending now means the broker never answered; so does
            // the library's own CONNACK timeout, which races with this wait when both are the connect timeout.
            boolean answered = connack.isDone()
                    && !connack.handle((ack, e) -> e != null && Errors.isConnackTimeout(e)).join();
            close(timeoutMillis);
            // One condition, one wording, whichever of the two timeouts came first.
            String message = "could not connect to " + broker + ": " + (answered ? failure
                    : "no answer within " + timeoutMillis + " ms");
            throw answered ? new IllegalStateException(message) : new NoAnswer(message);
        }
        return this;
    }

    /** Subscribes; the future completes when the broker granted the subscription. */
    @Override
    public CompletableFuture<Void> subscribe(String filter, int qos) {
        return client.subscribeWith().topicFilter(filter).qos(HiveMqConnection.mqttQos(qos)).send().thenApply(ack -> null);
    }

    @Override
    public String broker() {
        return broker;
    }

    /** Publishes; the future completes when the broker took the message (written at QoS 0, PUBACK at QoS 1). */
    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain) {
        return client.publishWith().topic(topic).qos(HiveMqConnection.mqttQos(qos)).retain(retain).payload(payload).send()
                .thenApply(published -> null);
    }

    /** Disconnects and stops reconnecting, waiting at most {@code timeoutMillis}; returns why it failed, or null. */
    @Override
    public String close(long timeoutMillis) {
        closing = true;
        return ControlConnection.await(client.disconnect(), timeoutMillis);
    }
}
