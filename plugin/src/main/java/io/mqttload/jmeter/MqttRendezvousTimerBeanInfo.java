package io.mqttload.jmeter;

/** Fields of the MQTT Rendezvous Timer; names follow JMeter's Synchronizing Timer where they mean the same. */
public class MqttRendezvousTimerBeanInfo extends MqttBeanInfoSupport {
    public MqttRendezvousTimerBeanInfo() {
        super(MqttRendezvousTimer.class);
        createPropertyGroup("barrier", new String[] {"barrierName", "groupSize", "timeoutInMs", "onTimeout"});
        text("barrierName", "");
        text("groupSize", "0");
        text("timeoutInMs", "60000");
        choice("onTimeout", "STOP_TEST", "STOP_TEST", "STOP_TEST_NOW", "CONTINUE");
        createPropertyGroup("broker", new String[] {"brokerHost", "brokerPort"});
        text("brokerHost", "");
        text("brokerPort", "1883");
    }
}
