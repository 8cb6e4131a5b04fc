package io.mqttload.client;

import java.net.InetAddress;
import java.util.function.BiConsumer;

/** The real transport: load connections and control clients on the HiveMQ client, over the network. */
public final class HiveMqConnector implements MqttConnector {
    /** Stateless: every connection holds its own client, on the suite's shared event loop. */
    public static final HiveMqConnector INSTANCE = new HiveMqConnector();

    private HiveMqConnector() {
    }

    @Override
    public LoadConnection loadConnection(String clientId, InetAddress localAddress, ConnectionSettings settings,
            ReconnectPolicy reconnectPolicy, boolean ownEventLoop, LoadConnection.Listener listener) {
        return new HiveMqConnection(clientId, localAddress, settings, reconnectPolicy, ownEventLoop, listener);
    }

    @Override
    public ControlConnection controlConnection(String clientId, ConnectionSettings settings, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        return ControlClient.connect(clientId, settings, timeoutMillis, afterReconnect, onMessage);
    }

    @Override
    public ControlConnection controlConnection(String clientId, String host, int port, long timeoutMillis,
            Runnable afterReconnect, BiConsumer<String, byte[]> onMessage) {
        return ControlClient.connect(clientId, host, port, timeoutMillis, afterReconnect, onMessage);
    }
}
