package io.mqttload.jmeter;

/** The MQTT Run Report has no fields: it writes where the engine properties say ({@code mqttload.resultsDir}). */
public class MqttRunReportBeanInfo extends MqttBeanInfoSupport {
    public MqttRunReportBeanInfo() {
        super(MqttRunReport.class);
    }
}
