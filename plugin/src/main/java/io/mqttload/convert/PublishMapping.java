package io.mqttload.convert;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.w3c.dom.Element;

import io.mqttload.convert.ConversionReport.ElementRecord;

/**
 * XMeter's PubSampler: one message per sample, waiting for its acknowledgement (XMeter's publish blocks), on the
 * thread's connection. The payload kinds map onto TEXT, RANDOM and FILE; XMeter's timestamp prefix becomes the
 * suite's 16-byte measurement header, put in front of the payload as XMeter put its timestamp.
 */
final class PublishMapping {
    static final String STRING = "String";
    static final String HEX = "Hex string";
    static final String RANDOM = "Random string with fixed length";
    /** The suite's measurement header (io.mqttload.measure.PayloadHeader.SIZE), which the payload starts with. */
    static final int HEADER = 16;
    /** Filler the header overwrites in each message: it only reserves the header's room in a TEXT payload. */
    static final String HEADER_ROOM = "................";

    private final SuiteElements suite;
    private final Path outputDir;
    private final String stem;
    private int files;

    PublishMapping(SuiteElements suite, Path outputDir, String stem) {
        this.suite = suite;
        this.outputDir = outputDir;
        this.stem = stem;
    }

    void convert(XmeterElement x, ElementRecord r, ConversionReport report) {
        SuiteElements.Bean pub = suite.publish(x.testname, x.enabled).comments(x.take(XmeterElement.COMMENTS));
        pub.set("mode", "SYNC");
        pub.set("messagesPerSample", "1");

        String topic = x.take("mqtt.topic_name");
        String t = topic == null ? "test_topic" : topic;
        pub.set("topic", t);
        if (Values.hasLiteralBrace(t)) {
            r.notConverted("mqtt.topic_name", topic, "a brace in the topic would be read as one of the suite's topic "
                    + "placeholders ({thread}, {client}, {msg}, ...), which have no escape: the topic needs editing");
        } else {
            r.mapped("mqtt.topic_name", topic, "topic = " + ConversionReport.code(t));
        }

        String qos = x.take("mqtt.qos_level");
        pub.set("qos", qos == null ? "0" : qos.trim());
        if (qos == null || Values.isExpression(qos) || qos.trim().matches("[012]")) {
            r.mapped("mqtt.qos_level", qos, "qos = " + ConversionReport.code(pub.get("qos")));
        } else {
            r.notConverted("mqtt.qos_level", qos, "not a QoS (0, 1 or 2): the suite fails each sample naming it");
        }

        String retain = x.take("mqtt.retained_message");
        pub.set("retain", Boolean.toString(XmeterElement.isTrue(retain)));
        r.mapped("mqtt.retained_message", retain, "retain = " + ConversionReport.code(pub.get("retain")));

        String stamp = x.take("mqtt.add_timestamp");
        boolean measured = XmeterElement.isTrue(stamp);
        pub.set("measureLatency", Boolean.toString(measured));
        if (measured) {
            r.approximated("mqtt.add_timestamp", stamp, "measureLatency = `true`: the suite's 16-byte binary header "
                    + "(send time in microseconds, stream, sequence number) starts each message instead of XMeter's "
                    + "text prefix `<epoch ms>ts_sep_flag`; it gives pub-to-sub latency percentiles and the loss check");
        } else {
            r.mapped("mqtt.add_timestamp", stamp, "measureLatency = `false`: no header, no latency or loss figures "
                    + "for these messages");
        }

        boolean usable = payload(x, r, report, pub, measured);
        r.became = "MQTT Publish " + ConversionReport.code(x.testname) + " (SYNC, one message per sample, "
                + "client group `default`)" + (usable ? "" : ", **disabled**: its payload could not be converted");
        Element e = pub.build();
        if (!usable) {
            e.setAttribute("enabled", "false");
        }
        x.slot.replace(e);
        r.notes.add("XMeter's publish blocks until acknowledged: mode SYNC, messagesPerSample 1. A Constant Throughput "
                + "Timer or other timer in the plan paces it as before.");
    }

