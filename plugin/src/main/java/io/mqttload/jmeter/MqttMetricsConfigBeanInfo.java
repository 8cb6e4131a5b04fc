package io.mqttload.jmeter;

/** Fields of the MQTT Metrics (InfluxDB) element. */
public class MqttMetricsConfigBeanInfo extends MqttBeanInfoSupport {
    public MqttMetricsConfigBeanInfo() {
        super(MqttMetricsConfig.class);
        createPropertyGroup("influx", new String[] {"influxUrl", "influxDatabase", "retentionPolicy", "intervalSeconds",
            "bufferedPoints"});
        text("influxUrl", "");
        text("influxDatabase", "mqttload");
        text("retentionPolicy", "");
        text("intervalSeconds", "1");
        text("bufferedPoints", "100000");
        createPropertyGroup("auth", new String[] {"authentication", "username", "password", "token"});
        choice("authentication", "NONE", "NONE", "BASIC", "TOKEN");
        text("username", "");
        secret("password");
        secret("token");
    }
}
