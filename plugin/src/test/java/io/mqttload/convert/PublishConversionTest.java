package io.mqttload.convert;

import static io.mqttload.convert.Converted.prop;
import static io.mqttload.convert.XmeterPlans.bool;
import static io.mqttload.convert.XmeterPlans.connect;
import static io.mqttload.convert.XmeterPlans.node;
import static io.mqttload.convert.XmeterPlans.plan;
import static io.mqttload.convert.XmeterPlans.pub;
import static io.mqttload.convert.XmeterPlans.str;
import static io.mqttload.convert.XmeterPlans.threadGroup;
import static io.mqttload.convert.XmeterPlans.xmeter;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** XMeter's PubSampler, each option and payload kind, into MQTT Publish. */
class PublishConversionTest {
    @TempDir
    Path dir;

    private Converted convert(String pub) {
        return Converted.convert(dir, plan(threadGroup("Pubs", 1, 1, connect("Connect", str("mqtt.server", "h")), pub)));
    }

    @Test
    void stringPayload_isText_oneSynchronousMessagePerSample() {
        Converted c = convert(pub("Publish", "t/${__threadNum}", "1", false, "String", "1024", "hello"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "topic")).isEqualTo("t/${__threadNum}");
        assertThat(prop(p, "qos")).isEqualTo("1");
        assertThat(prop(p, "retain")).isEqualTo("false");
        assertThat(prop(p, "payloadType")).isEqualTo("TEXT");
        assertThat(prop(p, "payloadText")).isEqualTo("hello");
        assertThat(prop(p, "measureLatency")).isEqualTo("false");
        assertThat(prop(p, "mode")).isEqualTo("SYNC");
        assertThat(prop(p, "messagesPerSample")).isEqualTo("1");
        assertThat(prop(p, "clientGroup")).isEqualTo("default");
        assertThat(p.getAttribute("enabled")).isEqualTo("true");
        assertThat(c.reportText()).contains("`mqtt.message_type_fixed_length` | `1024` | no effect");
    }

    @Test
    void timestamp_becomesTheMeasurementHeader_inFrontOfTheText() {
        Converted c = convert(pub("Publish", "t", "0", true, "String", "1024", "hi"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "measureLatency")).isEqualTo("true");
        // Two bytes of text would be shorter than the header: the header gets room of its own in front of it.
        assertThat(prop(p, "payloadText")).isEqualTo(PublishMapping.HEADER_ROOM + "hi").hasSize(18);
        assertThat(c.reportText()).contains("`mqtt.add_timestamp` = `true`: measureLatency = `true`: the suite's 16-byte");
    }