    private boolean payload(XmeterElement x, ElementRecord r, ConversionReport report, SuiteElements.Bean pub,
            boolean measured) {
        String type = x.take("mqtt.message_type");
        String length = x.take("mqtt.message_type_fixed_length");
        String message = x.take("mqtt.message_to_sent");
        String kind = type == null ? RANDOM : type.trim();
        String room = measured ? " after the " + HEADER + "-byte header" : "";
        if (kind.equals(RANDOM)) {
            pub.set("payloadType", "RANDOM");
            r.mapped("mqtt.message_type", type, "payloadType = `RANDOM`" + (type == null ? " (XMeter's default when "
                    + "absent)" : ""));
            String len = length == null ? "1024" : length.trim();
            if (Values.isInteger(len) && Long.parseLong(len) >= 0) {
                pub.set("payloadSize", Long.toString(Long.parseLong(len) + (measured ? HEADER : 0)));
            } else if (Values.isExpression(len)) {
                pub.set("payloadSize", measured ? Values.plus(len, HEADER) : len);
            } else {
                r.notConverted("mqtt.message_type_fixed_length", length, "not a length: payloadSize left at 64");
                r.noEffect("mqtt.message_to_sent", message, "not used by random payloads");
                return true;
            }
            r.approximated("mqtt.message_type_fixed_length", length, "payloadSize = "
                    + ConversionReport.code(pub.get("payloadSize")) + ": " + len + " random bytes" + room
                    + " (XMeter: random letters and digits, made once per thread and resent)");
            r.noEffect("mqtt.message_to_sent", message, "not used by random payloads");
            return true;
        }
        r.noEffect("mqtt.message_type_fixed_length", length, "used by random payloads only");
        if (kind.equals(STRING)) {
            String text = message == null ? "" : message;
            pub.set("payloadType", "TEXT");
            pub.set("payloadText", measured ? HEADER_ROOM + text : text);
            r.mapped("mqtt.message_type", type, "payloadType = `TEXT`");
            r.mapped("mqtt.message_to_sent", message, "payloadText" + (measured ? " = " + HEADER + " filler "
                    + "characters (the header's room: the header replaces them in each message) + the text, so "
                    + "subscribers receive the header followed by the text" : " (UTF-8; XMeter used the JVM's default "
                    + "charset)"));
            return true;
        }
        if (kind.equals(HEX)) {
            r.mapped("mqtt.message_type", type, "payloadType = `FILE`: the decoded bytes in a file next to the plan");
            return hex(message, r, report, pub, measured);
        }
        pub.set("payloadType", "TEXT");
        pub.set("payloadText", measured ? HEADER_ROOM : "");
        r.approximated("mqtt.message_type", type, "unknown type: XMeter sends an empty payload; payloadType = `TEXT`, "
                + "empty" + (measured ? " but for the header" : ""));
        r.noEffect("mqtt.message_to_sent", message, "not used by this type");
        return true;
    }

    private boolean hex(String message, ElementRecord r, ConversionReport report, SuiteElements.Bean pub,
            boolean measured) {
        String hex = message == null ? "" : message;
        pub.set("payloadType", "FILE");
        if (Values.isExpression(hex)) {
            r.notConverted("mqtt.message_to_sent", message, "a hex payload computed when the plan runs cannot be "
                    + "decoded into a file now; the MQTT Publish is disabled");
            return false;
        }
        byte[] bytes = decodeHex(hex);
        if (bytes == null) {
            r.notConverted("mqtt.message_to_sent", message, "not an even number of hex digits (XMeter fails every "
                    + "publish of it); the MQTT Publish is disabled");
            return false;
        }
        byte[] content = bytes;
        if (measured) {
            content = new byte[HEADER + bytes.length];
            System.arraycopy(bytes, 0, content, HEADER, bytes.length);
        }
        files++;
        Path file = outputDir.resolve(stem + ".payload-" + files + ".bin").toAbsolutePath().normalize();
        try {
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the payload file " + file, e);
        }
        pub.set("payloadFile", file.toString());
        report.files.add(ConversionReport.code(file.toString()) + ": the payload of " + ConversionReport.code(r.testname)
                + ", " + content.length + " bytes" + (measured ? " (" + HEADER + " for the header, then the " + bytes.length
                + " decoded)" : ""));
        r.mapped("mqtt.message_to_sent", message, "payloadFile = " + ConversionReport.code(file.toString()) + ": "
                + bytes.length + " bytes" + (measured ? " after " + HEADER + " bytes of room for the header" : "")
                + "; an absolute path, as the suite reads a relative one from JMeter's working directory: move the "
                + "file with the plan and edit the path");
        return true;
    }

    /** XMeter's hex payload: an even number of hex digits, nothing else (no spaces, no 0x); null otherwise. */
    static byte[] decodeHex(String hex) {
        String h = hex.toLowerCase(Locale.ROOT);
        if (h.length() % 2 != 0 || !h.matches("[0-9a-f]*")) {
            return null;
        }
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
