package io.mqttload.jmeter;

/** Fields of the MQTT Connection config element, grouped as they appear in the GUI. */
public class MqttConnectionConfigBeanInfo extends MqttBeanInfoSupport {
    public MqttConnectionConfigBeanInfo() {
        super(MqttConnectionConfig.class);
        createPropertyGroup("broker", new String[] {"host", "port", "transport", "webSocketPath", "mqttVersion"});
        text("host", "localhost");
        text("port", "1883");
        choice("transport", "TCP", "TCP", "TLS", "WEBSOCKET", "SECURE_WEBSOCKET");
        text("webSocketPath", "/mqtt");
        choice("mqttVersion", "MQTT_5", "MQTT_5", "MQTT_3_1_1");

        createPropertyGroup("cluster", new String[] {"nodes", "nodeAssignment", "nodeTemplate", "nodeSeed",
            "nodeFailover"});
        text("nodes", "");
        choice("nodeAssignment", "ROUND_ROBIN", "ROUND_ROBIN", "PARTITION", "TEMPLATE", "RANDOM");
        text("nodeTemplate", "");
        text("nodeSeed", "0");
        flag("nodeFailover", true);

        createPropertyGroup("credentials", new String[] {"username", "password"});
        text("username", "");
        secret("password");

        createPropertyGroup("tls", new String[] {"trustStorePath", "trustStorePassword", "keyStorePath",
            "keyStorePassword", "keyStoreAlias", "verifyHostname"});
        file("trustStorePath");
        secret("trustStorePassword");
        file("keyStorePath");
        secret("keyStorePassword");
        text("keyStoreAlias", "");
        flag("verifyHostname", true);

        createPropertyGroup("session", new String[] {"keepAliveSeconds", "cleanStart", "sessionExpirySeconds",
            "connectTimeoutMs"});
        text("keepAliveSeconds", "60");
        flag("cleanStart", true);
        text("sessionExpirySeconds", "0");
        text("connectTimeoutMs", "10000");

        createPropertyGroup("will", new String[] {"willTopic", "willPayload", "willQos", "willRetain", "willDelaySeconds"});
        text("willTopic", "");
        text("willPayload", "");
        choice("willQos", "0", "0", "1", "2");
        flag("willRetain", false);
        text("willDelaySeconds", "");

        // Empty means not set: the client's default goes out, and MQTT 3.1.1 refuses only what a plan did set.
        createPropertyGroup("mqtt5", new String[] {"receiveMaximum", "maximumPacketSize", "topicAliasMaximum",
            "sendTopicAliasMaximum", "userProperties"});
        text("receiveMaximum", "");
        text("maximumPacketSize", "");
        text("topicAliasMaximum", "");
        text("sendTopicAliasMaximum", "");
        multiLine("userProperties", "");

        createPropertyGroup("enhancedAuth", new String[] {"authMethod", "authData", "authDataEncoding"});
        text("authMethod", "");
        secret("authData");
        choice("authDataEncoding", "TEXT", "TEXT", "BASE64");
    }
}
