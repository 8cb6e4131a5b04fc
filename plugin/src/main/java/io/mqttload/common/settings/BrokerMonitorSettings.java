package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Broker Monitor's settings. */
public final class BrokerMonitorSettings {
    private BrokerMonitorSettings() {
    }

    /** The broker's name in the reports; empty is "broker". */
    public static final Setting<String> BROKER_NAME = Setting.text("brokerName", "broker");
    public static final Setting<String> PROCESS_NAME = Setting.text("processName", "");
    /** The broker's process id, or empty (0) for none. */
    public static final Setting<Long> PID = Setting.optionalWhole("pid", 0, 1, Long.MAX_VALUE);
    public static final Setting<String> PID_FILE = Setting.file("pidFile");

    /** The broker whose $SYS topics (or agent) are read; empty: none. */
    public static final Setting<String> SYS_HOST = Setting.text("sysHost", "");
    public static final Setting<Integer> SYS_PORT = Setting.integer("sysPort", 1883, 1, 65535);
    public static final Setting<Boolean> SYS_TOPICS = Setting.flag("sysTopics", true);
    public static final Setting<Boolean> AGENT = Setting.flag("agent", false);

    public static final Setting<Long> INTERVAL_SECONDS = Setting.whole("intervalSeconds", 1, 1, 3600);
    /** A regular expression over engine ids: the engines that monitor; empty: every engine. */
    public static final Setting<String> ENGINE_FILTER = Setting.text("engineFilter", "");

    public static final List<Setting<?>> ALL = List.of(BROKER_NAME, PROCESS_NAME, PID, PID_FILE, SYS_HOST, SYS_PORT,
            SYS_TOPICS, AGENT, INTERVAL_SECONDS, ENGINE_FILTER);
}
