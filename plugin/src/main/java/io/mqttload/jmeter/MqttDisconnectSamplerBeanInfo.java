package io.mqttload.jmeter;

import static io.mqttload.common.settings.DisconnectSettings.DISCONNECT_TIMEOUT_MS;
import static io.mqttload.common.settings.DisconnectSettings.DRAIN_TIMEOUT_MS;

/** Fields of the MQTT Disconnect sampler; each default is its {@code DisconnectSettings} declaration's. */
public class MqttDisconnectSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttDisconnectSamplerBeanInfo() {
        super(MqttDisconnectSampler.class);
        clientGroupField();
        group("disconnect", DRAIN_TIMEOUT_MS, DISCONNECT_TIMEOUT_MS);
    }
}
