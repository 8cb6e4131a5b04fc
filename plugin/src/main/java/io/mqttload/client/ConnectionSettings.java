package io.mqttload.client;

import java.util.List;
import java.util.Objects;

import javax.net.ssl.KeyManagerFactory;

import io.mqttload.common.InvalidSettingException;

/**
 * Where and how clients connect: the broker's nodes (one, or a cluster's list and how clients are spread over it),
 * transport, protocol version, credentials, TLS material, session settings and what else the CONNECT carries (will,
 * MQTT 5 properties). Immutable; {@link Builder#build()} parses the node list and refuses what no single setting's
 * check can see; each number is within its range as {@code ConnectionConfigSettings} declares and checks it, and is
 * taken as it is. A client connects with {@link #forNode(int)}: the same settings aimed at one node.
 */
public final class ConnectionSettings {
    private final String host;
    private final int port;
    private final Transport transport;
    private final List<BrokerNode> nodes;
    /** The node these settings aim at. */
    private final BrokerNode node;
    private final NodeAssignment assignment;
    private final String nodeTemplate;
    private final long nodeSeed;
    private final boolean failover;
    private final TlsSettings tlsMaterial;
    private final String webSocketPath;
    private final ProtocolVersion protocolVersion;
    private final String username;
    private final String password;
    private final TlsSettings tls;
    private final int keepAliveSeconds;
    private final boolean cleanStart;
    private final long sessionExpirySeconds;
    private final int connectTimeoutMs;
    private final ConnectOptions connectOptions;
    /** This client's own key material (a per-client key store); null: the TLS settings' key, if any. */
    private final KeyManagerFactory clientKeys;

    private ConnectionSettings(Builder b) {
        this.clientKeys = null;
        this.nodes = List.copyOf(BrokerNode.parseList("nodes", b.nodes, b.host, b.port,
                Objects.requireNonNull(b.transport, "transport")));
        this.node = nodes.get(0);
        this.host = node.host;
        this.port = node.port;
        this.transport = node.transport;
        this.assignment = Objects.requireNonNull(b.assignment, "nodeAssignment");
        this.nodeTemplate = b.nodeTemplate == null ? "" : b.nodeTemplate.trim();
        if (assignment == NodeAssignment.TEMPLATE && nodeTemplate.isEmpty()) {
            throw new InvalidSettingException("nodeTemplate", "", "nodeAssignment = TEMPLATE needs a template that names"
                    + " each client's node, such as {thread}");
        }
        this.nodeSeed = b.nodeSeed;
        this.failover = b.failover;
        for (BrokerNode n : nodes) {
            if (n.transport.isSecure() && b.tls == null) {
                throw new InvalidSettingException("nodes", n.name, "a TLS node needs the connection's TLS settings");
            }
        }
        this.tlsMaterial = b.tls;
        String path = b.webSocketPath == null ? "" : b.webSocketPath.trim();
        this.webSocketPath = path.startsWith("/") ? path.substring(1) : path;
        this.protocolVersion = Objects.requireNonNull(b.protocolVersion, "protocolVersion");
        this.username = b.username == null ? "" : b.username;
        this.password = b.password == null ? "" : b.password;
        if (!this.password.isEmpty() && this.username.isEmpty() && protocolVersion == ProtocolVersion.MQTT_3_1_1) {
            throw new InvalidSettingException("username", "", "MQTT 3.1.1 allows a password only with a username");
        }
        this.tls = transport.isSecure() ? Objects.requireNonNull(b.tls, "tls") : null;
        this.keepAliveSeconds = (int) b.keepAliveSeconds;
        this.cleanStart = b.cleanStart;
        this.sessionExpirySeconds = b.sessionExpirySeconds;
        this.connectTimeoutMs = (int) b.connectTimeoutMs;
        this.connectOptions = Objects.requireNonNull(b.connectOptions, "connectOptions");
        if (protocolVersion == ProtocolVersion.MQTT_3_1_1) {
            connectOptions.checkMqtt311();
        }
    }

