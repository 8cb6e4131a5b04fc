package io.mqttload.jmeter;

/** Fields of the MQTT Disconnect sampler. */
public class MqttDisconnectSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttDisconnectSamplerBeanInfo() {
        super(MqttDisconnectSampler.class);
        clientGroupField();
        createPropertyGroup("disconnect", new String[] {"drainTimeoutMs", "disconnectTimeoutMs"});
        text("drainTimeoutMs", "10000");
        text("disconnectTimeoutMs", "10000");
    }
}
