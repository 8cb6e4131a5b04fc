package io.mqttload.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5ConnectRestrictions;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5WillPublish;

import io.mqttload.client.ConnectOptions.AuthDataEncoding;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.common.settings.Setting;

/** The will and MQTT 5 connect options: what reaches the client's CONNECT, and every bad value named with its field. */
class ConnectOptionsTest {
    private static ConnectOptions build(UnaryOperator<ConnectOptions.Builder> settings) {
        return settings.apply(ConnectOptions.builder()).build();
    }

    @Test
    void nothingSet_sendsTheClientsDefaults() {
        ConnectOptions none = ConnectOptions.NONE;
        Mqtt5ConnectRestrictions defaults = Mqtt5ConnectRestrictions.builder().build();
        assertThat(none.hasWill()).isFalse();
        assertThat(none.will5()).isNull();
        assertThat(none.will3()).isNull();
        assertThat(none.restrictions().getReceiveMaximum()).isEqualTo(defaults.getReceiveMaximum()).isEqualTo(65_535);
        assertThat(none.restrictions().getMaximumPacketSize()).isEqualTo(268_435_460);
        assertThat(none.restrictions().getTopicAliasMaximum()).isZero();
        assertThat(none.restrictions().getSendTopicAliasMaximum()).isEqualTo(16);
        assertThat(none.userProperties().asList()).isEmpty();
        assertThat(none.enhancedAuth(10_000)).isNull();
        ConnectionSettings.builder().protocolVersion(ProtocolVersion.MQTT_3_1_1).connectOptions(none).build();
    }

