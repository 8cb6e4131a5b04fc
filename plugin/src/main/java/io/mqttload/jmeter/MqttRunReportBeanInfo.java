package io.mqttload.jmeter;

/**
 * Fields of the MQTT Run Report: where to send the whole-run figures in InfluxDB, named like the MQTT
 * Metrics element's so one ${__P(...)} sets both. The files go where {@code mqttload.resultsDir} says.
 */
public class MqttRunReportBeanInfo extends MqttBeanInfoSupport {
    public MqttRunReportBeanInfo() {
        super(MqttRunReport.class);
        createPropertyGroup("influx", new String[] {"influxUrl", "influxDatabase", "retentionPolicy"});
        text("influxUrl", "");
        text("influxDatabase", "mqttload");
        text("retentionPolicy", "");
        createPropertyGroup("auth", new String[] {"authentication", "username", "password", "token"});
        choice("authentication", "NONE", "NONE", "BASIC", "TOKEN");
        text("username", "");
        secret("password");
        secret("token");
    }
}
