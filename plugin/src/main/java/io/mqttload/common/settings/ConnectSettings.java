package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Connect sampler's settings. */
public final class ConnectSettings {
    private ConnectSettings() {
    }

    /** The longest reconnect delay and initial wait; a maximum below its minimum is refused by the reconnect policy. */
    public static final long MAX_RECONNECT_DELAY_MS = 3_600_000;

    public static final Setting<Integer> CLIENT_COUNT = Setting.integer("clientCount", 1, 1, 1_000_000);
    /** A template with placeholders, checked by the operation that expands it (it must use {client} for many). */
    public static final Setting<String> CLIENT_ID_TEMPLATE = Setting.text("clientIdTemplate",
            "{engine}-{threadGroup}-{thread}-{client}");
    public static final Setting<Boolean> CLIENT_IDS_WITHIN_23 = Setting.flag("clientIdsWithin23", true);

    /** Connects per second for the whole engine; 0: unlimited. */
    public static final Setting<Double> CONNECT_RATE = Setting.decimal("connectRate", "0", 0);
    /**
     * How the delays between attempts grow (ReconnectPolicy's definitions); EXPONENTIAL is the doubling delay plans
     * saved before the setting existed ran with.
     */
    public static final Setting<String> RECONNECT_POLICY = Setting.choice("reconnectPolicy", "EXPONENTIAL",
            "must be NONE, IMMEDIATE, FIXED, EXPONENTIAL, FULL_JITTER or DECORRELATED_JITTER", "NONE", "IMMEDIATE",
            "FIXED", "EXPONENTIAL", "FULL_JITTER", "DECORRELATED_JITTER").emptyMeansDefault();
    /** Attempts per outage; -1: unbounded, until the run ends. */
    public static final Setting<Integer> RECONNECT_ATTEMPTS = Setting.integer("reconnectAttempts", 3, -1, 1000);
    public static final Setting<Long> RECONNECT_DELAY_MS = Setting.whole("reconnectDelayMs", 1000, 0,
            MAX_RECONNECT_DELAY_MS);
    /** The cap; below the base delay is refused by the reconnect policy. */
    public static final Setting<Long> RECONNECT_MAX_DELAY_MS = Setting.whole("reconnectMaxDelayMs", 10_000, 0,
            MAX_RECONNECT_DELAY_MS);
    /** Whether a first connect that failed is retried under the policy: a device's is, a benchmark's is not. */
    public static final Setting<Boolean> RETRY_FIRST_CONNECT = Setting.flag("retryFirstConnect", false)
            .emptyMeansDefault();
    /** A random wait before the first connect, between these two; a longest below the shortest is refused. */
    public static final Setting<Long> INITIAL_WAIT_MIN_MS = Setting.whole("initialWaitMinMs", 0, 0,
            MAX_RECONNECT_DELAY_MS).emptyMeansDefault();
    public static final Setting<Long> INITIAL_WAIT_MAX_MS = Setting.whole("initialWaitMaxMs", 0, 0,
            MAX_RECONNECT_DELAY_MS).emptyMeansDefault();

    /** IP addresses to connect from, checked by the operation, which resolves them. */
    public static final Setting<String> LOCAL_ADDRESSES = Setting.text("localAddresses", "");
    /** A node of the connection's list, checked against that list when the sampler finds its connection. */
    public static final Setting<String> BROKER_NODE = Setting.text("brokerNode", "");

    /** Milliseconds each received message takes to process: a slow consumer. */
    public static final Setting<Double> CONSUME_DELAY_MS = Setting.decimal("consumeDelayMs", "0", 0, 60_000);

    public static final List<Setting<?>> ALL = List.of(SamplerSettings.CLIENT_GROUP, CLIENT_COUNT, CLIENT_ID_TEMPLATE,
            CLIENT_IDS_WITHIN_23, CONNECT_RATE, RECONNECT_POLICY, RECONNECT_ATTEMPTS, RECONNECT_DELAY_MS,
            RECONNECT_MAX_DELAY_MS, RETRY_FIRST_CONNECT, INITIAL_WAIT_MIN_MS, INITIAL_WAIT_MAX_MS, LOCAL_ADDRESSES,
            BROKER_NODE, CONSUME_DELAY_MS);
}
