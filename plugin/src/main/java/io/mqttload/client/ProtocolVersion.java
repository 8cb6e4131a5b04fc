package io.mqttload.client;

/** The MQTT protocol version a client speaks; the MQTT Connection's {@code mqttVersion} names one (its declaration parses it). */
public enum ProtocolVersion {
    MQTT_3_1_1,
    MQTT_5
}
