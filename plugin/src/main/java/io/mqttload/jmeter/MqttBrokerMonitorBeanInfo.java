package io.mqttload.jmeter;

import static io.mqttload.common.settings.BrokerMonitorSettings.AGENT;
import static io.mqttload.common.settings.BrokerMonitorSettings.BROKER_NAME;
import static io.mqttload.common.settings.BrokerMonitorSettings.ENGINE_FILTER;
import static io.mqttload.common.settings.BrokerMonitorSettings.INTERVAL_SECONDS;
import static io.mqttload.common.settings.BrokerMonitorSettings.PID;
import static io.mqttload.common.settings.BrokerMonitorSettings.PID_FILE;
import static io.mqttload.common.settings.BrokerMonitorSettings.PROCESS_NAME;
import static io.mqttload.common.settings.BrokerMonitorSettings.SYS_HOST;
import static io.mqttload.common.settings.BrokerMonitorSettings.SYS_PORT;
import static io.mqttload.common.settings.BrokerMonitorSettings.SYS_TOPICS;

/** Fields of the MQTT Broker Monitor; each default and editor is its {@code BrokerMonitorSettings} declaration's. */
public class MqttBrokerMonitorBeanInfo extends MqttBeanInfoSupport {
    public MqttBrokerMonitorBeanInfo() {
        super(MqttBrokerMonitor.class);
        group("process", BROKER_NAME, PROCESS_NAME, PID, PID_FILE);
        group("sys", SYS_HOST, SYS_PORT, SYS_TOPICS, AGENT);
        group("sampling", INTERVAL_SECONDS, ENGINE_FILTER);
    }
}
