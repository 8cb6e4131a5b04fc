package io.mqttload.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One MQTT connection of the load as the engine sees it, whatever carries it: the HiveMQ client over a network
 * ({@link HiveMqConnection}) or a test's in-memory broker. It counts nothing itself; every method returns without
 * blocking, and callers bound their waits. Made by an {@link MqttConnector}.
 */
public interface LoadConnection {
    /** What the connection tells its owner, on the transport's event-loop thread; none of it may block. */
    interface Listener {
        /**
         * The connection is up: the first time, or again after a lost one ({@code reconnect}); {@code sessionPresent}
         * is the CONNACK's flag: whether the broker still held the client's session (its subscriptions among them).
         */
        void opened(boolean reconnect, boolean sessionPresent);

        /** An open connection closed, whatever the reason (the user's DISCONNECT too). */
        void closed();

        /**
         * A connection that was up was lost without the user asking.
         *
         * @param protocolViolation whether the client closed it because the broker broke the protocol
         */
        void lost(boolean protocolViolation, Throwable cause);

        /**
         * A connection that was up was closed by the broker because another connection with the same client id took
         * its session over: an MQTT 5 DISCONNECT with reason 0x8E, called instead of {@link #lost}. MQTT 3.1.1 has no
         * reason: the broker just closes the connection, which arrives as {@link #lost}, as a network's loss would.
         * A listener that does not tell the two apart sees a lost connection.
         */
        default void sessionTakenOver(Throwable cause) {
            lost(false, cause);
        }

        /** A failover reconnect moved the client from node {@code from} to node {@code to} of the settings' list. */
        void movedNode(int from, int to);

        /**
         * A lost connection stays lost: each of the {@code attempts} reconnects its policy allows failed, and the client
         * tries no more (not called for a policy of no reconnects, nor for a connection the user closed).
         */
        void gaveUp(int attempts);

        /**
         * A CONNACK refused a connect or a reconnect attempt with {@code code} (MQTT 5 reason code, MQTT 3.1.1 return
         * code), {@code reason} in the words a failure shows; whether it is tried again is the policy's (see
         * {@link ReconnectPolicy#meansLater}). Called before {@link #retrying} or the connect's failure.
         */
        void refused(int code, String reason);

        /**
         * Another attempt is scheduled {@code delayMillis} from now under the policy: a retry of a first connect that
         * failed ({@code firstConnect}), or a reconnect attempt after a lost connection.
         */
        void retrying(boolean firstConnect, long delayMillis);

        /** A received message; the view is reused for the next one (see {@link InboundMessage}). */
        void message(InboundMessage message);
    }

    String clientId();

    /** The index of this client's broker node in the settings' list: the one it is (or was last) connected to. */
    int nodeIndex();

    /** The broker nodes of the settings, this client's among them. */
    List<BrokerNode> nodes();

    boolean isConnected();

    /** Whether the client is between a lost connection and a reconnect attempt (or in one). */
    boolean isReconnecting();

    /** Whether this client speaks MQTT 5 (MQTT 5 properties and subscription options need it). */
    boolean isMqtt5();

    /** Connects; the future completes with whether the broker resumed a session. */
    CompletableFuture<Boolean> connect();

    /** The instants of the last connect (TCP established, TLS done), read when its CONNACK arrived; 0 when not seen. */
    ConnectPhases phases();

    /**
     * The event loop this connection's I/O runs on, always the same one; null for a connection without one. A publish
     * called on it is written by the loop's next pass without waking it from another thread.
     */
    default ClientLoop eventLoop() {
        return null;
    }

    /** Why a connect failed, in the words a failed sample and the verdict show. */
    String connectFailure(Throwable error);

    /**
     * Publishes one message; the future completes when the broker took it: written (QoS 0), PUBACK (QoS 1) or PUBCOMP
     * (QoS 2), off the event loop, for a thread that waits.
     */
    CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties);

    /**
     * Publishes one message and calls {@code done} (with null, or the error) on the event loop when the broker took it,
     * without an intermediate future: the asynchronous publish path and the responders run this once per message.
     */
    void publish(String topic, byte[] payload, int qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done);

    /**
     * Subscribes to {@code filters} at {@code qos}. The future completes normally when the broker granted every
     * filter, and exceptionally with {@link SubscribeRefusedException} naming each refused filter and its code
     * otherwise.
     */
    CompletableFuture<Void> subscribe(List<String> filters, int qos, SubscribeOptions options);

    /**
     * Closes the connection abruptly, without DISCONNECT, as a network or a broker going away would: the listener hears
     * closed and lost, and the connection reconnects under its policy, its attempts held back until
     * {@code offlineMillis} have passed (each waits the longer of its policy's delay and the time left). Does nothing
     * without an open connection.
     */
    void drop(long offlineMillis);

    /** Sends DISCONNECT; the future completes, successfully only when it was sent, once the client is closed. */
    CompletableFuture<Void> disconnect();
}