    @Test
    void randomPayload_keepsItsLengthAfterTheHeader() {
        Converted plain = convert(pub("Publish", "t", "2", false, "Random string with fixed length", "100", ""));
        Element p = plain.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "payloadType")).isEqualTo("RANDOM");
        assertThat(prop(p, "payloadSize")).isEqualTo("100");
        assertThat(prop(p, "qos")).isEqualTo("2");

        Converted measured = convert(pub("Publish", "t", "2", true, "Random string with fixed length", "100", ""));
        assertThat(prop(measured.suite("MqttPublishSampler", "Publish"), "payloadSize")).isEqualTo("116");

        Converted expression = convert(pub("Publish", "t", "2", true, "Random string with fixed length", "${size}", ""));
        assertThat(prop(expression.suite("MqttPublishSampler", "Publish"), "payloadSize"))
                .isEqualTo("${__jexl3((${size}) + 16)}");
    }

    @Test
    void absentType_isXmetersCodeDefault_random1024() {
        Converted c = convert(node(xmeter("PubSampler", "Publish", str("mqtt.topic_name", "t"))));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "payloadType")).isEqualTo("RANDOM");
        assertThat(prop(p, "payloadSize")).isEqualTo("1024");
        assertThat(prop(p, "qos")).isEqualTo("0");
    }

    @Test
    void hexPayload_isDecodedIntoAFileNextToThePlan() throws Exception {
        Converted c = convert(pub("Publish", "t", "1", false, "Hex string", "1024", "00ff10AB"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "payloadType")).isEqualTo("FILE");
        Path file = Path.of(prop(p, "payloadFile"));
        assertThat(file).isAbsolute().isEqualTo(dir.resolve("out.payload-1.bin").toAbsolutePath().normalize());
        assertThat(Files.readAllBytes(file)).containsExactly(0x00, 0xff, 0x10, 0xab);
        assertThat(c.reportText()).contains("## Files written besides the plan").contains("out.payload-1.bin");
    }

    @Test
    void hexPayloadWithTimestamp_leavesRoomForTheHeader() throws Exception {
        Converted c = convert(pub("Publish", "t", "1", true, "Hex string", "1024", "0102"));

        byte[] bytes = Files.readAllBytes(Path.of(prop(c.suite("MqttPublishSampler", "Publish"), "payloadFile")));
        assertThat(bytes).hasSize(18);
        assertThat(bytes[16]).isEqualTo((byte) 1);
        assertThat(bytes[17]).isEqualTo((byte) 2);
    }

    @Test
    void invalidHex_disablesThePublish_andIsNotConverted() {
        Converted c = convert(pub("Publish", "t", "1", false, "Hex string", "1024", "0x12 3"));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.suite("MqttPublishSampler", "Publish").getAttribute("enabled")).isEqualTo("false");
        assertThat(c.out).contains("mqtt.message_to_sent = 0x12 3: not an even number of hex digits");
    }

    @Test
    void retainAndComments_areKept() {
        Converted c = convert(pub("Publish", "t", "1", false, "String", "1", "x", bool("mqtt.retained_message", true),
                str("TestPlan.comments", "why this publish")));

        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "retain")).isEqualTo("true");
        assertThat(prop(p, "TestPlan.comments")).isEqualTo("why this publish");
    }

    @Test
    void braceInTheTopic_isReported() {
        Converted c = convert(pub("Publish", "devices/{id}/${__threadNum}", "1", false, "String", "1", "x"));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.out).contains("mqtt.topic_name = devices/{id}/${__threadNum}: a brace in the topic");
    }

    @Test
    void expressionsWithBraces_areNotPlaceholders() {
        Converted c = convert(pub("Publish", "t/${__jexl3(${__threadNum} % 2)}", "1", false, "String", "1", "x"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
    }

    @Test
    void unknownPayloadType_sendsAnEmptyPayloadAsXmeter() {
        Converted c = convert(pub("Publish", "t", "1", false, "Base64", "1", "x"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "payloadType")).isEqualTo("TEXT");
        assertThat(prop(p, "payloadText")).isEmpty();
        assertThat(c.reportText()).contains("`mqtt.message_type` = `Base64`: unknown type");
    }

    @Test
    void mqtt5PublishProperties_ofPullRequest151_areMapped() {
        Converted c = convert(pub("Publish", "t", "1", false, "String", "1", "x",
                "  <longProp name=\"mqtt.message_expiry_interval\">120</longProp>", str("mqtt.content_type", "application/json"),
                str("mqtt.correlation_data", "corr-1"), str("mqtt.user_properties", "{\"k\":\"v\",\"k2\":\"\"}"),
                str("mqtt.payload_format_indicator", "1"), str("mqtt.response_topic", "")));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "messageExpirySeconds")).isEqualTo("120");
        assertThat(prop(p, "contentType")).isEqualTo("application/json");
        assertThat(prop(p, "correlationData")).isEqualTo("corr-1");
        assertThat(prop(p, "userProperties")).isEqualTo("k=v\nk2=");
        assertThat(prop(p, "payloadFormat")).isEqualTo("UTF_8");
        assertThat(prop(p, "responseTopic")).isEmpty();
        assertThat(c.reportText()).doesNotContain("no counterpart");
    }

    @Test
    void mqtt5PublishProperties_withoutAClearMapping_nameTheSuiteField() {
        Converted c = convert(pub("Publish", "t", "1", false, "String", "1", "x",
                str("mqtt.response_topic", "reply/t"), str("mqtt.payload_format_indicator", "binary"),
                "  <longProp name=\"mqtt.message_expiry_interval\">0</longProp>"));

        assertThat(c.exitCode).isEqualTo(2);
        Element p = c.suite("MqttPublishSampler", "Publish");
        assertThat(prop(p, "responseTopic")).isEmpty();
        assertThat(prop(p, "payloadFormat")).isEqualTo("NONE");
        assertThat(prop(p, "messageExpirySeconds")).isEmpty();
        assertThat(c.out).contains("mqtt.response_topic = reply/t: set responseTopic on the MQTT Publish by hand")
                .contains("mqtt.payload_format_indicator = binary: not a payload format")
                .contains("set payloadFormat (NONE, UNSPECIFIED or UTF_8) on the MQTT Publish by hand");
        assertThat(c.reportText()).contains("| `mqtt.message_expiry_interval` | `0` | approximated |");
    }

    @Test
    void hexPayloadFile_isNotWritten_whenThePlanCannotBe() throws Exception {
        Path out = dir.resolve("out.jmx");
        Files.createDirectories(out);
        Converted c = convert(pub("Publish", "t", "1", false, "Hex string", "1024", "00ff"));

        assertThat(c.exitCode).isEqualTo(1);
        assertThat(c.err).contains("cannot write the converted plan");
        assertThat(dir.resolve("out.payload-1.bin")).doesNotExist();
        assertThat(dir.resolve("out.conversion.md")).doesNotExist();
        assertThat(out).isDirectory();
    }
}
