package io.mqttload.client;

import java.util.Locale;

import io.mqttload.common.InvalidSettingException;

/** The MQTT protocol version a client speaks. */
public enum ProtocolVersion {
    MQTT_3_1_1,
    MQTT_5;

    public static ProtocolVersion parse(String field, String text) {
        String key = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace('.', '_').replace(' ', '_');
        switch (key) {
            case "MQTT_3_1_1":
            case "3_1_1":
            case "3":
            case "4":
                return MQTT_3_1_1;
            case "MQTT_5":
            case "MQTT_5_0":
            case "5":
            case "5_0":
                return MQTT_5;
            default:
                throw new InvalidSettingException(field, text, "MQTT version must be MQTT_3_1_1 or MQTT_5");
        }
    }
}
