package io.mqttload.jmeter;

import static io.mqttload.common.settings.ConnectionConfigSettings.AUTH_DATA;
import static io.mqttload.common.settings.ConnectionConfigSettings.AUTH_DATA_ENCODING;
import static io.mqttload.common.settings.ConnectionConfigSettings.AUTH_METHOD;
import static io.mqttload.common.settings.ConnectionConfigSettings.CLEAN_START;
import static io.mqttload.common.settings.ConnectionConfigSettings.CONNECT_TIMEOUT_MS;
import static io.mqttload.common.settings.ConnectionConfigSettings.HOST;
import static io.mqttload.common.settings.ConnectionConfigSettings.KEEP_ALIVE_SECONDS;
import static io.mqttload.common.settings.ConnectionConfigSettings.KEY_STORE_ALIAS;
import static io.mqttload.common.settings.ConnectionConfigSettings.KEY_STORE_PASSWORD;
import static io.mqttload.common.settings.ConnectionConfigSettings.KEY_STORE_PATH;
import static io.mqttload.common.settings.ConnectionConfigSettings.MAXIMUM_PACKET_SIZE;
import static io.mqttload.common.settings.ConnectionConfigSettings.MQTT_VERSION;
import static io.mqttload.common.settings.ConnectionConfigSettings.NODES;
import static io.mqttload.common.settings.ConnectionConfigSettings.NODE_ASSIGNMENT;
import static io.mqttload.common.settings.ConnectionConfigSettings.NODE_FAILOVER;
import static io.mqttload.common.settings.ConnectionConfigSettings.NODE_SEED;
import static io.mqttload.common.settings.ConnectionConfigSettings.NODE_TEMPLATE;
import static io.mqttload.common.settings.ConnectionConfigSettings.PASSWORD;
import static io.mqttload.common.settings.ConnectionConfigSettings.PORT;
import static io.mqttload.common.settings.ConnectionConfigSettings.RECEIVE_MAXIMUM;
import static io.mqttload.common.settings.ConnectionConfigSettings.SEND_TOPIC_ALIAS_MAXIMUM;
import static io.mqttload.common.settings.ConnectionConfigSettings.SESSION_EXPIRY_SECONDS;
import static io.mqttload.common.settings.ConnectionConfigSettings.TOPIC_ALIAS_MAXIMUM;
import static io.mqttload.common.settings.ConnectionConfigSettings.TRANSPORT;
import static io.mqttload.common.settings.ConnectionConfigSettings.TRUST_STORE_PASSWORD;
import static io.mqttload.common.settings.ConnectionConfigSettings.TRUST_STORE_PATH;
import static io.mqttload.common.settings.ConnectionConfigSettings.USERNAME;
import static io.mqttload.common.settings.ConnectionConfigSettings.USER_PROPERTIES;
import static io.mqttload.common.settings.ConnectionConfigSettings.VERIFY_HOSTNAME;
import static io.mqttload.common.settings.ConnectionConfigSettings.WEB_SOCKET_PATH;
import static io.mqttload.common.settings.ConnectionConfigSettings.WILL_DELAY_SECONDS;
import static io.mqttload.common.settings.ConnectionConfigSettings.WILL_PAYLOAD;
import static io.mqttload.common.settings.ConnectionConfigSettings.WILL_QOS;
import static io.mqttload.common.settings.ConnectionConfigSettings.WILL_RETAIN;
import static io.mqttload.common.settings.ConnectionConfigSettings.WILL_TOPIC;

/**
 * Fields of the MQTT Connection config element, grouped as they appear in the GUI; each default and editor is its
 * {@code ConnectionConfigSettings} declaration's.
 */
public class MqttConnectionConfigBeanInfo extends MqttBeanInfoSupport {
    public MqttConnectionConfigBeanInfo() {
        super(MqttConnectionConfig.class);
        group("broker", HOST, PORT, TRANSPORT, WEB_SOCKET_PATH, MQTT_VERSION);
        group("cluster", NODES, NODE_ASSIGNMENT, NODE_TEMPLATE, NODE_SEED, NODE_FAILOVER);
        group("credentials", USERNAME, PASSWORD);
        group("tls", TRUST_STORE_PATH, TRUST_STORE_PASSWORD, KEY_STORE_PATH, KEY_STORE_PASSWORD, KEY_STORE_ALIAS,
                VERIFY_HOSTNAME);
        group("session", KEEP_ALIVE_SECONDS, CLEAN_START, SESSION_EXPIRY_SECONDS, CONNECT_TIMEOUT_MS);
        group("will", WILL_TOPIC, WILL_PAYLOAD, WILL_QOS, WILL_RETAIN, WILL_DELAY_SECONDS);
        // Empty means not set: the client's default goes out, and MQTT 3.1.1 refuses only what a plan did set.
        group("mqtt5", RECEIVE_MAXIMUM, MAXIMUM_PACKET_SIZE, TOPIC_ALIAS_MAXIMUM, SEND_TOPIC_ALIAS_MAXIMUM, USER_PROPERTIES);
        group("enhancedAuth", AUTH_METHOD, AUTH_DATA, AUTH_DATA_ENCODING);
    }
}
