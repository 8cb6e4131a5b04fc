package io.mqttload.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.datatypes.MqttUtf8String;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import com.hivemq.client.mqtt.mqtt5.auth.Mqtt5EnhancedAuthMechanism;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperties;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5ConnectRestrictions;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5WillPublish;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.ConnectionConfigSettings;

/**
 * What a CONNECT carries besides the session and the credentials: the will message (MQTT 3.1.1 and 5) and the
 * MQTT 5 connect properties (restrictions, user properties, enhanced authentication). Immutable; {@link Builder#build()}
 * checks the texts it encodes (topic, payload, user properties, authentication) and the fields that need each other,
 * naming the field; the numbers are within the ranges {@code ConnectionConfigSettings} declares and checks. The
 * client's messages are built here once and shared by every client connecting with these options, as they are
 * immutable too.
 */
public final class ConnectOptions {
    /** The largest Two Byte Integer: the length of binary data, an authentication step's timeout in seconds. */
    private static final int MAX_TWO_BYTES = ConnectionConfigSettings.MAX_TWO_BYTES;
    /** How the authentication data's text gives its bytes. */
    public enum AuthDataEncoding {
        /** The text's UTF-8 bytes. */
        TEXT,
        /** Binary data in standard base64. */
        BASE64
    }

    /** What the client sends when nothing is set: no will, MQTT 5's defaults. */
    public static final ConnectOptions NONE = builder().build();

    private static final int SHOWN_CHARACTERS = 40;

    private final String willTopic;
    private final Mqtt5WillPublish will5;
    private final Mqtt3Publish will3;
    private final Mqtt5ConnectRestrictions restrictions;
    private final Mqtt5UserProperties userProperties;
    private final MqttUtf8String authMethod;
    private final ByteBuffer authData;
    /** The first MQTT 5 option that is set, as field and value, refused with MQTT 3.1.1; null when none is. */
    private final String[] mqtt5Only;

