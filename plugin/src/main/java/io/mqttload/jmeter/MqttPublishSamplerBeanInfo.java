package io.mqttload.jmeter;

/** Fields of the MQTT Publish sampler; hidden from the menus, which list its panel {@link MqttPublishSamplerGui}. */
public class MqttPublishSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttPublishSamplerBeanInfo() {
        super(MqttPublishSampler.class);
        clientGroupField();
        createPropertyGroup("message", new String[] {"topic", "qos", "retain"});
        text("topic", "test/{thread}/{client}");
        choice("qos", "1", "0", "1", "2");
        flag("retain", false);

        createPropertyGroup("payload", new String[] {"payloadType", "payloadSize", "payloadText", "payloadFile",
            "measureLatency"});
        choice("payloadType", "RANDOM", "RANDOM", "TEXT", "FILE");
        text("payloadSize", "64");
        multiLine("payloadText", "");
        file("payloadFile");
        flag("measureLatency", true);

        createPropertyGroup("flow", new String[] {"messagesPerSample", "mode", "maxInFlight", "maxInFlightPerClient", "ackTimeoutMs"});
        text("messagesPerSample", "1");
        choice("mode", "ASYNC", "ASYNC", "SYNC");
        text("maxInFlight", "1000");
        text("maxInFlightPerClient", "20");
        text("ackTimeoutMs", "10000");

        createPropertyGroup("mqtt5", new String[] {"messageExpirySeconds", "contentType", "payloadFormat", "responseTopic",
            "correlationData", "userProperties"});
        text("messageExpirySeconds", "");
        text("contentType", "");
        choice("payloadFormat", "NONE", "NONE", "UNSPECIFIED", "UTF_8");
        text("responseTopic", "");
        text("correlationData", "");
        multiLine("userProperties", "");
        getBeanDescriptor().setHidden(true);
    }
}
