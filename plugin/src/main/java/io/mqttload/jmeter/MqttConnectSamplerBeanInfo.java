package io.mqttload.jmeter;

import static io.mqttload.common.settings.ConnectSettings.BROKER_NODE;
import static io.mqttload.common.settings.ConnectSettings.CLIENT_COUNT;
import static io.mqttload.common.settings.ConnectSettings.CLIENT_IDS_WITHIN_23;
import static io.mqttload.common.settings.ConnectSettings.CLIENT_ID_TEMPLATE;
import static io.mqttload.common.settings.ConnectSettings.CONNECT_RATE;
import static io.mqttload.common.settings.ConnectSettings.CONSUME_DELAY_MS;
import static io.mqttload.common.settings.ConnectSettings.INITIAL_WAIT_MAX_MS;
import static io.mqttload.common.settings.ConnectSettings.INITIAL_WAIT_MIN_MS;
import static io.mqttload.common.settings.ConnectSettings.LOCAL_ADDRESSES;
import static io.mqttload.common.settings.ConnectSettings.RECONNECT_ATTEMPTS;
import static io.mqttload.common.settings.ConnectSettings.RECONNECT_DELAY_MS;
import static io.mqttload.common.settings.ConnectSettings.RECONNECT_MAX_DELAY_MS;
import static io.mqttload.common.settings.ConnectSettings.RECONNECT_POLICY;
import static io.mqttload.common.settings.ConnectSettings.RETRY_FIRST_CONNECT;

/** Fields of the MQTT Connect sampler, grouped; each default and editor is its {@code ConnectSettings} declaration's. */
public class MqttConnectSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttConnectSamplerBeanInfo() {
        super(MqttConnectSampler.class);
        clientGroupField();
        group("identity", CLIENT_COUNT, CLIENT_ID_TEMPLATE, CLIENT_IDS_WITHIN_23);
        group("pacing", CONNECT_RATE, INITIAL_WAIT_MIN_MS, INITIAL_WAIT_MAX_MS);
        group("reconnection", RECONNECT_POLICY, RECONNECT_ATTEMPTS, RECONNECT_DELAY_MS, RECONNECT_MAX_DELAY_MS,
                RETRY_FIRST_CONNECT);
        group("network", LOCAL_ADDRESSES, BROKER_NODE);
        group("consumer", CONSUME_DELAY_MS);
    }
}
