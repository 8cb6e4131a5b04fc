package io.mqttload.jmeter;

import static io.mqttload.common.settings.OutageSettings.AWAIT_RECOVERY_MS;
import static io.mqttload.common.settings.OutageSettings.CLIENT_PERCENT;
import static io.mqttload.common.settings.OutageSettings.OFFLINE_MS;
import static io.mqttload.common.settings.OutageSettings.OUTAGE;
import static io.mqttload.common.settings.OutageSettings.RECOVERY_BOUND_MS;
import static io.mqttload.common.settings.OutageSettings.RESTART_WINDOW_MS;

/** Fields of the MQTT Outage sampler; each default is its {@code OutageSettings} declaration's. */
public class MqttOutageSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttOutageSamplerBeanInfo() {
        super(MqttOutageSampler.class);
        clientGroupField();
        group("outageWindow", OUTAGE, CLIENT_PERCENT, OFFLINE_MS, RECOVERY_BOUND_MS, AWAIT_RECOVERY_MS,
                RESTART_WINDOW_MS);
    }
}
