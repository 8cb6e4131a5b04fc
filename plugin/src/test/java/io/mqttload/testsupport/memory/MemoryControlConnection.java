package io.mqttload.testsupport.memory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import io.mqttload.client.ControlConnection;
import io.mqttload.client.Errors;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.SubscribeOptions;

/**
 * A control client of the {@link InMemoryBroker}: MQTT 3.1.1, clean session, connected when made, reconnecting (when
 * asked, with {@code afterReconnect}) like the real {@code ControlClient}, and failing its connect the same two ways: a
 * refusal, or {@link ControlConnection.NoAnswer} when the broker did not answer in time.
 */
final class MemoryControlConnection implements ControlConnection {
    /** The real control client retries until it is closed; a test's broker is back long before this many tries. */
    private static final ReconnectPolicy UNTIL_CLOSED = new ReconnectPolicy(1_000, 200, 2_000);

    private final Link link;
    private final String broker;

    private MemoryControlConnection(Link link, String broker) {
        this.link = link;
        this.broker = broker;
    }

    static MemoryControlConnection connect(InMemoryBroker broker, String clientId, String brokerName,
            long timeoutMillis, Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        Link link = new Link(broker, clientId, false, true, 0,
                afterReconnect == null ? ReconnectPolicy.none() : UNTIL_CLOSED, timeoutMillis);
        link.events(new Link.Events() {
            @Override
            public void opened(boolean reconnect, boolean sessionPresent) {
                if (reconnect && afterReconnect != null) {
                    afterReconnect.run();
                }
            }

            @Override
            public void closed() {
                // The owner learns of a reconnect only, as from the real control client.
            }

            @Override
            public void lost(Throwable cause) {
                // As closed().
            }

            @Override
            public void gaveUp(int attempts) {
                // A control client reconnects until it is closed, or not at all: it never gives up.
            }

            @Override
            public void message(MemoryMessage message, int qos) {
                if (onMessage != null) {
                    onMessage.accept(message.topic, message.payload.clone());
                }
            }
        });
        MemoryControlConnection client = new MemoryControlConnection(link, brokerName);
        CompletableFuture<Boolean> connack = link.connect();
        String failure = ControlConnection.await(connack, timeoutMillis);
        if (connack.isCompletedExceptionally()) {
            // A refusal reads as the real control client's: the CONNACK's reason, without an exception's name.
            Throwable refusal = Errors.unwrap(connack.handle((ok, e) -> e).join());
            failure = refusal instanceof InMemoryBroker.ConnackRefused ? refusal.getMessage() : failure;
        }
        if (failure != null) {
            boolean answered = connack.isCompletedExceptionally()
                    && !(Errors.unwrap(connack.handle((ok, e) -> e).join()) instanceof Link.NoConnack);
            client.close(timeoutMillis);
            String message = "could not connect to " + brokerName + ": " + failure;
            throw answered ? new IllegalStateException(message) : new NoAnswer(message);
        }
        return client;
    }

    @Override
    public CompletableFuture<Void> subscribe(String filter, int qos) {
        return link.subscribe(List.of(filter), qos, SubscribeOptions.DEFAULT);
    }

    @Override
    public String broker() {
        return broker;
    }

    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain) {
        return link.publish(topic, payload, qos, retain, null, Runnable::run);
    }

    @Override
    public String close(long timeoutMillis) {
        return ControlConnection.await(link.disconnect(), timeoutMillis);
    }
}
