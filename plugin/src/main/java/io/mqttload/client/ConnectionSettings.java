package io.mqttload.client;

import java.util.Objects;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;

/**
 * Where and how clients connect: broker address, transport, protocol version, credentials, TLS
 * material and session settings. Immutable; {@link Builder#build()} validates every field.
 */
public final class ConnectionSettings {
    private final String host;
    private final int port;
    private final Transport transport;
    private final String webSocketPath;
    private final ProtocolVersion protocolVersion;
    private final String username;
    private final String password;
    private final TlsSettings tls;
    private final int keepAliveSeconds;
    private final boolean cleanStart;
    private final long sessionExpirySeconds;
    private final int connectTimeoutMs;

    private ConnectionSettings(Builder b) {
        this.host = Checks.notBlank("host", b.host);
        this.port = Checks.port("port", b.port);
        this.transport = Objects.requireNonNull(b.transport, "transport");
        String path = b.webSocketPath == null ? "" : b.webSocketPath.trim();
        this.webSocketPath = path.startsWith("/") ? path.substring(1) : path;
        this.protocolVersion = Objects.requireNonNull(b.protocolVersion, "protocolVersion");
        this.username = b.username == null ? "" : b.username;
        this.password = b.password == null ? "" : b.password;
        if (!this.password.isEmpty() && this.username.isEmpty() && protocolVersion == ProtocolVersion.MQTT_3_1_1) {
            throw new InvalidSettingException("username", "", "MQTT 3.1.1 allows a password only with a username");
        }
        this.tls = transport.isSecure() ? Objects.requireNonNull(b.tls, "tls") : null;
        this.keepAliveSeconds = (int) Checks.between("keepAliveSeconds", b.keepAliveSeconds, 0, 65535);
        this.cleanStart = b.cleanStart;
        this.sessionExpirySeconds = Checks.between("sessionExpirySeconds", b.sessionExpirySeconds, 0, 4294967295L);
        this.connectTimeoutMs = (int) Checks.between("connectTimeoutMs", b.connectTimeoutMs, 1, 3_600_000);
    }

    public static Builder builder() {
        return new Builder();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public Transport transport() {
        return transport;
    }

    /** Path of the WebSocket endpoint without its leading slash, as the HiveMQ client expects it. */
    public String webSocketPath() {
        return webSocketPath;
    }

    public ProtocolVersion protocolVersion() {
        return protocolVersion;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** TLS material, or null when the transport is not secure. */
    public TlsSettings tls() {
        return tls;
    }

    public int keepAliveSeconds() {
        return keepAliveSeconds;
    }

    public boolean cleanStart() {
        return cleanStart;
    }

    public long sessionExpirySeconds() {
        return sessionExpirySeconds;
    }

    public int connectTimeoutMs() {
        return connectTimeoutMs;
    }

    public String describe() {
        return transport + " " + host + ":" + port + (transport.isWebSocket() ? "/" + webSocketPath : "") + " "
                + protocolVersion;
    }

    /** Mutable collector of the raw values; {@link #build()} validates. */
    public static final class Builder {
        private String host = "localhost";
        private int port = 1883;
        private Transport transport = Transport.TCP;
        private String webSocketPath = "mqtt";
        private ProtocolVersion protocolVersion = ProtocolVersion.MQTT_5;
        private String username = "";
        private String password = "";
        private TlsSettings tls = TlsSettings.systemDefaults();
        private long keepAliveSeconds = 60;
        private boolean cleanStart = true;
        private long sessionExpirySeconds;
        private long connectTimeoutMs = 10_000;

        public Builder host(String value) {
            this.host = value;
            return this;
        }

        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder transport(Transport value) {
            this.transport = value;
            return this;
        }

        public Builder webSocketPath(String value) {
            this.webSocketPath = value;
            return this;
        }

        public Builder protocolVersion(ProtocolVersion value) {
            this.protocolVersion = value;
            return this;
        }

        public Builder username(String value) {
            this.username = value;
            return this;
        }

        public Builder password(String value) {
            this.password = value;
            return this;
        }

        public Builder tls(TlsSettings value) {
            this.tls = value;
            return this;
        }

        public Builder keepAliveSeconds(long value) {
            this.keepAliveSeconds = value;
            return this;
        }

        public Builder cleanStart(boolean value) {
            this.cleanStart = value;
            return this;
        }

        public Builder sessionExpirySeconds(long value) {
            this.sessionExpirySeconds = value;
            return this;
        }

        public Builder connectTimeoutMs(long value) {
            this.connectTimeoutMs = value;
            return this;
        }

        public ConnectionSettings build() {
            return new ConnectionSettings(this);
        }
    }
}