    private ConnectOptions(Builder b) {
        String[] firstMqtt5 = null;
        this.willTopic = b.willTopic == null ? "" : b.willTopic;
        if (willTopic.isEmpty()) {
            refuseWithoutWill(b);
            will5 = null;
            will3 = null;
        } else {
            topicName("willTopic", willTopic);
            byte[] payload = (b.willPayload == null ? "" : b.willPayload).getBytes(StandardCharsets.UTF_8);
            if (payload.length > MAX_TWO_BYTES) {
                throw new InvalidSettingException("willPayload", shown(b.willPayload), "is " + payload.length
                        + " bytes in UTF-8; MQTT allows a will payload of at most " + MAX_TWO_BYTES);
            }
            // The client's fromCode answers null for anything but 0, 1 and 2.
            MqttQos qos = Objects.requireNonNull(MqttQos.fromCode(b.willQos), "willQos");
            long delay = b.willDelaySeconds == null ? 0 : b.willDelaySeconds;
            will5 = Mqtt5WillPublish.builder().topic(willTopic).payload(payload).qos(qos).retain(b.willRetain)
                    .delayInterval(delay).build();
            will3 = Mqtt3Publish.builder().topic(willTopic).payload(payload).qos(qos).retain(b.willRetain).build();
            if (b.willDelaySeconds != null) {
                firstMqtt5 = new String[] {"willDelaySeconds", b.willDelaySeconds.toString()};
            }
        }

        var limits = Mqtt5ConnectRestrictions.builder();
        if (b.receiveMaximum != null) {
            limits = limits.receiveMaximum(b.receiveMaximum.intValue());
            firstMqtt5 = first(firstMqtt5, "receiveMaximum", b.receiveMaximum);
        }
        if (b.maximumPacketSize != null) {
            limits = limits.maximumPacketSize(b.maximumPacketSize.intValue());
            firstMqtt5 = first(firstMqtt5, "maximumPacketSize", b.maximumPacketSize);
        }
        if (b.topicAliasMaximum != null) {
            limits = limits.topicAliasMaximum(b.topicAliasMaximum.intValue());
            firstMqtt5 = first(firstMqtt5, "topicAliasMaximum", b.topicAliasMaximum);
        }
        if (b.sendTopicAliasMaximum != null) {
            limits = limits.sendTopicAliasMaximum(b.sendTopicAliasMaximum.intValue());
            firstMqtt5 = first(firstMqtt5, "sendTopicAliasMaximum", b.sendTopicAliasMaximum);
        }
        this.restrictions = limits.build();

        // The same format as the Publish sampler's user properties: one parser, one documented format.
        UserProperties user = UserProperties.parse("userProperties", b.userProperties);
        List<String[]> pairs = user.pairs();
        this.userProperties = user.mqtt5().build();
        if (!pairs.isEmpty()) {
            firstMqtt5 = first(firstMqtt5, "userProperties", pairs.get(0)[0] + "=" + pairs.get(0)[1]);
        }

        String method = b.authMethod == null ? "" : b.authMethod.strip();
        byte[] data = authData(b.authData, b.authDataEncoding);
        if (method.isEmpty()) {
            if (data != null) {
                throw new InvalidSettingException("authData", hidden(b.authData), "authentication data needs an"
                        + " authMethod; set one or clear authData");
            }
            this.authMethod = null;
            this.authData = null;
        } else {
            Checks.mqttString("authMethod", method, shown(method));
            this.authMethod = MqttUtf8String.of(method);
            this.authData = data == null ? null : ByteBuffer.wrap(data).asReadOnlyBuffer();
            firstMqtt5 = first(firstMqtt5, "authMethod", method);
        }
        this.mqtt5Only = firstMqtt5;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Refuses the MQTT 5 options with MQTT 3.1.1, naming the first one set: dropping it silently would run a test
     * other than the one the plan describes.
     */
    void checkMqtt311() {
        if (mqtt5Only != null) {
            throw new InvalidSettingException(mqtt5Only[0], mqtt5Only[1], "an MQTT 5 option, which MQTT 3.1.1 does not"
                    + " have; clear it or set mqttVersion = MQTT_5");
        }
    }

    /** Whether the clients leave a will message with the broker. */
    public boolean hasWill() {
        return will5 != null;
    }

    /** The will's topic, empty without a will. */
    public String willTopic() {
        return willTopic;
    }

    /** The MQTT 5 will message, or null. */
    Mqtt5WillPublish will5() {
        return will5;
    }

    /** The MQTT 3.1.1 will message (topic, payload, QoS and retain), or null. */
    Mqtt3Publish will3() {
        return will3;
    }

    /** Receive maximum, maximum packet size and the topic alias maximums; the client's defaults where not set. */
    Mqtt5ConnectRestrictions restrictions() {
        return restrictions;
    }

    Mqtt5UserProperties userProperties() {
        return userProperties;
    }

    /** The authentication method, or empty for none. */
    public String authMethod() {
        return authMethod == null ? "" : authMethod.toString();
    }

    /** The authentication data (read-only), or null for none. */
    ByteBuffer authData() {
        return authData == null ? null : authData.duplicate();
    }

    /**
     * The enhanced authentication of one client's CONNECT, or null without an authMethod. Each step of the exchange
     * may take as long as a whole connect.
     */
    Mqtt5EnhancedAuthMechanism enhancedAuth(long connectTimeoutMs) {
        if (authMethod == null) {
            return null;
        }
        return new FixedEnhancedAuth(authMethod, authData, (int) Math.min(MAX_TWO_BYTES, (connectTimeoutMs + 999) / 1000));
    }

    /** A will's other fields without a will topic would be dropped unseen: each one set is refused. */
    private static void refuseWithoutWill(Builder b) {
        String why = "a will message needs a willTopic; set one or clear this field";
        if (b.willPayload != null && !b.willPayload.isEmpty()) {
            throw new InvalidSettingException("willPayload", shown(b.willPayload), why);
        }
        if (b.willQos != 0) {
            throw new InvalidSettingException("willQos", b.willQos, why);
        }
        if (b.willRetain) {
            throw new InvalidSettingException("willRetain", true, why);
        }
        if (b.willDelaySeconds != null) {
            throw new InvalidSettingException("willDelaySeconds", b.willDelaySeconds, why);
        }
    }

    /** A topic a message is published to, as MQTT defines it (§4.7): literal, no wildcards, a valid string. */
    private static void topicName(String field, String topic) {
        if (topic.indexOf('+') >= 0 || topic.indexOf('#') >= 0) {
            throw new InvalidSettingException(field, topic,
                    "wildcards (+ and #) are allowed only in subscriptions, not in a topic a message is published to");
        }
        Checks.mqttString(field, topic, shown(topic));
    }

    /** The data's bytes, or null when empty. The text is a secret like a password: never shown in a message. */
    private static byte[] authData(String text, AuthDataEncoding encoding) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        byte[] data;
        if (encoding == AuthDataEncoding.TEXT) {
            data = text.getBytes(StandardCharsets.UTF_8);
        } else {
            try {
                data = Base64.getDecoder().decode(text.trim());
            } catch (IllegalArgumentException e) {
                // The decoder's message names the offending character: a piece of the secret.
                throw new InvalidSettingException("authData", hidden(text), "not base64 (authDataEncoding = BASE64)");
            }
        }
        if (data.length > MAX_TWO_BYTES) {
            throw new InvalidSettingException("authData", hidden(text), "is " + data.length + " bytes; MQTT allows"
                    + " authentication data of at most " + MAX_TWO_BYTES);
        }
        return data;
    }