    /** The same settings aimed at {@code target}, one of {@code base}'s nodes, presenting {@code clientKeys}. */
    private ConnectionSettings(ConnectionSettings base, BrokerNode target, KeyManagerFactory clientKeys) {
        this.clientKeys = clientKeys;
        this.nodes = base.nodes;
        this.node = target;
        this.host = target.host;
        this.port = target.port;
        this.transport = target.transport;
        this.assignment = base.assignment;
        this.nodeTemplate = base.nodeTemplate;
        this.nodeSeed = base.nodeSeed;
        this.failover = base.failover;
        this.tlsMaterial = base.tlsMaterial;
        this.webSocketPath = base.webSocketPath;
        this.protocolVersion = base.protocolVersion;
        this.username = base.username;
        this.password = base.password;
        this.tls = target.transport.isSecure() ? base.tlsMaterial : null;
        this.keepAliveSeconds = base.keepAliveSeconds;
        this.cleanStart = base.cleanStart;
        this.sessionExpirySeconds = base.sessionExpirySeconds;
        this.connectTimeoutMs = base.connectTimeoutMs;
        this.connectOptions = base.connectOptions;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** These settings aimed at node {@code index} of the list. */
    public ConnectionSettings forNode(int index) {
        return index == node.index ? this : new ConnectionSettings(this, nodes.get(index), clientKeys);
    }

    /** These settings for a client that presents its own key (a per-client key store), on every node it goes to. */
    public ConnectionSettings withClientKeys(KeyManagerFactory keys) {
        return new ConnectionSettings(this, node, keys);
    }

    /** The key material this client presents in a TLS handshake, or null for none. */
    KeyManagerFactory keyManagers() {
        if (clientKeys != null) {
            return clientKeys;
        }
        return tls == null ? null : tls.keyManagers();
    }

    public List<BrokerNode> nodes() {
        return nodes;
    }

    /** The node these settings connect to. */
    public BrokerNode node() {
        return node;
    }

    public NodeAssignment assignment() {
        return assignment;
    }

    /** For {@link NodeAssignment#TEMPLATE}: the template that names a client's node; empty otherwise. */
    public String nodeTemplate() {
        return nodeTemplate;
    }

    public long nodeSeed() {
        return nodeSeed;
    }

    /** Whether a client that lost its node reconnects to the next node of the list (with several nodes). */
    public boolean failover() {
        return failover && nodes.size() > 1;
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

    /** The will and the MQTT 5 connect properties. */
    public ConnectOptions connectOptions() {
        return connectOptions;
    }

    public String describe() {
        String target = transport + " " + host + ":" + port + (transport.isWebSocket() ? "/" + webSocketPath : "");
        if (nodes.size() > 1) {
            target = nodes.size() + " broker nodes " + nodes + " (" + assignment + ", first " + target + ")";
        }
        return target + " " + protocolVersion;
    }

    /**
     * Every node's transport and address, for a report: {@code tcp://127.0.0.1:1883}, or a cluster's list with how
     * clients spread over it.
     */
    public String describeNodes() {
        StringBuilder s = new StringBuilder();
        for (BrokerNode n : nodes) {
            s.append(s.length() == 0 ? "" : " ").append(n.describe()).append(n.transport.isWebSocket() ? "/" + webSocketPath : "");
        }
        return nodes.size() > 1 ? s + " (" + assignment + ")" : s.toString();
    }

    /** Mutable collector of the values; {@link #build()} checks what they say together. */
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
        private String nodes = "";
        private NodeAssignment assignment = NodeAssignment.ROUND_ROBIN;
        private String nodeTemplate = "";
        private long nodeSeed;
        private boolean failover = true;
        private ConnectOptions connectOptions = ConnectOptions.NONE;

        public Builder nodeFailover(boolean value) {
            this.failover = value;
            return this;
        }

        /** A cluster's nodes ({@link BrokerNode#parseList}); empty: the one node {@code host:port}. */
        public Builder nodes(String value) {
            this.nodes = value;
            return this;
        }

        public Builder nodeAssignment(NodeAssignment value) {
            this.assignment = value;
            return this;
        }

        public Builder nodeTemplate(String value) {
            this.nodeTemplate = value;
            return this;
        }

        public Builder nodeSeed(long value) {
            this.nodeSeed = value;
            return this;
        }

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

        /** The will and the MQTT 5 connect properties; with MQTT 3.1.1, any MQTT 5 option set is refused. */
        public Builder connectOptions(ConnectOptions value) {
            this.connectOptions = value;
            return this;
        }

        public ConnectionSettings build() {
            return new ConnectionSettings(this);
        }
    }
}
