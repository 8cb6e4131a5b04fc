package io.mqttload.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A connected MQTT 3.1.1 client for the engine's own messages, outside the load and its counters: the rendezvous,
 * the clock exchange, the {@code $SYS} reader, the broker's version and the fleet claim. Made connected by an
 * {@link MqttConnector}; received messages go to the handler given there, on the transport's event loop.
 */
public interface ControlConnection {
    /** Subscribes; the future completes when the broker granted the subscription. */
    CompletableFuture<Void> subscribe(String filter, int qos);

    /**
     * Subscribes and waits for the SUBACK at most {@code timeoutMillis}.
     *
     * @throws IllegalStateException naming the filter, the broker and why, when it was not granted in time
     */
    default void subscribe(String filter, int qos, long timeoutMillis) {
        String failure = await(subscribe(filter, qos), timeoutMillis);
        if (failure != null) {
            throw new IllegalStateException("subscribing to " + filter + " on " + broker() + " failed: " + failure);
        }
    }

    /** The broker this client is connected to, as messages name it. */
    String broker();

    /** Publishes; the future completes when the broker took the message (written at QoS 0, PUBACK at QoS 1). */
    CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain);

    /** Disconnects and stops reconnecting, waiting at most {@code timeoutMillis}; returns why it failed, or null. */
    String close(long timeoutMillis);

    /**
     * The broker gave no CONNACK (nor refused the connection) in time: busy, as under a storm of connects, rather than
     * absent or refusing; worth another try where the caller has time left.
     */
    final class NoAnswer extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public NoAnswer(String message) {
            super(message);
        }
    }

    /**
     * Waits for {@code f} at most {@code timeoutMillis}; returns null when it completed normally, else why it did not,
     * as one line. An interrupt is kept for the caller and reported as the reason.
     */
    static String await(Future<?> f, long timeoutMillis) {
        try {
            f.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return Errors.describe(e);
        } catch (TimeoutException e) {
            return "no answer within " + timeoutMillis + " ms";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
