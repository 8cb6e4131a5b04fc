package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.PublishProperties;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.TlsSettings;
import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.delivery.Verdict;

/** Every invalid input is refused with a message naming the field and the value. */
class ValidationTest {
    @Test
    void port_outOfRange_namesFieldAndValue() {
        assertThatThrownBy(() -> ConnectionConfigSettings.PORT.parse("0"))
                .isInstanceOf(InvalidSettingException.class).hasMessage("port = '0': must be between 1 and 65535");
        assertThatThrownBy(() -> ConnectionConfigSettings.PORT.parse("65536")).hasMessageStartingWith("port = '65536'");
    }

    @Test
    void qos3_isRefused() {
        assertThatThrownBy(() -> PublishSettings.QOS.parse("3")).hasMessage("qos = '3': MQTT QoS must be 0, 1 or 2");
        assertThatThrownBy(() -> ConnectionConfigSettings.WILL_QOS.parse("3"))
                .hasMessage("willQos = '3': MQTT QoS must be 0, 1 or 2");
    }

    @Test
    void publishTopic_withWildcardOrEmpty_isRefused() {
        PayloadSource payload = PayloadSource.create(PayloadSource.Kind.RANDOM, "", 64, "", true);
        assertThatThrownBy(() -> publish("a/+/b", payload)).hasMessageStartingWith("topic = 'a/+/b': wildcards");
        assertThatThrownBy(() -> publish("a/#", payload)).hasMessageStartingWith("topic = 'a/#'");
        assertThatThrownBy(() -> publish("", payload)).hasMessageStartingWith("topic = ''");
    }

    @Test
    void publishTopic_withPlusInsideAPlaceholder_isArithmeticNotAWildcard() {
        PayloadSource payload = PayloadSource.create(PayloadSource.Kind.RANDOM, "", 64, "", true);
        publish("a/{msg+40%100}/{thread+1}", payload);
        assertThatThrownBy(() -> publish("a/{msg+1}/+", payload)).hasMessageStartingWith("topic = 'a/{msg+1}/+': wildcards");
    }

    private static PublishOperation publish(String topic, PayloadSource payload) {
        return new PublishOperation(SettingValues.of(PublishSettings.ALL, Map.of(PublishSettings.TOPIC.name(), topic)),
                payload, PublishProperties.NONE);
    }

    @Test
    void payload_negativeOrSmallerThanHeader_isRefused() {
        assertThatThrownBy(() -> PublishSettings.PAYLOAD_SIZE.parse("-1")).hasMessageStartingWith("payloadSize = '-1'");
        assertThatThrownBy(() -> PayloadSource.create(PayloadSource.Kind.RANDOM, "", 15, "", true))
                .hasMessageStartingWith("payloadSize = '15'").hasMessageContaining("at least 16");
        assertThatThrownBy(() -> PayloadSource.create(PayloadSource.Kind.TEXT, "short", 0, "", true))
                .hasMessageStartingWith("payloadText = 'short'");
        assertThatThrownBy(() -> PayloadSource.create(PayloadSource.Kind.FILE, "", 0, "/nonexistent/payload.bin", false))
                .hasMessageStartingWith("payloadFile = '/nonexistent/payload.bin'");
    }

    @Test
    void topicFilter_misplacedWildcards_areRefused() {
        assertThatThrownBy(() -> Checks.topicFilter("topicFilters", "a/#/b")).hasMessageStartingWith("topicFilters = 'a/#/b'");
        assertThatThrownBy(() -> Checks.topicFilter("topicFilters", "a/b+")).hasMessageStartingWith("topicFilters = 'a/b+'");
        assertThatThrownBy(() -> Checks.topicFilter("topicFilters", "$share/g")).hasMessageContaining("$share/<group>/<filter>");
    }

