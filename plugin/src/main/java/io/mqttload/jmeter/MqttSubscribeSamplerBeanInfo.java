package io.mqttload.jmeter;

import static io.mqttload.common.settings.SubscribeSettings.ANSWER_REQUESTS;
import static io.mqttload.common.settings.SubscribeSettings.CLIENTS;
import static io.mqttload.common.settings.SubscribeSettings.NO_LOCAL;
import static io.mqttload.common.settings.SubscribeSettings.QOS;
import static io.mqttload.common.settings.SubscribeSettings.RETAIN_AS_PUBLISHED;
import static io.mqttload.common.settings.SubscribeSettings.RETAIN_HANDLING;
import static io.mqttload.common.settings.SubscribeSettings.SUBACK_TIMEOUT_MS;
import static io.mqttload.common.settings.SubscribeSettings.TOPIC_FILTERS;

/** Fields of the MQTT Subscribe sampler, grouped; each default and editor is its {@code SubscribeSettings} declaration's. */
public class MqttSubscribeSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttSubscribeSamplerBeanInfo() {
        super(MqttSubscribeSampler.class);
        clientGroupField();
        group("subscription", TOPIC_FILTERS, QOS, CLIENTS, SUBACK_TIMEOUT_MS);
        group("mqtt5", NO_LOCAL, RETAIN_AS_PUBLISHED, RETAIN_HANDLING, ANSWER_REQUESTS);
    }
}
