package io.mqttload.jmeter;

/** Fields of the MQTT Disconnect sampler. */
public class MqttDisconnectSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttDisconnectSamplerBeanInfo() {
        super(MqttDisconnectSampler.class);
        clientGroupField();
        createPropertyGroup("disconnect", new String[] {"disconnectTimeoutMs"});
        text("disconnectTimeoutMs", "10000");
    }
}
