package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Subscribe sampler's settings. */
public final class SubscribeSettings {
    private SubscribeSettings() {
    }

    /** Filters, one a line or comma-separated, with ranges and placeholders: checked by the operation that expands them. */
    public static final Setting<String> TOPIC_FILTERS = Setting.multiLine("topicFilters", "test/#");
    public static final Setting<Integer> QOS = Setting.qos("qos", 1);
    /** 'all', an index or a range of the thread's clients, checked by {@code ClientSelection}. */
    public static final Setting<String> CLIENTS = Setting.text("clients", "all");
    public static final Setting<Long> SUBACK_TIMEOUT_MS = Setting.whole("subackTimeoutMs", 10_000, 1, 3_600_000);

    public static final Setting<Boolean> NO_LOCAL = Setting.flag("noLocal", false).emptyMeansDefault();
    public static final Setting<Boolean> RETAIN_AS_PUBLISHED = Setting.flag("retainAsPublished", false)
            .emptyMeansDefault();
    /** The upper-case name of a {@code SubscribeOptions.RetainHandling}. */
    public static final Setting<String> RETAIN_HANDLING = Setting.choice("retainHandling", "SEND",
            "must be SEND, SEND_IF_NEW or DO_NOT_SEND", "SEND", "SEND_IF_NEW", "DO_NOT_SEND").emptyMeansDefault();
    public static final Setting<Boolean> ANSWER_REQUESTS = Setting.flag("answerRequests", false).emptyMeansDefault();

    public static final List<Setting<?>> ALL = List.of(SamplerSettings.CLIENT_GROUP, TOPIC_FILTERS, QOS, CLIENTS,
            SUBACK_TIMEOUT_MS, NO_LOCAL, RETAIN_AS_PUBLISHED, RETAIN_HANDLING, ANSWER_REQUESTS);
}
