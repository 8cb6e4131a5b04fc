package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Publish sampler's settings. */
public final class PublishSettings {
    private PublishSettings() {
    }

    /** MQTT's largest packet allows a payload of at most this many bytes (256 MB minus headers). */
    public static final int MAX_PAYLOAD = 268_435_455 - 65_535 - 4;

    /** A template with placeholders, checked by the operation that expands it. */
    public static final Setting<String> TOPIC = Setting.text("topic", "test/{thread}/{client}");
    public static final Setting<Integer> QOS = Setting.qos("qos", 1);
    public static final Setting<Boolean> RETAIN = Setting.flag("retain", false);

    /** The upper-case name of a {@code PayloadSource.Kind}. */
    public static final Setting<String> PAYLOAD_TYPE = Setting.choice("payloadType", "RANDOM", "must be TEXT, RANDOM or FILE",
            "RANDOM", "TEXT", "FILE");
    public static final Setting<Long> PAYLOAD_SIZE = Setting.whole("payloadSize", 64, 0, MAX_PAYLOAD);
    public static final Setting<String> PAYLOAD_TEXT = Setting.multiLine("payloadText", "");
    public static final Setting<String> PAYLOAD_FILE = Setting.file("payloadFile");
    public static final Setting<Boolean> MEASURE_LATENCY = Setting.flag("measureLatency", true);

    public static final Setting<Integer> MESSAGES_PER_SAMPLE = Setting.integer("messagesPerSample", 1, 1, 10_000_000);
    /** SYNC waits for each acknowledgement, ASYNC keeps up to maxInFlight in flight. */
    public static final Setting<String> MODE = Setting.choice("mode", "ASYNC",
            "must be SYNC (wait for each acknowledgement) or ASYNC", "ASYNC", "SYNC");
    public static final Setting<Integer> MAX_IN_FLIGHT = Setting.integer("maxInFlight", 1000, 1, 1_000_000);
    public static final Setting<Integer> MAX_IN_FLIGHT_PER_CLIENT = Setting.integer("maxInFlightPerClient", 20, 1, 65_535);
    /**
     * The sampler's own schedule, in messages per second (a decimal); empty: none, each sample sends
     * messagesPerSample messages as JMeter's timers pace it.
     */
    public static final Setting<Double> RATE = Setting.decimal("rate", "", 0, 10_000_000);
    /** Whether the rate is each client's or the thread's, shared evenly by its clients. */
    public static final Setting<String> RATE_PER = Setting.choice("ratePer", "CLIENT",
            "must be CLIENT (each client's rate) or THREAD (the thread's, shared by its clients)", "CLIENT", "THREAD")
            .emptyMeansDefault();
    /**
     * Messages per client held while the client is disconnected, sent when it is connected again; 0: none, a publish
     * without a connection fails (NOT_CONNECTED).
     */
    public static final Setting<Integer> OFFLINE_BUFFER = Setting.integer("offlineBuffer", 0, 0, 10_000_000)
            .emptyMeansDefault();
    public static final Setting<Long> ACK_TIMEOUT_MS = Setting.whole("ackTimeoutMs", 10_000, 1, 3_600_000);

    /** Seconds, or empty (-1) for no expiry property. */
    public static final Setting<Long> MESSAGE_EXPIRY_SECONDS = Setting.optionalWhole("messageExpirySeconds", -1, 0,
            4_294_967_295L);
    public static final Setting<String> CONTENT_TYPE = Setting.text("contentType", "");
    /** The upper-case name of a {@code PublishProperties.PayloadFormat}. */
    public static final Setting<String> PAYLOAD_FORMAT = Setting.choice("payloadFormat", "NONE",
            "must be NONE (not sent), UNSPECIFIED or UTF_8", "NONE", "UNSPECIFIED", "UTF_8").emptyMeansDefault();
    /** A template with the topic's placeholders, checked by the operation that expands it. */
    public static final Setting<String> RESPONSE_TOPIC = Setting.text("responseTopic", "");
    public static final Setting<String> CORRELATION_DATA = Setting.text("correlationData", "");
    /** name=value lines, checked by {@code UserProperties}. */
    public static final Setting<String> USER_PROPERTIES = Setting.multiLine("userProperties", "");

    public static final List<Setting<?>> ALL = List.of(SamplerSettings.CLIENT_GROUP, TOPIC, QOS, RETAIN, PAYLOAD_TYPE,
            PAYLOAD_SIZE, PAYLOAD_TEXT, PAYLOAD_FILE, MEASURE_LATENCY, MESSAGES_PER_SAMPLE, RATE, RATE_PER, OFFLINE_BUFFER, MODE,
            MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_CLIENT, ACK_TIMEOUT_MS, MESSAGE_EXPIRY_SECONDS, CONTENT_TYPE, PAYLOAD_FORMAT,
            RESPONSE_TOPIC, CORRELATION_DATA, USER_PROPERTIES);
}
