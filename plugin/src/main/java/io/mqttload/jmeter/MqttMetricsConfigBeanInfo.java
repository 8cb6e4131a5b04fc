package io.mqttload.jmeter;

import io.mqttload.common.settings.InfluxSettings;

/** Fields of the MQTT Metrics (InfluxDB) element; each default and editor is its {@code InfluxSettings} declaration's. */
public class MqttMetricsConfigBeanInfo extends MqttBeanInfoSupport {
    public MqttMetricsConfigBeanInfo() {
        super(MqttMetricsConfig.class);
        influxFields(InfluxSettings.INTERVAL_SECONDS, InfluxSettings.BUFFERED_POINTS);
    }
}
