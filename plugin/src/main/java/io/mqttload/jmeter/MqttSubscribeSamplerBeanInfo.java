package io.mqttload.jmeter;

/** Fields of the MQTT Subscribe sampler. */
public class MqttSubscribeSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttSubscribeSamplerBeanInfo() {
        super(MqttSubscribeSampler.class);
        clientGroupField();
        createPropertyGroup("subscription", new String[] {"topicFilters", "qos", "clients", "subackTimeoutMs"});
        multiLine("topicFilters", "test/#");
        choice("qos", "1", "0", "1", "2");
        text("clients", "all");
        text("subackTimeoutMs", "10000");

        createPropertyGroup("mqtt5", new String[] {"noLocal", "retainAsPublished", "retainHandling", "answerRequests"});
        flag("noLocal", false);
        flag("retainAsPublished", false);
        choice("retainHandling", "SEND", "SEND", "SEND_IF_NEW", "DO_NOT_SEND");
        flag("answerRequests", false);
    }
}
