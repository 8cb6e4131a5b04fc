package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mqttload.client.PublishProperties;
import io.mqttload.client.UserProperties;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.common.settings.SubscribeSettings;

/** MQTT 5 publish properties and subscription options: every bad value is refused naming the field and the value. */
class Mqtt5MessageOptionsValidationTest {
    private static final PayloadSource PAYLOAD = PayloadSource.create(PayloadSource.Kind.RANDOM, "", 64, "", true);

    @Test
    void userProperties_parseNameValueLines_andRefuseALineWithoutName() {
        UserProperties p = UserProperties.parse("userProperties", "a=1\n\n b = x=y \nempty=");

        assertThat(p.pairs()).extracting(pair -> pair[0] + "|" + pair[1]).containsExactly("a|1", "b|x=y", "empty|");
        assertThatThrownBy(() -> UserProperties.parse("userProperties", "=v")).isInstanceOf(InvalidSettingException.class)
                .hasMessage("userProperties = '=v': a user property needs a name before '='");
        assertThatThrownBy(() -> UserProperties.parse("userProperties", "novalue"))
                .hasMessageStartingWith("userProperties = 'novalue': a user property is name=value");
    }

    @Test
    void publishProperties_outOfRangeOrUnknown_areRefused() {
        assertThatThrownBy(() -> PublishSettings.MESSAGE_EXPIRY_SECONDS.parse("4294967296"))
                .hasMessageStartingWith("messageExpirySeconds = '4294967296'");
        assertThatThrownBy(() -> PublishSettings.PAYLOAD_FORMAT.parse("JSON"))
                .hasMessage("payloadFormat = 'JSON': must be NONE (not sent), UNSPECIFIED or UTF_8");
        assertThat(PublishSettings.PAYLOAD_FORMAT.parse(" utf_8 ")).isEqualTo("UTF_8");
        assertThat(PublishSettings.PAYLOAD_FORMAT.parse("")).isEqualTo("NONE");
        assertThatThrownBy(() -> requestTo("reply/#", PAYLOAD)).hasMessageStartingWith("responseTopic = 'reply/#'");
        PayloadSource unmeasured = PayloadSource.create(PayloadSource.Kind.RANDOM, "", 64, "", false);
        assertThatThrownBy(() -> requestTo("reply/1", unmeasured))
                .hasMessageStartingWith("responseTopic = 'reply/1': needs measureLatency");
        assertThatThrownBy(() -> PublishProperties.of(-1, "", PublishProperties.PayloadFormat.NONE, "",
                UserProperties.parse("userProperties", "mqttload-reply=1")))
                .hasMessageStartingWith("userProperties = 'mqttload-reply=1': the name mqttload-reply marks");
        assertThat(PublishProperties.of(-1, "", PublishProperties.PayloadFormat.NONE, "", UserProperties.NONE).isEmpty())
                .isTrue();
        assertThat(PublishProperties.of(0, "", PublishProperties.PayloadFormat.NONE, "", UserProperties.NONE)
                .firstFieldSet()).isEqualTo("messageExpirySeconds");
    }

    private static PublishOperation requestTo(String responseTopic, PayloadSource payload) {
        return new PublishOperation(SettingValues.of(PublishSettings.ALL, Map.of(PublishSettings.TOPIC.name(), "t/1",
                PublishSettings.RESPONSE_TOPIC.name(), responseTopic)), payload, PublishProperties.NONE);
    }

    @Test
    void subscribeOptions_noLocalOnASharedSubscription_andAnUnknownRetainHandling_areRefused() {
        assertThatThrownBy(() -> subscribeNoLocal("a/#\n$share/g/b/#"))
                .hasMessage("noLocal = 'true': MQTT 5 forbids no local on a shared subscription ('$share/g/b/#')");
        assertThatThrownBy(() -> SubscribeSettings.RETAIN_HANDLING.parse("SOMETIMES"))
                .hasMessage("retainHandling = 'SOMETIMES': must be SEND, SEND_IF_NEW or DO_NOT_SEND");
        assertThat(SubscribeSettings.RETAIN_HANDLING.parse("")).isEqualTo("SEND");
        assertThat(subscribeNoLocal("a/#")).isNotNull();
    }

    private static SubscribeOperation subscribeNoLocal(String filters) {
        return new SubscribeOperation(SettingValues.of(SubscribeSettings.ALL, Map.of(
                SubscribeSettings.TOPIC_FILTERS.name(), filters, SubscribeSettings.NO_LOCAL.name(), "true")));
    }
}
