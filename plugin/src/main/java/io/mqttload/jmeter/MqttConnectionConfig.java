package io.mqttload.jmeter;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.testbeans.TestBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectOptions;
import io.mqttload.client.ConnectOptions.AuthDataEncoding;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.NodeAssignment;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.TlsSettings;
import io.mqttload.client.Transport;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;

/**
 * MQTT Connection: where and how the MQTT Connect samplers in its scope connect. Like HTTP Request
 * Defaults, the nearest one in scope applies. The settings are validated and the TLS stores loaded
 * once per thread, at the first connect.
 */
public class MqttConnectionConfig extends ConfigTestElement implements TestBean, MqttTestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(MqttConnectionConfig.class);

    private String host = ConnectionConfigSettings.HOST.defaultText();
    private String port = ConnectionConfigSettings.PORT.defaultText();
    private String transport = ConnectionConfigSettings.TRANSPORT.defaultText();
    private String webSocketPath = ConnectionConfigSettings.WEB_SOCKET_PATH.defaultText();
    private String mqttVersion = ConnectionConfigSettings.MQTT_VERSION.defaultText();
    private String username = ConnectionConfigSettings.USERNAME.defaultText();
    private String password = ConnectionConfigSettings.PASSWORD.defaultText();
    private String trustStorePath = ConnectionConfigSettings.TRUST_STORE_PATH.defaultText();
    private String trustStorePassword = ConnectionConfigSettings.TRUST_STORE_PASSWORD.defaultText();
    private String keyStorePath = ConnectionConfigSettings.KEY_STORE_PATH.defaultText();
    private String keyStorePassword = ConnectionConfigSettings.KEY_STORE_PASSWORD.defaultText();
    private String keyStoreAlias = ConnectionConfigSettings.KEY_STORE_ALIAS.defaultText();
    private String verifyHostname = ConnectionConfigSettings.VERIFY_HOSTNAME.defaultText();
    private String keepAliveSeconds = ConnectionConfigSettings.KEEP_ALIVE_SECONDS.defaultText();
    private String cleanStart = ConnectionConfigSettings.CLEAN_START.defaultText();
    private String sessionExpirySeconds = ConnectionConfigSettings.SESSION_EXPIRY_SECONDS.defaultText();
    private String connectTimeoutMs = ConnectionConfigSettings.CONNECT_TIMEOUT_MS.defaultText();
    private String nodes = ConnectionConfigSettings.NODES.defaultText();
    private String nodeAssignment = ConnectionConfigSettings.NODE_ASSIGNMENT.defaultText();
    private String nodeTemplate = ConnectionConfigSettings.NODE_TEMPLATE.defaultText();
    private String nodeSeed = ConnectionConfigSettings.NODE_SEED.defaultText();
    private String nodeFailover = ConnectionConfigSettings.NODE_FAILOVER.defaultText();
    private String willTopic = ConnectionConfigSettings.WILL_TOPIC.defaultText();
    private String willPayload = ConnectionConfigSettings.WILL_PAYLOAD.defaultText();
    private String willQos = ConnectionConfigSettings.WILL_QOS.defaultText();
    private String willRetain = ConnectionConfigSettings.WILL_RETAIN.defaultText();
    private String willDelaySeconds = ConnectionConfigSettings.WILL_DELAY_SECONDS.defaultText();
    private String receiveMaximum = ConnectionConfigSettings.RECEIVE_MAXIMUM.defaultText();
    private String maximumPacketSize = ConnectionConfigSettings.MAXIMUM_PACKET_SIZE.defaultText();
    private String topicAliasMaximum = ConnectionConfigSettings.TOPIC_ALIAS_MAXIMUM.defaultText();
    private String sendTopicAliasMaximum = ConnectionConfigSettings.SEND_TOPIC_ALIAS_MAXIMUM.defaultText();
    private String userProperties = ConnectionConfigSettings.USER_PROPERTIES.defaultText();
    private String authMethod = ConnectionConfigSettings.AUTH_METHOD.defaultText();
    private String authData = ConnectionConfigSettings.AUTH_DATA.defaultText();
    private String authDataEncoding = ConnectionConfigSettings.AUTH_DATA_ENCODING.defaultText();

    private transient ConnectionSettings settings;

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();

    /**
     * The validated settings; builds them (and loads the TLS stores) on first use in this thread. The one place this
     * element's fields are parsed and checked, each by its declaration; the builders then check only what the values
     * say together.
     */
    public ConnectionSettings settings() {
        if (settings == null) {
            Transport t = Transport.valueOf(ConnectionConfigSettings.TRANSPORT.parse(transport));
            TlsSettings tls = TlsSettings.systemDefaults();
            boolean cleanStartFlag = ConnectionConfigSettings.CLEAN_START.parse(cleanStart);
            if (t.isSecure()) {
                boolean verify = ConnectionConfigSettings.VERIFY_HOSTNAME.parse(verifyHostname);
                if (!verify) {
                    log.warn("MQTT Connection '{}': TLS host name verification is OFF by explicit choice "
                            + "(verifyHostname = false): the broker's certificate is not checked against '{}'",
                            getName(), host);
                }
                tls = TlsSettings.load(trustStorePath, trustStorePassword, keyStorePath, keyStorePassword,
                        // Plans saved before the field existed load it as null: no alias.
                        keyStoreAlias == null ? "" : keyStoreAlias, verify);
            }
            settings = ConnectionSettings.builder()
                    .host(host)
                    .port(ConnectionConfigSettings.PORT.parse(port))
                    .transport(t)
                    .webSocketPath(webSocketPath)
                    .protocolVersion(ProtocolVersion.valueOf(ConnectionConfigSettings.MQTT_VERSION.parse(mqttVersion)))
                    .username(username)
                    .password(password)
                    .tls(tls)
                    .keepAliveSeconds(ConnectionConfigSettings.KEEP_ALIVE_SECONDS.parse(keepAliveSeconds))
                    .cleanStart(cleanStartFlag)
                    .sessionExpirySeconds(ConnectionConfigSettings.SESSION_EXPIRY_SECONDS.parse(sessionExpirySeconds))
                    .connectTimeoutMs(ConnectionConfigSettings.CONNECT_TIMEOUT_MS.parse(connectTimeoutMs))
                    .nodes(nodes)
                    .nodeAssignment(NodeAssignment.valueOf(ConnectionConfigSettings.NODE_ASSIGNMENT.parse(nodeAssignment)))
                    .nodeTemplate(nodeTemplate)
                    .nodeSeed(ConnectionConfigSettings.NODE_SEED.parse(nodeSeed))
                    .nodeFailover(ConnectionConfigSettings.NODE_FAILOVER.parse(nodeFailover))
                    .connectOptions(connectOptions())
                    .build();
            if (settings.protocolVersion() == ProtocolVersion.MQTT_3_1_1 && settings.sessionExpirySeconds() > 0
                    && JvmRun.current().firstTime("expiry without MQTT 5: " + getName() + "="
                            + settings.sessionExpirySeconds())) {
                // Not refused: the seed plans switch versions with -Jmqtt.version and keep their MQTT 5 expiry.
                log.warn("MQTT Connection '{}': sessionExpirySeconds = {} has no effect with MQTT 3.1.1; the broker keeps"
                        + " the session of a client with cleanStart = false until it connects again with a clean one",
                        getName(), settings.sessionExpirySeconds());
            }
        }
        return settings;
    }

    /** The will and the MQTT 5 connect properties; every field is empty in plans saved before they existed. */
    private ConnectOptions connectOptions() {
        return ConnectOptions.builder()
                .willTopic(willTopic)
                .willPayload(willPayload)
                .willQos(ConnectionConfigSettings.WILL_QOS.parse(willQos))
                .willRetain(ConnectionConfigSettings.WILL_RETAIN.parse(willRetain))
                .willDelaySeconds(unlessNotSet(ConnectionConfigSettings.WILL_DELAY_SECONDS.parse(willDelaySeconds)))
                .receiveMaximum(unlessNotSet(ConnectionConfigSettings.RECEIVE_MAXIMUM.parse(receiveMaximum)))
                .maximumPacketSize(unlessNotSet(ConnectionConfigSettings.MAXIMUM_PACKET_SIZE.parse(maximumPacketSize)))
                .topicAliasMaximum(unlessNotSet(ConnectionConfigSettings.TOPIC_ALIAS_MAXIMUM.parse(topicAliasMaximum)))
                .sendTopicAliasMaximum(unlessNotSet(ConnectionConfigSettings.SEND_TOPIC_ALIAS_MAXIMUM.parse(sendTopicAliasMaximum)))
                .userProperties(userProperties)
                .authMethod(authMethod)
                .authData(authData)
                .authDataEncoding(AuthDataEncoding.valueOf(ConnectionConfigSettings.AUTH_DATA_ENCODING.parse(authDataEncoding)))
                .build();
    }

    /** Null for a number left empty, so that MQTT 3.1.1 can refuse the MQTT 5 options that are set. */
    private static Long unlessNotSet(long value) {
        return value == ConnectionConfigSettings.NOT_SET ? null : value;
    }

    @Override
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(controllerStamp.given());
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public String getPort() {
        return port;
    }

    public void setPort(String port) {
        this.port = port;
    }

    public String getTransport() {
        return transport;
    }

    public void setTransport(String transport) {
        this.transport = transport;
    }

    public String getWebSocketPath() {
        return webSocketPath;
    }

    public void setWebSocketPath(String webSocketPath) {
        this.webSocketPath = webSocketPath;
    }

    public String getMqttVersion() {
        return mqttVersion;
    }

    public void setMqttVersion(String mqttVersion) {
        this.mqttVersion = mqttVersion;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getTrustStorePath() {
        return trustStorePath;
    }

    public void setTrustStorePath(String trustStorePath) {
        this.trustStorePath = trustStorePath;
    }

    public String getTrustStorePassword() {
        return trustStorePassword;
    }

    public void setTrustStorePassword(String trustStorePassword) {
        this.trustStorePassword = trustStorePassword;
    }

    public String getKeyStorePath() {
        return keyStorePath;
    }

    public void setKeyStorePath(String keyStorePath) {
        this.keyStorePath = keyStorePath;
    }

    public String getKeyStorePassword() {
        return keyStorePassword;
    }

    public void setKeyStorePassword(String keyStorePassword) {
        this.keyStorePassword = keyStorePassword;
    }

    public String getKeyStoreAlias() {
        return keyStoreAlias;
    }

    public void setKeyStoreAlias(String keyStoreAlias) {
        this.keyStoreAlias = keyStoreAlias;
    }

    public String getVerifyHostname() {
        return verifyHostname;
    }

    public void setVerifyHostname(String verifyHostname) {
        this.verifyHostname = verifyHostname;
    }

    public String getKeepAliveSeconds() {
        return keepAliveSeconds;
    }

    public void setKeepAliveSeconds(String keepAliveSeconds) {
        this.keepAliveSeconds = keepAliveSeconds;
    }

    public String getCleanStart() {
        return cleanStart;
    }

    public void setCleanStart(String cleanStart) {
        this.cleanStart = cleanStart;
    }

    public String getSessionExpirySeconds() {
        return sessionExpirySeconds;
    }

    public void setSessionExpirySeconds(String sessionExpirySeconds) {
        this.sessionExpirySeconds = sessionExpirySeconds;
    }

    public String getConnectTimeoutMs() {
        return connectTimeoutMs;
    }

    public void setConnectTimeoutMs(String connectTimeoutMs) {
        this.connectTimeoutMs = connectTimeoutMs;
    }

    public String getNodes() {
        return nodes;
    }

    public void setNodes(String nodes) {
        this.nodes = nodes;
    }

    public String getNodeAssignment() {
        return nodeAssignment;
    }

    public void setNodeAssignment(String nodeAssignment) {
        this.nodeAssignment = nodeAssignment;
    }

    public String getNodeTemplate() {
        return nodeTemplate;
    }

    public void setNodeTemplate(String nodeTemplate) {
        this.nodeTemplate = nodeTemplate;
    }

    public String getNodeSeed() {
        return nodeSeed;
    }

    public void setNodeSeed(String nodeSeed) {
        this.nodeSeed = nodeSeed;
    }

    public String getNodeFailover() {
        return nodeFailover;
    }

    public void setNodeFailover(String nodeFailover) {
        this.nodeFailover = nodeFailover;
    }

    public String getWillTopic() {
        return willTopic;
    }

    public void setWillTopic(String willTopic) {
        this.willTopic = willTopic;
    }

    public String getWillPayload() {
        return willPayload;
    }

    public void setWillPayload(String willPayload) {
        this.willPayload = willPayload;
    }

    public String getWillQos() {
        return willQos;
    }

    public void setWillQos(String willQos) {
        this.willQos = willQos;
    }

    public String getWillRetain() {
        return willRetain;
    }

    public void setWillRetain(String willRetain) {
        this.willRetain = willRetain;
    }

    public String getWillDelaySeconds() {
        return willDelaySeconds;
    }

    public void setWillDelaySeconds(String willDelaySeconds) {
        this.willDelaySeconds = willDelaySeconds;
    }

    public String getReceiveMaximum() {
        return receiveMaximum;
    }

    public void setReceiveMaximum(String receiveMaximum) {
        this.receiveMaximum = receiveMaximum;
    }

    public String getMaximumPacketSize() {
        return maximumPacketSize;
    }

    public void setMaximumPacketSize(String maximumPacketSize) {
        this.maximumPacketSize = maximumPacketSize;
    }

    public String getTopicAliasMaximum() {
        return topicAliasMaximum;
    }

    public void setTopicAliasMaximum(String topicAliasMaximum) {
        this.topicAliasMaximum = topicAliasMaximum;
    }

    public String getSendTopicAliasMaximum() {
        return sendTopicAliasMaximum;
    }

    public void setSendTopicAliasMaximum(String sendTopicAliasMaximum) {
        this.sendTopicAliasMaximum = sendTopicAliasMaximum;
    }

    public String getUserProperties() {
        return userProperties;
    }

    public void setUserProperties(String userProperties) {
        this.userProperties = userProperties;
    }

    public String getAuthMethod() {
        return authMethod;
    }

    public void setAuthMethod(String authMethod) {
        this.authMethod = authMethod;
    }

    public String getAuthData() {
        return authData;
    }

    public void setAuthData(String authData) {
        this.authData = authData;
    }

    public String getAuthDataEncoding() {
        return authDataEncoding;
    }

    public void setAuthDataEncoding(String authDataEncoding) {
        this.authDataEncoding = authDataEncoding;
    }
}
