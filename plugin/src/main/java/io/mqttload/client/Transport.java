package io.mqttload.client;

import java.util.Locale;

import io.mqttload.common.InvalidSettingException;

/** How a client reaches the broker. */
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

    public static Transport parse(String field, String text) {
        String key = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
        switch (key) {
            case "TCP":
                return TCP;
            case "TLS":
            case "SSL":
                return TLS;
            case "WEBSOCKET":
            case "WS":
                return WEBSOCKET;
            case "SECURE_WEBSOCKET":
            case "WSS":
                return SECURE_WEBSOCKET;
            default:
                throw new InvalidSettingException(field, text, "transport must be TCP, TLS, WEBSOCKET or SECURE_WEBSOCKET");
        }
    }
}
