package io.mqttload.jmeter;

/**
 * Fields of the MQTT Run Report: where to send the whole-run figures in InfluxDB, named like the MQTT
 * Metrics element's so one ${__P(...)} sets both. The files go where {@code mqttload.resultsDir} says.
 * The bean is hidden from JMeter's menus: {@link MqttRunReportGui} (these fields and the live run) is listed instead.
 */
public class MqttRunReportBeanInfo extends MqttBeanInfoSupport {
    public MqttRunReportBeanInfo() {
        super(MqttRunReport.class);
        influxFields();
        getBeanDescriptor().setHidden(true);
    }
}
