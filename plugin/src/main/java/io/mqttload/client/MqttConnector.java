package io.mqttload.client;

import java.net.InetAddress;
import java.util.function.BiConsumer;

/**
 * The transport port: how a run reaches its brokers. The engine takes every connection through it, the load's and its
 * own (rendezvous, clock, {@code $SYS}, broker version), so that a test can put an in-memory broker in the network's
 * place; {@link HiveMqConnector} is the real one.
 */
public interface MqttConnector {
    /**
     * A load connection, not yet connected, of {@code clientId} to the settings' node.
     *
     * @param localAddress    the local address to connect from, or null for the system's choice
     * @param reconnectPolicy how a connection that once worked is retried after it was lost, and whether and how a
     *                        first connect that failed is retried
     * @param ownEventLoop    whether this client gets an event-loop thread of its own (a slow consumer: its slowness
     *                        then stalls only its own socket, as a slow reader's would)
     */
    LoadConnection loadConnection(String clientId, InetAddress localAddress, ConnectionSettings settings,
            ReconnectPolicy reconnectPolicy, boolean ownEventLoop, LoadConnection.Listener listener);

    /**
     * A control client of the broker the settings name (their first node, transport, TLS and credentials; none of the
     * load's CONNECT options), connected within {@code timeoutMillis}.
     *
     * @param afterReconnect called after each reconnect of a connection that once worked; null: never reconnects
     * @param onMessage      gets each received message's topic and payload on the event loop; null: none expected
     * @throws ControlConnection.NoAnswer when the broker did not answer in time
     * @throws IllegalStateException      naming the broker and why, when it refused or could not be reached
     */
    ControlConnection controlConnection(String clientId, ConnectionSettings settings, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage);

    /** As {@link #controlConnection(String, ConnectionSettings, long, Runnable, BiConsumer)}, plain TCP, no credentials. */
    ControlConnection controlConnection(String clientId, String host, int port, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage);
}
