package io.mqttload.client;

/** How a client reaches the broker; the MQTT Connection's {@code transport} names one (its declaration parses it). */
public enum Transport {
    TCP(false, false),
    TLS(true, false),
    WEBSOCKET(false, true),
    SECURE_WEBSOCKET(true, true);

    private final boolean secure;
    private final boolean webSocket;

    Transport(boolean secure, boolean webSocket) {
        this.secure = secure;
        this.webSocket = webSocket;
    }

    public boolean isSecure() {
        return secure;
    }

    public boolean isWebSocket() {
        return webSocket;
    }

    /** The URI scheme that names it in a node list (see {@link BrokerNode#parseList}). */
    public String scheme() {
        return webSocket ? (secure ? "wss" : "ws") : (secure ? "tls" : "tcp");
    }
}
