package io.mqttload.jmeter;

/** The MQTT Run End sampler has no fields: the engine properties set its waits. */
public class MqttRunEndSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttRunEndSamplerBeanInfo() {
        super(MqttRunEndSampler.class);
    }
}
