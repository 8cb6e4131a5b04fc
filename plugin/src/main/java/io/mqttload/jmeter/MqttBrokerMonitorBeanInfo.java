package io.mqttload.jmeter;

/** Fields of the MQTT Broker Monitor. */
public class MqttBrokerMonitorBeanInfo extends MqttBeanInfoSupport {
    public MqttBrokerMonitorBeanInfo() {
        super(MqttBrokerMonitor.class);
        createPropertyGroup("process", new String[] {"brokerName", "processName", "pid", "pidFile"});
        text("brokerName", "broker");
        text("processName", "");
        text("pid", "");
        file("pidFile");
        createPropertyGroup("sys", new String[] {"sysHost", "sysPort", "sysTopics", "agent"});
        text("sysHost", "");
        text("sysPort", "1883");
        flag("sysTopics", true);
        flag("agent", false);
        createPropertyGroup("sampling", new String[] {"intervalSeconds", "engineFilter"});
        text("intervalSeconds", "1");
        text("engineFilter", "");
    }
}
