package io.mqttload.common.settings;

import java.util.List;

/**
 * Where MQTT Metrics and MQTT Run Report write in InfluxDB: the two elements share these names, so one ${__P(...)} sets
 * both. MQTT Metrics adds its own two.
 */
public final class InfluxSettings {
    private InfluxSettings() {
    }

    /** Empty turns the element's InfluxDB output off. */
    public static final Setting<String> INFLUX_URL = Setting.text("influxUrl", "");
    public static final Setting<String> INFLUX_DATABASE = Setting.text("influxDatabase", "mqttload");
    public static final Setting<String> RETENTION_POLICY = Setting.text("retentionPolicy", "");
    /** The upper-case name of an {@code InfluxWriter.Auth}. */
    public static final Setting<String> AUTHENTICATION = Setting.choice("authentication", "NONE",
            "must be NONE, BASIC or TOKEN", "NONE", "BASIC", "TOKEN");
    public static final Setting<String> USERNAME = Setting.text("username", "");
    public static final Setting<String> PASSWORD = Setting.secret("password");
    public static final Setting<String> TOKEN = Setting.secret("token");

    /** MQTT Metrics: points kept while InfluxDB is slow or away. */
    public static final Setting<Integer> BUFFERED_POINTS = Setting.integer("bufferedPoints", 100_000, 100, 10_000_000);
    public static final Setting<Integer> INTERVAL_SECONDS = Setting.integer("intervalSeconds", 1, 1, 3600);

    /** The MQTT Run Report's fields. */
    public static final List<Setting<?>> REPORT = List.of(INFLUX_URL, INFLUX_DATABASE, RETENTION_POLICY, AUTHENTICATION,
            USERNAME, PASSWORD, TOKEN);
    /** The MQTT Metrics element's fields. */
    public static final List<Setting<?>> METRICS = List.of(INFLUX_URL, INFLUX_DATABASE, RETENTION_POLICY, AUTHENTICATION,
            USERNAME, PASSWORD, TOKEN, INTERVAL_SECONDS, BUFFERED_POINTS);
}