    @Test
    void will_isTheMessageOfBothVersions() {
        ConnectOptions options = build(b -> b.willTopic("clients/gone").willPayload("bye ✓").willQos(2).willRetain(true)
                .willDelaySeconds(30L));
        Mqtt5WillPublish will = options.will5();
        assertThat(will.getTopic().toString()).isEqualTo("clients/gone");
        assertThat(will.getPayloadAsBytes()).isEqualTo("bye ✓".getBytes(StandardCharsets.UTF_8));
        assertThat(will.getQos()).isEqualTo(MqttQos.EXACTLY_ONCE);
        assertThat(will.isRetain()).isTrue();
        assertThat(will.getDelayInterval()).isEqualTo(30);
        assertThat(options.will3().getTopic().toString()).isEqualTo("clients/gone");
        assertThat(options.will3().getQos()).isEqualTo(MqttQos.EXACTLY_ONCE);
        assertThat(options.will3().isRetain()).isTrue();
        assertThat(options.will3().getPayloadAsBytes()).isEqualTo("bye ✓".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void will_withoutDelay_isAllowedWithMqtt311() {
        ConnectOptions options = build(b -> b.willTopic("clients/gone").willPayload("bye").willQos(1));
        ConnectionSettings settings = ConnectionSettings.builder().protocolVersion(ProtocolVersion.MQTT_3_1_1)
                .connectOptions(options).build();
        assertThat(settings.connectOptions().will3().getQos()).isEqualTo(MqttQos.AT_LEAST_ONCE);
        assertThat(settings.connectOptions().will5().getDelayInterval()).isZero();
    }

    @Test
    void restrictions_goIntoTheConnect() {
        Mqtt5ConnectRestrictions r = build(b -> b.receiveMaximum(1L).maximumPacketSize(1024L).topicAliasMaximum(7L)
                .sendTopicAliasMaximum(0L)).restrictions();
        assertThat(r.getReceiveMaximum()).isEqualTo(1);
        assertThat(r.getMaximumPacketSize()).isEqualTo(1024);
        assertThat(r.getTopicAliasMaximum()).isEqualTo(7);
        assertThat(r.getSendTopicAliasMaximum()).as("0 turns the client's automatic aliases off").isZero();
        Mqtt5ConnectRestrictions limits = build(b -> b.receiveMaximum(65_535L).maximumPacketSize(268_435_460L)
                .topicAliasMaximum(65_535L).sendTopicAliasMaximum(65_535L)).restrictions();
        assertThat(limits.getMaximumPacketSize()).isEqualTo(268_435_460);
        assertThat(limits.getSendTopicAliasMaximum()).isEqualTo(65_535);
    }

    @Test
    void userProperties_keepOrderAndRepeatedNames() {
        ConnectOptions options = build(b -> b.userProperties("team = load\n\nrun=42\r\nrun=43\nempty=\nurl=a=b"));
        List<String> properties = options.userProperties().asList().stream()
                .map(p -> p.getName() + "|" + p.getValue()).collect(Collectors.toList());
        assertThat(properties).containsExactly("team|load", "run|42", "run|43", "empty|", "url|a=b");
    }

    @Test
    void enhancedAuth_hasTheMethodAndATimeoutOfTheConnects() {
        var auth = build(b -> b.authMethod("SCRAM-SHA-256").authData("c2VjcmV0").authDataEncoding(AuthDataEncoding.BASE64))
                .enhancedAuth(2_500);
        assertThat(auth.getMethod().toString()).isEqualTo("SCRAM-SHA-256");
        assertThat(auth.getTimeout()).isEqualTo(3);
        assertThat(auth).isInstanceOf(FixedEnhancedAuth.class);
        assertThat(build(b -> b.authMethod("token")).enhancedAuth(10_000).getMethod().toString()).isEqualTo("token");
    }

    static Stream<Arguments> badValues() {
        String bigPayload = "x".repeat(65_536);
        return Stream.of(
                bad(b -> b.willTopic("clients/+/gone"), "willTopic = 'clients/+/gone': wildcards (+ and #)"),
                bad(b -> b.willTopic("clients/#"), "willTopic = 'clients/#': wildcards (+ and #)"),
                bad(b -> b.willTopic("a\u0000b"), "willTopic = 'a\u0000b': MQTT strings must not contain U+0000"),
                bad(b -> b.willTopic("a\ud800"), "willTopic = 'a\ud800': contains an unpaired UTF-16 surrogate"),
                bad(b -> b.willTopic("w").willPayload(bigPayload), "willPayload = '" + "x".repeat(40)
                        + "... (65536 characters)': is 65536 bytes in UTF-8; MQTT allows a will payload of at most 65535"),
                bad(b -> b.willPayload("bye"), "willPayload = 'bye': a will message needs a willTopic"),
                bad(b -> b.willQos(1), "willQos = '1': a will message needs a willTopic"),
                bad(b -> b.willRetain(true), "willRetain = 'true': a will message needs a willTopic"),
                bad(b -> b.willDelaySeconds(5L), "willDelaySeconds = '5': a will message needs a willTopic"),
                bad(b -> b.userProperties("=value"), "userProperties = '=value': a user property needs a name before '='"),
                bad(b -> b.userProperties("ok=1\nnot a property"),
                        "userProperties = 'not a property': a user property is name=value"),
                bad(b -> b.userProperties("a=\ud800"), "userProperties = 'a=\ud800': contains an unpaired UTF-16 surrogate"),
                bad(b -> b.authData("token"), "authData = '(5 characters, not shown)': authentication data needs an"
                        + " authMethod"),
                bad(b -> b.authMethod("m").authData("not base64!").authDataEncoding(AuthDataEncoding.BASE64),
                        "authData = '(11 characters, not shown)': not base64"),
                bad(b -> b.authMethod("m\u0000"), "authMethod = 'm\u0000': MQTT strings must not contain U+0000"));
    }

    /** The numbers and the encoding are checked once, by their declaration, as the MQTT Connection reads them. */
    static Stream<Arguments> badDeclaredValues() {
        return Stream.of(
                Arguments.of(ConnectionConfigSettings.RECEIVE_MAXIMUM, "0", "must be between 1 and 65535"),
                Arguments.of(ConnectionConfigSettings.RECEIVE_MAXIMUM, "65536", "must be between 1 and 65535"),
                Arguments.of(ConnectionConfigSettings.MAXIMUM_PACKET_SIZE, "0", "must be between 1 and 268435460"),
                Arguments.of(ConnectionConfigSettings.MAXIMUM_PACKET_SIZE, "268435461", "must be between 1 and 268435460"),
                Arguments.of(ConnectionConfigSettings.TOPIC_ALIAS_MAXIMUM, "-1", "must be between 0 and 65535"),
                Arguments.of(ConnectionConfigSettings.SEND_TOPIC_ALIAS_MAXIMUM, "65536", "must be between 0 and 65535"),
                Arguments.of(ConnectionConfigSettings.WILL_QOS, "3", "MQTT QoS must be 0, 1 or 2"),
                Arguments.of(ConnectionConfigSettings.WILL_DELAY_SECONDS, "-1", "must be between 0 and 4294967295"),
                Arguments.of(ConnectionConfigSettings.AUTH_DATA_ENCODING, "HEX", "must be TEXT or BASE64"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("badDeclaredValues")
    void badDeclaredValue_namesTheFieldAndTheValue(Setting<?> setting, String value, String why) {
        assertThatThrownBy(() -> setting.parse(value)).isInstanceOf(InvalidSettingException.class)
                .hasMessage(setting.name() + " = '" + value + "': " + why);
    }

    private static Arguments bad(UnaryOperator<ConnectOptions.Builder> settings, String message) {
        return Arguments.of(message.substring(0, message.indexOf(' ')), settings, message);
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("badValues")
    void badValue_namesTheFieldAndTheValue(String field, UnaryOperator<ConnectOptions.Builder> settings, String message) {
        assertThatThrownBy(() -> build(settings)).isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith(message)
                .satisfies(e -> assertThat(((InvalidSettingException) e).field()).isEqualTo(field));
    }

    @Test
    void authData_isNeverShown() {
        assertThatThrownBy(() -> build(b -> b.authData("s3cr3t-token"))).hasMessageNotContaining("s3cr3t");
        assertThatThrownBy(() -> build(b -> b.authMethod("m").authData("s3cr3t!").authDataEncoding(AuthDataEncoding.BASE64)))
                .hasMessageNotContaining("s3cr3t");
    }

    static Stream<Arguments> mqtt5Only() {
        return Stream.of(
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.willTopic("w").willDelaySeconds(0L),
                        "willDelaySeconds = '0'"),
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.receiveMaximum(10L), "receiveMaximum = '10'"),
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.maximumPacketSize(4096L),
                        "maximumPacketSize = '4096'"),
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.topicAliasMaximum(0L), "topicAliasMaximum = '0'"),
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.sendTopicAliasMaximum(16L),
                        "sendTopicAliasMaximum = '16'"),
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.userProperties("\nteam=load\nrun=1"),
                        "userProperties = 'team=load'"),
                Arguments.of((UnaryOperator<ConnectOptions.Builder>) b -> b.authMethod("SCRAM-SHA-1"),
                        "authMethod = 'SCRAM-SHA-1'"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("mqtt5Only")
    void anMqtt5OptionThatIsSet_isRefusedWithMqtt311(UnaryOperator<ConnectOptions.Builder> settings, String named) {
        ConnectOptions options = build(settings);
        ConnectionSettings.builder().protocolVersion(ProtocolVersion.MQTT_5).connectOptions(options).build();
        assertThatThrownBy(() -> ConnectionSettings.builder().protocolVersion(ProtocolVersion.MQTT_3_1_1)
                .connectOptions(options).build()).isInstanceOf(InvalidSettingException.class)
                .hasMessage(named + ": an MQTT 5 option, which MQTT 3.1.1 does not have; clear it or set mqttVersion"
                        + " = MQTT_5");
    }

    @Test
    void connectOptions_followEveryNodeOfACluster() {
        ConnectOptions options = build(b -> b.receiveMaximum(5L));
        ConnectionSettings cluster = ConnectionSettings.builder().nodes("a:1883, b:1884").connectOptions(options).build();
        assertThat(cluster.forNode(1).connectOptions()).isSameAs(options);
    }

    @Test
    void authDataAsText_isItsUtf8Bytes() {
        ByteBuffer data = build(b -> b.authMethod("m").authData("é")).authData();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        assertThat(bytes).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
        ByteBuffer decoded = build(b -> b.authMethod("m").authData("AAEC/w==").authDataEncoding(AuthDataEncoding.BASE64)).authData();
        assertThat(decoded.remaining()).isEqualTo(4);
        assertThat(decoded.get(3)).isEqualTo((byte) 0xff);
        assertThat(build(b -> b.authMethod("m")).authData()).as("a method without data").isNull();
    }
}