    @Test
    void keyStore_unreadableOrWrongPassword_namesTheField() throws Exception {
        assertThatThrownBy(() -> TlsSettings.load("/nonexistent/trust.p12", "x", "", "", true))
                .hasMessageStartingWith("trustStorePath = '/nonexistent/trust.p12'");
        java.nio.file.Path junk = java.nio.file.Files.createTempFile("junk", ".p12");
        java.nio.file.Files.write(junk, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> TlsSettings.load("", "", junk.toString(), "x", true))
                .hasMessageStartingWith("keyStorePath = '" + junk + "'");
        java.nio.file.Files.delete(junk);
    }

    @Test
    void perClientKeyStore_unexpandableTemplates_areRefused() {
        assertThatThrownBy(() -> TlsSettings.load("", "", "certs/{device}.p12", "", "", true))
                .hasMessageStartingWith("keyStorePath = 'certs/{device}.p12'").hasMessageContaining("unknown placeholder {device}");
        assertThatThrownBy(() -> TlsSettings.load("", "", "certs/{client}.p12", "", "{engine+1}", true))
                .hasMessageStartingWith("keyStoreAlias = '{engine+1}'")
                .hasMessageContaining("{engine} is text and takes no arithmetic");
        assertThatThrownBy(() -> TlsSettings.load("", "", "", "", "device-{client}", true))
                .hasMessageStartingWith("keyStoreAlias = 'device-{client}'").hasMessageContaining("keyStorePath is empty");
    }

    @Test
    void clientIdTemplate_withoutClientForManyClients_isRefused() {
        assertThatThrownBy(() -> connect(Map.of(ConnectSettings.CLIENT_COUNT.name(), "10",
                ConnectSettings.CLIENT_ID_TEMPLATE.name(), "{engine}-{thread}")))
                .hasMessageStartingWith("clientIdTemplate = '{engine}-{thread}'");
    }

    @Test
    void localAddress_thatIsNotAnIp_isRefused() {
        assertThatThrownBy(() -> connect(Map.of(ConnectSettings.LOCAL_ADDRESSES.name(), "127.0.0.1, broker.example")))
                .hasMessageStartingWith("localAddresses = 'broker.example'");
    }

    private static ConnectOperation connect(Map<String, String> fields) {
        return new ConnectOperation(ConnectionSettings.builder().build(), SettingValues.of(ConnectSettings.ALL, fields),
                ReconnectPolicy.none());
    }

    @Test
    void failureTolerance_notAPercentage_namesThePropertyAndTheValue() {
        assertThatThrownBy(() -> RunConfig.from(name -> name.equals(RunConfig.FAILURE_TOLERANCE_PERCENT) ? "150" : null, "s"))
                .hasMessage("mqttload.failureTolerancePercent = '150': must be a percentage between 0 and 100");
        assertThatThrownBy(() -> RunConfig.from(name -> name.equals(RunConfig.FAILURE_TOLERANCE_PERCENT) ? "some" : null, "s"))
                .hasMessageStartingWith("mqttload.failureTolerancePercent = 'some': not a number");
    }

    @Test
    void brokerVersionTimeout_outOfRange_namesThePropertyAndTheValue() {
        assertThatThrownBy(() -> RunConfig.from(name -> name.equals(RunConfig.BROKER_VERSION_TIMEOUT_MS) ? "-1" : null, "s"))
                .hasMessageStartingWith("mqttload.brokerVersionTimeoutMs = '-1'");
        assertThat(RunConfig.from(name -> name.equals(RunConfig.BROKER_VERSION_TIMEOUT_MS) ? "0" : null, "s")
                .brokerVersionTimeoutMillis()).isZero();
    }

    @Test
    void verdictNames_areReadBackOrRefusedByName() {
        assertThat(Verdict.of(" no_loss ")).isEqualTo(Verdict.NO_LOSS);
        assertThatThrownBy(() -> Verdict.of("NO LOSS")).hasMessage("not an MQTT run verdict: 'NO LOSS'");
    }
}
