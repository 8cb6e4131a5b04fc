package io.mqttload.jmeter;

import static io.mqttload.common.settings.RendezvousSettings.BARRIER_NAME;
import static io.mqttload.common.settings.RendezvousSettings.BROKER_HOST;
import static io.mqttload.common.settings.RendezvousSettings.BROKER_PORT;
import static io.mqttload.common.settings.RendezvousSettings.GROUP_SIZE;
import static io.mqttload.common.settings.RendezvousSettings.ON_TIMEOUT;
import static io.mqttload.common.settings.RendezvousSettings.TIMEOUT_IN_MS;

/** Fields of the MQTT Rendezvous Timer; each default and editor is its {@code RendezvousSettings} declaration's. */
public class MqttRendezvousTimerBeanInfo extends MqttBeanInfoSupport {
    public MqttRendezvousTimerBeanInfo() {
        super(MqttRendezvousTimer.class);
        group("barrier", BARRIER_NAME, GROUP_SIZE, TIMEOUT_IN_MS, ON_TIMEOUT);
        group("broker", BROKER_HOST, BROKER_PORT);
    }
}
