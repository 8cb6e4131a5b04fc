package io.mqttload.common.settings;

import java.util.List;

/**
 * The MQTT Connection element's settings. The transport's classes ({@code client.ConnectionSettings},
 * {@code ConnectOptions}) take the values these checks let through and check only what no single setting can see (a
 * will's fields without its topic, an MQTT 5 option with MQTT 3.1.1, a TLS node without TLS settings).
 */
public final class ConnectionConfigSettings {
    private ConnectionConfigSettings() {
    }

    /** The largest Two Byte Integer: receive maximum, the topic alias maximums, a keep-alive. */
    public static final int MAX_TWO_BYTES = 65_535;
    /** The largest Four Byte Integer, the longest interval in seconds. */
    public static final long MAX_INTERVAL = 4_294_967_295L;
    /** MQTT 5's largest packet size: the client's default maximum, no limit. */
    public static final long MAX_PACKET_SIZE = 268_435_460L;
    /** What an empty MQTT 5 number reads as: not set, so that MQTT 3.1.1 refuses only what a plan did set. */
    public static final long NOT_SET = -1;

    public static final Setting<String> HOST = Setting.text("host", "localhost");
    public static final Setting<Integer> PORT = Setting.integer("port", 1883, 1, 65535);
    /** The upper-case name of a {@code client.Transport}. */
    public static final Setting<String> TRANSPORT = Setting.choice("transport", "TCP",
            "transport must be TCP, TLS, WEBSOCKET or SECURE_WEBSOCKET", ConnectionConfigSettings::transport, "TCP", "TLS",
            "WEBSOCKET", "SECURE_WEBSOCKET");
    public static final Setting<String> WEB_SOCKET_PATH = Setting.text("webSocketPath", "/mqtt");
    /** The upper-case name of a {@code client.ProtocolVersion}. */
    public static final Setting<String> MQTT_VERSION = Setting.choice("mqttVersion", "MQTT_5",
            "MQTT version must be MQTT_3_1_1 or MQTT_5", ConnectionConfigSettings::mqttVersion, "MQTT_5", "MQTT_3_1_1");

    /** A cluster's node list, checked by {@code client.BrokerNode}, which parses it. */
    public static final Setting<String> NODES = Setting.text("nodes", "");
    // The cluster's fields after the list are empty in plans saved before they existed: empty is the default.
    /** The upper-case name of a {@code client.NodeAssignment}. */
    public static final Setting<String> NODE_ASSIGNMENT = Setting.choice("nodeAssignment", "ROUND_ROBIN",
            "expected ROUND_ROBIN, PARTITION, TEMPLATE or RANDOM", t -> t.replace(' ', '_').replace('-', '_'),
            "ROUND_ROBIN", "PARTITION", "TEMPLATE", "RANDOM").emptyMeansDefault();
    /** A template with placeholders, checked by the Connect operation that expands it. */
    public static final Setting<String> NODE_TEMPLATE = Setting.text("nodeTemplate", "");
    public static final Setting<Long> NODE_SEED = Setting.whole("nodeSeed", 0, Long.MIN_VALUE, Long.MAX_VALUE)
            .emptyMeansDefault();
    public static final Setting<Boolean> NODE_FAILOVER = Setting.flag("nodeFailover", true).emptyMeansDefault();

    public static final Setting<String> USERNAME = Setting.text("username", "");
    public static final Setting<String> PASSWORD = Setting.secret("password");

    /** The stores are checked by {@code client.TlsSettings}, which loads them. */
    public static final Setting<String> TRUST_STORE_PATH = Setting.file("trustStorePath");
    public static final Setting<String> TRUST_STORE_PASSWORD = Setting.secret("trustStorePassword");
    public static final Setting<String> KEY_STORE_PATH = Setting.file("keyStorePath");
    public static final Setting<String> KEY_STORE_PASSWORD = Setting.secret("keyStorePassword");
    public static final Setting<String> KEY_STORE_ALIAS = Setting.text("keyStoreAlias", "");
    public static final Setting<Boolean> VERIFY_HOSTNAME = Setting.flag("verifyHostname", true);

    public static final Setting<Integer> KEEP_ALIVE_SECONDS = Setting.integer("keepAliveSeconds", 60, 0, MAX_TWO_BYTES);
    public static final Setting<Boolean> CLEAN_START = Setting.flag("cleanStart", true);
    public static final Setting<Long> SESSION_EXPIRY_SECONDS = Setting.whole("sessionExpirySeconds", 0, 0, MAX_INTERVAL);
    public static final Setting<Long> CONNECT_TIMEOUT_MS = Setting.whole("connectTimeoutMs", 10_000, 1, 3_600_000);