    private static String[] first(String[] found, String field, Object value) {
        return found != null ? found : new String[] {field, String.valueOf(value)};
    }

    private static String shown(String value) {
        return Checks.shown(value);
    }

    private static String hidden(String secret) {
        return "(" + secret.length() + " characters, not shown)";
    }

    /** Mutable collector of the raw values; null numbers are options not set. {@link #build()} checks them. */
    public static final class Builder {
        private String willTopic = "";
        private String willPayload = "";
        private int willQos;
        private boolean willRetain;
        private Long willDelaySeconds;
        private Long receiveMaximum;
        private Long maximumPacketSize;
        private Long topicAliasMaximum;
        private Long sendTopicAliasMaximum;
        private String userProperties = "";
        private String authMethod = "";
        private String authData = "";
        private AuthDataEncoding authDataEncoding = AuthDataEncoding.TEXT;

        private Builder() {
        }

        /** The will's topic; empty for no will. */
        public Builder willTopic(String value) {
            this.willTopic = value;
            return this;
        }

        /** The will's payload, sent as UTF-8. */
        public Builder willPayload(String value) {
            this.willPayload = value;
            return this;
        }

        public Builder willQos(int value) {
            this.willQos = value;
            return this;
        }

        public Builder willRetain(boolean value) {
            this.willRetain = value;
            return this;
        }

        /** Seconds the broker waits after the connection was lost before it publishes the will (MQTT 5); null: not set. */
        public Builder willDelaySeconds(Long value) {
            this.willDelaySeconds = value;
            return this;
        }

        /** QoS 1 and 2 messages the broker may send before an acknowledgement (MQTT 5); null: 65535. */
        public Builder receiveMaximum(Long value) {
            this.receiveMaximum = value;
            return this;
        }

        /** The largest packet the broker may send to the client (MQTT 5); null: no limit. */
        public Builder maximumPacketSize(Long value) {
            this.maximumPacketSize = value;
            return this;
        }

        /** Topic aliases the broker may use in what it sends to the client (MQTT 5); null: 0, none. */
        public Builder topicAliasMaximum(Long value) {
            this.topicAliasMaximum = value;
            return this;
        }

        /** The most topic aliases the client uses in its publishes (MQTT 5); null: 16, the client's default. */
        public Builder sendTopicAliasMaximum(Long value) {
            this.sendTopicAliasMaximum = value;
            return this;
        }

        /** User properties, one {@code name=value} per line (MQTT 5). */
        public Builder userProperties(String value) {
            this.userProperties = value;
            return this;
        }

        /** The enhanced authentication method (MQTT 5); empty for none. */
        public Builder authMethod(String value) {
            this.authMethod = value;
            return this;
        }

        /** The authentication data, as {@link #authDataEncoding} says. */
        public Builder authData(String value) {
            this.authData = value;
            return this;
        }

        public Builder authDataEncoding(AuthDataEncoding value) {
            this.authDataEncoding = value;
            return this;
        }

        public ConnectOptions build() {
            return new ConnectOptions(this);
        }
    }
}
