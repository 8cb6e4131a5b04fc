package io.mqttload.jmeter;

/** Fields of the MQTT Connect sampler. */
public class MqttConnectSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttConnectSamplerBeanInfo() {
        super(MqttConnectSampler.class);
        clientGroupField();
        createPropertyGroup("identity", new String[] {"clientCount", "clientIdTemplate", "clientIdsWithin23"});
        text("clientCount", "1");
        text("clientIdTemplate", "{engine}-{threadGroup}-{thread}-{client}");
        flag("clientIdsWithin23", true);

        createPropertyGroup("pacing", new String[] {"connectRate", "reconnectAttempts", "reconnectDelayMs",
            "reconnectMaxDelayMs"});
        text("connectRate", "0");
        text("reconnectAttempts", "3");
        text("reconnectDelayMs", "1000");
        text("reconnectMaxDelayMs", "10000");

        createPropertyGroup("network", new String[] {"localAddresses", "brokerNode"});
        text("localAddresses", "");
        text("brokerNode", "");

        createPropertyGroup("consumer", new String[] {"consumeDelayMs"});
        text("consumeDelayMs", "0");
    }
}