    /** A topic name, checked by {@code client.ConnectOptions}; empty: no will, and the will's other fields are refused. */
    public static final Setting<String> WILL_TOPIC = Setting.text("willTopic", "");
    /** Checked by {@code client.ConnectOptions}, which counts its UTF-8 bytes. */
    public static final Setting<String> WILL_PAYLOAD = Setting.text("willPayload", "");
    /** The will's fields are empty in plans saved before they existed. */
    public static final Setting<Integer> WILL_QOS = Setting.qos("willQos", 0).emptyMeansDefault();
    public static final Setting<Boolean> WILL_RETAIN = Setting.flag("willRetain", false).emptyMeansDefault();
    public static final Setting<Long> WILL_DELAY_SECONDS = Setting.optionalWhole("willDelaySeconds", NOT_SET, 0,
            MAX_INTERVAL);

    public static final Setting<Long> RECEIVE_MAXIMUM = Setting.optionalWhole("receiveMaximum", NOT_SET, 1, MAX_TWO_BYTES);
    public static final Setting<Long> MAXIMUM_PACKET_SIZE = Setting.optionalWhole("maximumPacketSize", NOT_SET, 1,
            MAX_PACKET_SIZE);
    public static final Setting<Long> TOPIC_ALIAS_MAXIMUM = Setting.optionalWhole("topicAliasMaximum", NOT_SET, 0,
            MAX_TWO_BYTES);
    public static final Setting<Long> SEND_TOPIC_ALIAS_MAXIMUM = Setting.optionalWhole("sendTopicAliasMaximum", NOT_SET, 0,
            MAX_TWO_BYTES);
    /** name=value lines, checked by {@code UserProperties}. */
    public static final Setting<String> USER_PROPERTIES = Setting.multiLine("userProperties", "");

    /** Checked by {@code client.ConnectOptions} against the data (data without a method is refused). */
    public static final Setting<String> AUTH_METHOD = Setting.text("authMethod", "");
    public static final Setting<String> AUTH_DATA = Setting.secret("authData");
    /** The upper-case name of a {@code ConnectOptions.AuthDataEncoding}. */
    public static final Setting<String> AUTH_DATA_ENCODING = Setting.choice("authDataEncoding", "TEXT",
            "must be TEXT or BASE64", "TEXT", "BASE64").emptyMeansDefault();

    public static final List<Setting<?>> ALL = List.of(HOST, PORT, TRANSPORT, WEB_SOCKET_PATH, MQTT_VERSION, NODES,
            NODE_ASSIGNMENT, NODE_TEMPLATE, NODE_SEED, NODE_FAILOVER, USERNAME, PASSWORD, TRUST_STORE_PATH,
            TRUST_STORE_PASSWORD, KEY_STORE_PATH, KEY_STORE_PASSWORD, KEY_STORE_ALIAS, VERIFY_HOSTNAME, KEEP_ALIVE_SECONDS,
            CLEAN_START, SESSION_EXPIRY_SECONDS, CONNECT_TIMEOUT_MS, WILL_TOPIC, WILL_PAYLOAD, WILL_QOS, WILL_RETAIN,
            WILL_DELAY_SECONDS, RECEIVE_MAXIMUM, MAXIMUM_PACKET_SIZE, TOPIC_ALIAS_MAXIMUM, SEND_TOPIC_ALIAS_MAXIMUM,
            USER_PROPERTIES, AUTH_METHOD, AUTH_DATA, AUTH_DATA_ENCODING);

    /** The spellings plans use for a transport: "ssl", "ws", "secure-websocket". */
    private static String transport(String upper) {
        String key = upper.replace(' ', '_').replace('-', '_');
        switch (key) {
            case "SSL":
                return "TLS";
            case "WS":
                return "WEBSOCKET";
            case "WSS":
                return "SECURE_WEBSOCKET";
            default:
                return key;
        }
    }

    /** The spellings plans use for a version: "3.1.1", "5", "MQTT 5.0", and 4, MQTT 3.1.1's protocol level. */
    private static String mqttVersion(String upper) {
        String key = upper.replace('.', '_').replace(' ', '_');
        switch (key) {
            case "3_1_1":
            case "3":
            case "4":
                return "MQTT_3_1_1";
            case "MQTT_5_0":
            case "5":
            case "5_0":
                return "MQTT_5";
            default:
                return key;
        }
    }
}
