package io.mqttload.convert;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.w3c.dom.Element;

import io.mqttload.common.settings.PublishSettings;
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
    /** The hex payloads' files, written by {@link #writeFiles} once the plan is: nothing is written before. */
    private final Map<Path, byte[]> pending = new LinkedHashMap<>();

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
        mqtt5(x, r, pub);
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
                r.notConverted("mqtt.message_type_fixed_length", length, "not a length: payloadSize left at "
                        + PublishSettings.PAYLOAD_SIZE.defaultText());
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
        pending.put(file, content);
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

    /**
     * Writes the hex payloads' files; when one cannot be written, deletes those written and throws.
     *
     * @return the files written
     */
    List<Path> writeFiles() throws IOException {
        List<Path> written = new ArrayList<>();
        for (Map.Entry<Path, byte[]> f : pending.entrySet()) {
            try {
                Files.write(f.getKey(), f.getValue());
                written.add(f.getKey());
            } catch (IOException e) {
                deleteQuietly(written);
                throw new IOException("cannot write the payload file " + f.getKey() + ": " + e.getMessage(), e);
            }
        }
        return written;
    }

    /** Deletes {@code files}, as far as it can: a clean-up after a failed conversion. */
    static void deleteQuietly(List<Path> files) {
        for (Path f : files) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException | UncheckedIOException e) {
                // Best effort: the conversion's own error is what the user is told.
            }
        }
    }

    /**
     * The MQTT 5 publish properties of XMeter's unmerged pull request #151 (and its forks), each only when the plan
     * has it. The suite sends them on MQTT 5 connections.
     */
    private static void mqtt5(XmeterElement x, ElementRecord r, SuiteElements.Bean pub) {
        if (x.has("mqtt.message_expiry_interval")) {
            String expiry = x.take("mqtt.message_expiry_interval");
            String e = expiry.trim();
            if (e.isEmpty()) {
                r.mapped("mqtt.message_expiry_interval", expiry, "no message expiry");
            } else if (e.equals("0")) {
                r.approximated("mqtt.message_expiry_interval", expiry, "messageExpirySeconds left empty (no expiry): "
                        + "0 is the forks' default; an expiry of 0 s would drop the message for every subscriber not "
                        + "connected; set messageExpirySeconds = 0 on the MQTT Publish by hand if that was meant");
            } else if (Values.isExpression(e) || Values.isInteger(e) && Long.parseLong(e) > 0
                    && Long.parseLong(e) <= 4294967295L) {
                pub.set("messageExpirySeconds", e);
                r.mapped("mqtt.message_expiry_interval", expiry, "messageExpirySeconds = " + ConversionReport.code(e));
            } else {
                r.notConverted("mqtt.message_expiry_interval", expiry, "not a number of seconds (0 to 4294967295): set "
                        + "messageExpirySeconds on the MQTT Publish by hand");
            }
        }
        if (x.has("mqtt.content_type")) {
            String type = x.take("mqtt.content_type");
            pub.set("contentType", type.trim());
            r.mapped("mqtt.content_type", type, type.trim().isEmpty() ? "no content type"
                    : "contentType = " + ConversionReport.code(type.trim()));
        }
        if (x.has("mqtt.correlation_data")) {
            String data = x.take("mqtt.correlation_data");
            pub.set("correlationData", data);
            r.mapped("mqtt.correlation_data", data, data.isEmpty() ? "no correlation data"
                    : "correlationData (its text, sent with every message)");
        }
        if (x.has("mqtt.user_properties")) {
            ConnectMapping.userProperties(x.take("mqtt.user_properties"), "mqtt.user_properties", "MQTT Publish", r, pub);
        }
        if (x.has("mqtt.response_topic")) {
            String topic = x.take("mqtt.response_topic");
            if (Values.isBlank(topic)) {
                r.noEffect("mqtt.response_topic", topic, "empty: no response topic");
            } else {
                r.notConverted("mqtt.response_topic", topic, "set responseTopic on the MQTT Publish by hand if a "
                        + "responder answers: in the suite a response topic makes every message a request owed a reply "
                        + "(from an MQTT Subscribe with answerRequests), and a request without one fails the run");
            }
        }
        if (x.has("mqtt.payload_format_indicator")) {
            String format = x.take("mqtt.payload_format_indicator");
            String f = format.trim().toLowerCase(Locale.ROOT);
            String to = null;
            if (f.equals("1") || f.equals("true") || f.equals("utf-8") || f.equals("utf_8")) {
                to = "UTF_8";
            } else if (f.equals("0") || f.equals("false") || f.equals("unspecified")) {
                to = "UNSPECIFIED";
            }
            if (f.isEmpty()) {
                r.noEffect("mqtt.payload_format_indicator", format, "empty: no payload format indicator");
            } else if (to == null) {
                r.notConverted("mqtt.payload_format_indicator", format, "not a payload format the converter knows (0 or "
                        + "false: bytes, 1 or true: UTF-8): set payloadFormat (NONE, UNSPECIFIED or UTF_8) on the MQTT "
                        + "Publish by hand");
            } else {
                pub.set("payloadFormat", to);
                r.mapped("mqtt.payload_format_indicator", format, "payloadFormat = " + ConversionReport.code(to));
            }
        }
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
