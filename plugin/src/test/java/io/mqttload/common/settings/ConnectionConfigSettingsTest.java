package io.mqttload.common.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.mqttload.client.NodeAssignment;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.Transport;
import io.mqttload.common.InvalidSettingException;

/**
 * The MQTT Connection's choices take the spellings plans have always used, and parse to the names of the enums the
 * transport reads with {@code valueOf}; {@code SettingsDeclarationTest} holds the rest of the declaration.
 */
class ConnectionConfigSettingsTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({"TCP,TCP", "' tls ',TLS", "ssl,TLS", "ws,WEBSOCKET", "WebSocket,WEBSOCKET", "wss,SECURE_WEBSOCKET",
        "secure-websocket,SECURE_WEBSOCKET", "secure websocket,SECURE_WEBSOCKET"})
    void transport_spellings(String text, String expected) {
        assertThat(Transport.valueOf(ConnectionConfigSettings.TRANSPORT.parse(text))).isEqualTo(Transport.valueOf(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"MQTT_5,MQTT_5", "5,MQTT_5", "5.0,MQTT_5", "mqtt 5.0,MQTT_5", "MQTT_3_1_1,MQTT_3_1_1", "3.1.1,MQTT_3_1_1",
        "3,MQTT_3_1_1", "4,MQTT_3_1_1", "mqtt 3.1.1,MQTT_3_1_1"})
    void mqttVersion_spellings(String text, String expected) {
        assertThat(ProtocolVersion.valueOf(ConnectionConfigSettings.MQTT_VERSION.parse(text)))
                .isEqualTo(ProtocolVersion.valueOf(expected));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource({"'',ROUND_ROBIN", "round-robin,ROUND_ROBIN", "round robin,ROUND_ROBIN", "partition,PARTITION",
        "TEMPLATE,TEMPLATE", "Random,RANDOM"})
    void nodeAssignment_spellings_andEmptyForPlansSavedBeforeIt(String text, String expected) {
        assertThat(NodeAssignment.valueOf(ConnectionConfigSettings.NODE_ASSIGNMENT.parse(text)))
                .isEqualTo(NodeAssignment.valueOf(expected));
    }

    @ParameterizedTest(name = "{0} = ''{1}''")
    @CsvSource({"transport,MQTT,'transport must be TCP, TLS, WEBSOCKET or SECURE_WEBSOCKET'",
        "transport,web.socket,'transport must be TCP, TLS, WEBSOCKET or SECURE_WEBSOCKET'",
        "mqttVersion,MQTT-5,MQTT version must be MQTT_3_1_1 or MQTT_5",
        "mqttVersion,3.1,MQTT version must be MQTT_3_1_1 or MQTT_5",
        "nodeAssignment,NEAREST,'expected ROUND_ROBIN, PARTITION, TEMPLATE or RANDOM'"})
    void otherSpellings_areRefused_namingFieldAndValue(String field, String text, String why) {
        Setting<?> setting = ConnectionConfigSettings.ALL.stream().filter(s -> s.name().equals(field)).findFirst()
                .orElseThrow();
        assertThatThrownBy(() -> setting.parse(text)).isInstanceOf(InvalidSettingException.class)
                .hasMessage(field + " = '" + text + "': " + why);
    }
}
