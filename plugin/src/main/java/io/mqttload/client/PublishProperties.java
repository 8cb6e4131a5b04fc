package io.mqttload.client;

import java.nio.charset.StandardCharsets;

import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperties;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserPropertiesBuilder;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;

/**
 * The MQTT 5 properties of a PUBLISH a plan asks for: message expiry, content type, payload format indicator,
 * response topic and correlation data (a request), user properties. Immutable; {@link #NONE} sends none, and is
 * the only value an MQTT 3.1.1 client accepts.
 */
public final class PublishProperties {
    /** Marks a reply of the suite's responders, so that the requester tells it from other messages on its topic. */
    public static final String REPLY_PROPERTY = "mqttload-reply";
    public static final PublishProperties NONE = new PublishProperties(-1, null, PayloadFormat.NONE, null, null,
            UserProperties.NONE, false);

    /** The payload format indicator: absent, 0 (unspecified bytes) or 1 (UTF-8 text). */
    public enum PayloadFormat {
        NONE, UNSPECIFIED, UTF_8
    }

    private final long messageExpirySeconds;
    private final String contentType;
    private final PayloadFormat payloadFormat;
    private final String responseTopic;
    private final byte[] correlationData;
    private final UserProperties userProperties;
    private final boolean reply;
    /** The user properties as the client sends them, built once: null when there are none. */
    private final Mqtt5UserProperties mqtt5UserProperties;

    private PublishProperties(long messageExpirySeconds, String contentType, PayloadFormat payloadFormat,
            String responseTopic, byte[] correlationData, UserProperties userProperties, boolean reply) {
        this.messageExpirySeconds = messageExpirySeconds;
        this.contentType = contentType;
        this.payloadFormat = payloadFormat;
        this.responseTopic = responseTopic;
        this.correlationData = correlationData;
        this.userProperties = userProperties;
        this.reply = reply;
        if (userProperties.isEmpty() && !reply) {
            this.mqtt5UserProperties = null;
        } else {
            Mqtt5UserPropertiesBuilder user = userProperties.mqtt5();
            if (reply) {
                user.add(REPLY_PROPERTY, "1");
            }
            this.mqtt5UserProperties = user.build();
        }
    }

    /** The user properties for the client (the reply marker included), or null when none is sent. */
    Mqtt5UserProperties mqtt5UserProperties() {
        return mqtt5UserProperties;
    }

    /**
     * Validated properties; {@code messageExpirySeconds} -1 and empty strings leave a property out. The expiry's range
     * is its setting's (the caller parsed it with {@code PublishSettings}); the response topic is checked by its owner,
     * which may expand placeholders in it per client.
     */
    public static PublishProperties of(long messageExpirySeconds, String contentType, PayloadFormat payloadFormat,
            String correlationData, UserProperties userProperties) {
        String type = contentType == null || contentType.isEmpty() ? null : contentType;
        if (type != null) {
            Checks.mqttString("contentType", type, Checks.shown(type));
        }
        byte[] correlation = correlationData == null || correlationData.isEmpty() ? null
                : correlationData.getBytes(StandardCharsets.UTF_8);
        if (correlation != null && correlation.length > Checks.MAX_MQTT_STRING_BYTES) {
            throw new InvalidSettingException("correlationData", correlationData.substring(0, 40) + "...",
                    "longer than the 65,535 bytes MQTT allows");
        }
        for (String[] pair : userProperties.pairs()) {
            if (pair[0].equals(REPLY_PROPERTY)) {
                throw new InvalidSettingException("userProperties", pair[0] + "=" + pair[1], "the name " + REPLY_PROPERTY
                        + " marks the replies of the suite's responders; use another name");
            }
        }
        return new PublishProperties(messageExpirySeconds, type, payloadFormat, null, correlation, userProperties, false);
    }

    /** These properties for a request whose replies go to {@code topic}. */
    public PublishProperties withResponseTopic(String topic) {
        return new PublishProperties(messageExpirySeconds, contentType, payloadFormat, topic, correlationData,
                userProperties, reply);
    }

    /** A responder's reply to a request that carried {@code correlation} (null: none). */
    public static PublishProperties reply(byte[] correlation) {
        return new PublishProperties(-1, null, PayloadFormat.NONE, null, correlation, UserProperties.NONE, true);
    }

    /** Whether no property is set: what MQTT 3.1.1 can carry. */
    public boolean isEmpty() {
        return firstFieldSet() == null && !reply;
    }

    /** The first field set, for the error an MQTT 3.1.1 connection gives (null: none). */
    public String firstFieldSet() {
        if (messageExpirySeconds != -1) {
            return "messageExpirySeconds";
        }
        if (contentType != null) {
            return "contentType";
        }
        if (payloadFormat != PayloadFormat.NONE) {
            return "payloadFormat";
        }
        if (responseTopic != null) {
            return "responseTopic";
        }
        if (correlationData != null) {
            return "correlationData";
        }
        return userProperties.isEmpty() ? null : "userProperties";
    }

    /** The value of {@code field} as the plan gave it, for an error message. */
    public String valueOf(String field) {
        switch (field) {
            case "messageExpirySeconds":
                return Long.toString(messageExpirySeconds);
            case "contentType":
                return contentType;
            case "payloadFormat":
                return payloadFormat.name();
            case "correlationData":
                return correlationData == null ? "" : new String(correlationData, StandardCharsets.UTF_8);
            case "userProperties":
                return userProperties.pairs().isEmpty() ? "" : userProperties.pairs().get(0)[0] + "=...";
            default:
                return responseTopic;
        }
    }

    public long messageExpirySeconds() {
        return messageExpirySeconds;
    }

    public String contentType() {
        return contentType;
    }

    public PayloadFormat payloadFormat() {
        return payloadFormat;
    }

    public String responseTopic() {
        return responseTopic;
    }

    public byte[] correlationData() {
        return correlationData;
    }

    public UserProperties userProperties() {
        return userProperties;
    }

    public boolean isReply() {
        return reply;
    }
}
