package io.mqttload.jmeter;

import static io.mqttload.common.settings.PublishSettings.ACK_TIMEOUT_MS;
import static io.mqttload.common.settings.PublishSettings.CONTENT_TYPE;
import static io.mqttload.common.settings.PublishSettings.CORRELATION_DATA;
import static io.mqttload.common.settings.PublishSettings.MAX_IN_FLIGHT;
import static io.mqttload.common.settings.PublishSettings.MAX_IN_FLIGHT_PER_CLIENT;
import static io.mqttload.common.settings.PublishSettings.MEASURE_LATENCY;
import static io.mqttload.common.settings.PublishSettings.MESSAGES_PER_SAMPLE;
import static io.mqttload.common.settings.PublishSettings.MESSAGE_EXPIRY_SECONDS;
import static io.mqttload.common.settings.PublishSettings.MODE;
import static io.mqttload.common.settings.PublishSettings.OFFLINE_BUFFER;
import static io.mqttload.common.settings.PublishSettings.PAYLOAD_FILE;
import static io.mqttload.common.settings.PublishSettings.PAYLOAD_FORMAT;
import static io.mqttload.common.settings.PublishSettings.PAYLOAD_SIZE;
import static io.mqttload.common.settings.PublishSettings.PAYLOAD_TEXT;
import static io.mqttload.common.settings.PublishSettings.PAYLOAD_TYPE;
import static io.mqttload.common.settings.PublishSettings.QOS;
import static io.mqttload.common.settings.PublishSettings.RATE;
import static io.mqttload.common.settings.PublishSettings.RATE_PER;
import static io.mqttload.common.settings.PublishSettings.RESPONSE_TOPIC;
import static io.mqttload.common.settings.PublishSettings.RETAIN;
import static io.mqttload.common.settings.PublishSettings.TOPIC;
import static io.mqttload.common.settings.PublishSettings.USER_PROPERTIES;

/**
 * Fields of the MQTT Publish sampler, grouped; each default and editor is its {@code PublishSettings} declaration's.
 * Hidden from the menus, which list its panel {@link MqttPublishSamplerGui}.
 */
public class MqttPublishSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttPublishSamplerBeanInfo() {
        super(MqttPublishSampler.class);
        clientGroupField();
        group("message", TOPIC, QOS, RETAIN);
        group("payload", PAYLOAD_TYPE, PAYLOAD_SIZE, PAYLOAD_TEXT, PAYLOAD_FILE, MEASURE_LATENCY);
        group("flow", MESSAGES_PER_SAMPLE, RATE, RATE_PER, OFFLINE_BUFFER, MODE, MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_CLIENT, ACK_TIMEOUT_MS);
        group("mqtt5", MESSAGE_EXPIRY_SECONDS, CONTENT_TYPE, PAYLOAD_FORMAT, RESPONSE_TOPIC, CORRELATION_DATA,
            USER_PROPERTIES);
        getBeanDescriptor().setHidden(true);
    }
}
