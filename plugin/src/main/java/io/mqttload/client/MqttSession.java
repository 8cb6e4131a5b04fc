package io.mqttload.client;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import io.reactivex.Flowable;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientState;
import com.hivemq.client.mqtt.datatypes.MqttQos;

/**
 * What differs between MQTT 3.1.1 and MQTT 5 in the HiveMQ client's API, behind one interface: a load client
 * holds one session of its protocol version and does everything else (counting, streams, scopes) the same way.
 */
interface MqttSession {
    /**
     * Runs the publish callback on the thread that read the message: the client's Netty event loop. Without an
     * executor the client hands every message to its application scheduler (RxJava's computation pool, one
     * thread per core, shared by every client and by publish completions) while Netty keeps reading and queues
     * QoS 0 messages in memory. That hop put queueing time into pub-to-sub latency, and a slow consumer parked a
     * pool thread: its own socket was still read, so the broker never saw a slow reader, and every other client
     * and the publishers were slowed down instead.
     */
    Executor ON_EVENT_LOOP = Runnable::run;

    /**
     * A session of the settings' protocol version; every received message goes to {@code onMessage}, on the client's
     * event loop, as the session's one reused view.
     */
    static MqttSession of(MqttClientBuilder builder, ConnectionSettings settings, Consumer<InboundMessage> onMessage) {
        return settings.protocolVersion() == ProtocolVersion.MQTT_5 ? new Mqtt5Session(builder, onMessage)
                : new Mqtt3Session(builder, onMessage);
    }

    /**
     * Hands received messages to {@code onMessage} again: the client drops its receivers with a session that ended
     * (see {@link HiveMqConnection}), so a client that will subscribe again must first ask to receive again. Called
     * once the session ended, never while it lives (each call adds a receiver: messages would arrive twice).
     */
    void receiveAgain();

    /** CONNECT with the settings' session, keep-alive and credentials; completes with whether a session was resumed. */
    CompletableFuture<Boolean> connect(ConnectionSettings settings);

    /**
     * Completes when the broker took the message: written (QoS 0), PUBACK (QoS 1) or PUBCOMP (QoS 2). An MQTT 3.1.1
     * session takes only {@link PublishProperties#NONE}; the caller checks that first.
     */
    CompletableFuture<Void> publish(String topic, byte[] payload, MqttQos qos, boolean retain, PublishProperties properties);

    /** Like {@link #publish(String, byte[], MqttQos, boolean, PublishProperties)}, calling {@code done} with null or the error. */
    void publish(String topic, byte[] payload, MqttQos qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done);

    /**
     * Completes when every filter was granted, else fails with {@link SubscribeRefusedException}. An MQTT 3.1.1
     * session takes only {@link SubscribeOptions#DEFAULT}.
     */
    CompletableFuture<Void> subscribe(List<String> filters, MqttQos qos, SubscribeOptions options);

    CompletableFuture<Void> disconnect();

    MqttClientState state();

    /** Whether the broker's silence on a CONNECT may mean it does not speak this version. */
    boolean isMqtt5();

    /**
     * QoS 2 through the reactive API: the future API completes at PUBREC, before the flow is done, while the
     * acknowledgement stream completes at PUBCOMP. Fails with the first error the stream reports.
     */
    static CompletableFuture<Void> untilComplete(Flowable<Optional<Throwable>> results) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        results.subscribe(error -> error.ifPresent(done::completeExceptionally), done::completeExceptionally,
                () -> done.complete(null));
        return done;
    }
}
