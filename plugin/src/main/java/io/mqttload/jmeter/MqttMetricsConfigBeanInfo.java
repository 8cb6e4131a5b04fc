package io.mqttload.jmeter;

/** Fields of the MQTT Metrics (InfluxDB) element. */
public class MqttMetricsConfigBeanInfo extends MqttBeanInfoSupport {
    public MqttMetricsConfigBeanInfo() {
        super(MqttMetricsConfig.class);
        influxFields("intervalSeconds", "bufferedPoints");
        text("intervalSeconds", "1");
        text("bufferedPoints", "100000");
    }
}
