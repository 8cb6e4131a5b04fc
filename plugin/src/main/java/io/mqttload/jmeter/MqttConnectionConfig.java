package io.mqttload.jmeter;


import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.testbeans.TestBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectOptions;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.NodeAssignment;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.TlsSettings;
import io.mqttload.client.Transport;
import io.mqttload.common.settings.SettingText;
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

    private String host = "localhost";
    private String port = "1883";
    private String transport = "TCP";
    private String webSocketPath = "/mqtt";
    private String mqttVersion = "MQTT_5";
    private String username = "";
    private String password = "";
    private String trustStorePath = "";
    private String trustStorePassword = "";
    private String keyStorePath = "";
    private String keyStorePassword = "";
    private String keyStoreAlias = "";
    private String verifyHostname = "true";
    private String keepAliveSeconds = "60";
    private String cleanStart = "true";
    private String sessionExpirySeconds = "0";
    private String connectTimeoutMs = "10000";
    private String nodes = "";
    private String nodeAssignment = "ROUND_ROBIN";
    private String nodeTemplate = "";
    private String nodeSeed = "0";
    private String nodeFailover = "true";
    private String willTopic = "";
    private String willPayload = "";
    private String willQos = "0";
    private String willRetain = "false";
    private String willDelaySeconds = "";
    private String receiveMaximum = "";
    private String maximumPacketSize = "";
    private String topicAliasMaximum = "";
    private String sendTopicAliasMaximum = "";
    private String userProperties = "";
    private String authMethod = "";
    private String authData = "";
    private String authDataEncoding = "TEXT";

    private transient ConnectionSettings settings;

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();

    /** The validated settings; builds them (and loads the TLS stores) on first use in this thread. */
    public ConnectionSettings settings() {
        if (settings == null) {
            Transport t = Transport.parse("transport", transport);
            TlsSettings tls = TlsSettings.systemDefaults();
            boolean cleanStartFlag = SettingText.parseBoolean("cleanStart", cleanStart);
            if (t.isSecure()) {
                boolean verify = SettingText.parseBoolean("verifyHostname", verifyHostname);
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
                    .port(SettingText.parseInt("port", port, 1, 65535))
                    .transport(t)
                    .webSocketPath(webSocketPath)
                    .protocolVersion(ProtocolVersion.parse("mqttVersion", mqttVersion))
                    .username(username)
                    .password(password)
                    .tls(tls)
                    .keepAliveSeconds(SettingText.parseLong("keepAliveSeconds", keepAliveSeconds, 0, 65535))
                    .cleanStart(cleanStartFlag)
                    .sessionExpirySeconds(SettingText.parseLong("sessionExpirySeconds", sessionExpirySeconds, 0, 4294967295L))
                    .connectTimeoutMs(SettingText.parseLong("connectTimeoutMs", connectTimeoutMs, 1, 3_600_000))
                    .nodes(nodes)
                    .nodeAssignment(NodeAssignment.parse("nodeAssignment", nodeAssignment))
                    .nodeTemplate(nodeTemplate)
                    // Plans saved before the cluster fields existed load them empty: empty is the default.
                    .nodeSeed(nodeSeed == null || nodeSeed.trim().isEmpty() ? 0
                            : SettingText.parseLong("nodeSeed", nodeSeed, Long.MIN_VALUE, Long.MAX_VALUE))
                    .nodeFailover(nodeFailover == null || nodeFailover.trim().isEmpty()
                            || SettingText.parseBoolean("nodeFailover", nodeFailover))
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
                .willQos(isEmpty(willQos) ? 0 : SettingText.parseQos("willQos", willQos))
                .willRetain(!isEmpty(willRetain) && SettingText.parseBoolean("willRetain", willRetain))
                .willDelaySeconds(optional("willDelaySeconds", willDelaySeconds, 0, ConnectOptions.MAX_INTERVAL))
                .receiveMaximum(optional("receiveMaximum", receiveMaximum, 1, ConnectOptions.MAX_TWO_BYTES))
                .maximumPacketSize(optional("maximumPacketSize", maximumPacketSize, 1, ConnectOptions.MAX_PACKET_SIZE))
                .topicAliasMaximum(optional("topicAliasMaximum", topicAliasMaximum, 0, ConnectOptions.MAX_TWO_BYTES))
                .sendTopicAliasMaximum(optional("sendTopicAliasMaximum", sendTopicAliasMaximum, 0,
                        ConnectOptions.MAX_TWO_BYTES))
                .userProperties(userProperties)
                .authMethod(authMethod)
                .authData(authData)
                .authDataEncoding(authDataEncoding)
                .build();
    }

    private static boolean isEmpty(String text) {
        return text == null || text.trim().isEmpty();
    }

    /** A number that is not set when empty, so that MQTT 3.1.1 can refuse the MQTT 5 options that are. */
    private static Long optional(String field, String text, long min, long max) {
        return isEmpty(text) ? null : SettingText.parseLong(field, text, min, max);
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
