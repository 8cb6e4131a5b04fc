package io.mqttload.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.measure.PayloadHeader;

/**
 * The bytes of every published message: text, random bytes of a size, or a file's content. With
 * measurement on, the first {@link PayloadHeader#SIZE} bytes of each message carry the header, so
 * the message keeps exactly the configured size (the seeds specify payload sizes, e.g. 16 or 64 bytes).
 */
public final class PayloadSource {
    public static final int MAX_PAYLOAD = PublishSettings.MAX_PAYLOAD;

    public enum Kind { TEXT, RANDOM, FILE }

    private final byte[] template;
    private final boolean measured;
    /** What the report says of it: "256 B random". */
    private final String description;

    private PayloadSource(byte[] template, boolean measured, String description) {
        this.template = template;
        this.measured = measured;
        this.description = description;
    }

    /** @param size a random payload's size, within its setting's range ({@code PublishSettings.PAYLOAD_SIZE}) */
    public static PayloadSource create(Kind kind, String text, long size, String file, boolean measured) {
        byte[] bytes;
        switch (kind) {
            case TEXT:
                bytes = (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
                break;
            case RANDOM:
                bytes = new byte[(int) size];
                new SplittableRandom(size).nextBytes(bytes);
                break;
            default:
                bytes = readFile(file);
                break;
        }
        if (bytes.length > MAX_PAYLOAD) {
            throw new InvalidSettingException(kind == Kind.FILE ? "payloadFile" : "payloadText",
                    kind == Kind.FILE ? file : bytes.length + " bytes", "larger than MQTT's maximum payload");
        }
        if (measured && bytes.length < PayloadHeader.SIZE) {
            String field = kind == Kind.RANDOM ? "payloadSize" : kind == Kind.FILE ? "payloadFile" : "payloadText";
            Object value = kind == Kind.RANDOM ? size : kind == Kind.FILE ? file : text;
            throw new InvalidSettingException(field, value, "the payload has " + bytes.length + " bytes but latency "
                    + "measurement needs at least " + PayloadHeader.SIZE + " for its header; make it larger or turn "
                    + "measureLatency off");
        }
        String source = kind == Kind.FILE ? "from " + Path.of(file.trim()).getFileName() : kind.name().toLowerCase(Locale.ROOT);
        return new PayloadSource(bytes, measured, bytes.length + " B " + source + (measured ? "" : ", not measured"));
    }

    private static byte[] readFile(String file) {
        if (file == null || file.trim().isEmpty()) {
            throw new InvalidSettingException("payloadFile", "", "a file is required when payloadType is FILE");
        }
        try {
            return Files.readAllBytes(Path.of(file.trim()));
        } catch (IOException e) {
            throw new InvalidSettingException("payloadFile", file, "cannot be read: " + e.getMessage(), e);
        }
    }

    public boolean isMeasured() {
        return measured;
    }

    public int size() {
        return template.length;
    }

    /** Size and kind, for the report's setup: "256 B random", "1024 B from telemetry.json". */
    public String describe() {
        return description;
    }

    /**
     * A fresh payload (the client may still hold the previous one) stamped with the header if measured: sent at
     * {@code sendMicros}, {@code lagMicros} after its intended send time (negative: it has none).
     */
    public byte[] next(long sendMicros, long lagMicros, int streamId, int sequence, int node) {
        byte[] b = template.clone();
        if (measured) {
            PayloadHeader.write(b, sendMicros, lagMicros, streamId, sequence, node);
        }
        return b;
    }
}
