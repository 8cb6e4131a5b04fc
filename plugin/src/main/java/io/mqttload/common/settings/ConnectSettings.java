package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Connect sampler's settings. */
public final class ConnectSettings {
    private ConnectSettings() {
    }

    /** The longest reconnect delay; a maximum delay below the first is refused by the reconnect policy. */
    public static final long MAX_RECONNECT_DELAY_MS = 3_600_000;

    public static final Setting<Integer> CLIENT_COUNT = Setting.integer("clientCount", 1, 1, 1_000_000);
    /** A template with placeholders, checked by the operation that expands it (it must use {client} for many). */
    public static final Setting<String> CLIENT_ID_TEMPLATE = Setting.text("clientIdTemplate",
            "{engine}-{threadGroup}-{thread}-{client}");
    public static final Setting<Boolean> CLIENT_IDS_WITHIN_23 = Setting.flag("clientIdsWithin23", true);

    /** Connects per second for the whole engine; 0: unlimited. */
    public static final Setting<Double> CONNECT_RATE = Setting.decimal("connectRate", "0", 0);
    public static final Setting<Integer> RECONNECT_ATTEMPTS = Setting.integer("reconnectAttempts", 3, 0, 1000);
    public static final Setting<Long> RECONNECT_DELAY_MS = Setting.whole("reconnectDelayMs", 1000, 0,
            MAX_RECONNECT_DELAY_MS);
    public static final Setting<Long> RECONNECT_MAX_DELAY_MS = Setting.whole("reconnectMaxDelayMs", 10_000, 0,
            MAX_RECONNECT_DELAY_MS);

    /** IP addresses to connect from, checked by the operation, which resolves them. */
    public static final Setting<String> LOCAL_ADDRESSES = Setting.text("localAddresses", "");
    /** A node of the connection's list, checked against that list when the sampler finds its connection. */
    public static final Setting<String> BROKER_NODE = Setting.text("brokerNode", "");

    /** Milliseconds each received message takes to process: a slow consumer. */
    public static final Setting<Double> CONSUME_DELAY_MS = Setting.decimal("consumeDelayMs", "0", 0, 60_000);

    public static final List<Setting<?>> ALL = List.of(SamplerSettings.CLIENT_GROUP, CLIENT_COUNT, CLIENT_ID_TEMPLATE,
            CLIENT_IDS_WITHIN_23, CONNECT_RATE, RECONNECT_ATTEMPTS, RECONNECT_DELAY_MS, RECONNECT_MAX_DELAY_MS,
            LOCAL_ADDRESSES, BROKER_NODE, CONSUME_DELAY_MS);
}
