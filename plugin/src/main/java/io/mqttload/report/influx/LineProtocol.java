package io.mqttload.report.influx;

import java.util.Map;

/**
 * InfluxDB line protocol (v1 /write, also accepted by 2.x and 3.x): one point per line,
 * {@code measurement,tag=value field=value timestamp}. Escaping follows the protocol's rules for
 * every character a user can type in a tag, and numbers are written without the default Locale
 * (a decimal comma would corrupt the line).
 */
public final class LineProtocol {
    private LineProtocol() {
    }

    /** Measurement names escape commas and spaces. */
    public static void measurement(StringBuilder out, String name) {
        escape(out, name, false);
    }

    /**
     * Tag keys, tag values and field keys escape commas, equals signs and spaces.
     *
     * @throws IllegalArgumentException for a name ending with a backslash (not representable)
     */
    public static void tag(StringBuilder out, String key, String value) {
        if (value == null || value.isEmpty()) {
            // An empty tag value is not allowed by the protocol; the tag is left out instead.
            return;
        }
        out.append(',');
        escape(out, key, true);
        out.append('=');
        escape(out, value, true);
    }

    public static void tags(StringBuilder out, Map<String, String> tags) {
        tags.forEach((k, v) -> tag(out, k, v));
    }

    /** Starts the field set (the separator between tags and fields), then the first field. */
    public static void firstField(StringBuilder out, String key, long value) {
        out.append(' ');
        fieldValue(out, key, value);
    }

    public static void firstField(StringBuilder out, String key, double value) {
        out.append(' ');
        escape(out, key, true);
        out.append('=').append(number(value));
    }

    public static void field(StringBuilder out, String key, long value) {
        out.append(',');
        fieldValue(out, key, value);
    }

    public static void field(StringBuilder out, String key, double value) {
        out.append(',');
        escape(out, key, true);
        out.append('=').append(number(value));
    }

    /** String field values are double-quoted; quotes and backslashes inside are escaped. */
    public static void field(StringBuilder out, String key, String value) {
        out.append(',');
        escape(out, key, true);
        out.append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c == '\n' ? ' ' : c);
        }
        out.append('"');
    }

    /** Ends the point with its timestamp in milliseconds (write with precision=ms) and a newline. */
    public static void end(StringBuilder out, long timestampMillis) {
        out.append(' ').append(timestampMillis).append('\n');
    }

    private static void fieldValue(StringBuilder out, String key, long value) {
        escape(out, key, true);
        out.append('=').append(value).append('i');
    }

    /** A float without exponent or Locale: Double.toString is Locale-independent. */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "0";
        }
        return Double.toString(value);
    }

    private static void escape(StringBuilder out, String s, boolean equalsToo) {
        if (s.endsWith("\\")) {
            // InfluxDB 1.x reads a backslash before the separator as an escape and has no way to write a
            // literal one there, so such a name cannot be stored as it is.
            throw new IllegalArgumentException("'" + s + "' ends with a backslash, which InfluxDB line protocol cannot represent");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == ' ' || (equalsToo && c == '=')) {
                out.append('\\');
            }
            if (c == '\n' || c == '\r' || c == '\t') {
                // A line break would end the point; the protocol has no escape for it.
                out.append("\\ ");
                continue;
            }
            out.append(c);
        }
    }
}
