package io.mqttload.common;

import java.util.Locale;

/** A minimal JSON writer: objects, strings and numbers, always with '.' as the decimal mark. */
public final class Json {
    private final StringBuilder out = new StringBuilder();
    private boolean needComma;
    private int depth;

    public Json open() {
        out.append('{');
        depth++;
        needComma = false;
        return this;
    }

    public Json close() {
        depth--;
        out.append('\n').append("  ".repeat(depth)).append('}');
        needComma = true;
        return this;
    }

    public Json key(String name) {
        if (needComma) {
            out.append(',');
        }
        out.append('\n').append("  ".repeat(depth)).append(quote(name)).append(": ");
        needComma = false;
        return this;
    }

    public Json field(String name, String value) {
        key(name).out.append(quote(value));
        needComma = true;
        return this;
    }

    public Json field(String name, long value) {
        key(name).out.append(value);
        needComma = true;
        return this;
    }

    public Json field(String name, Long value) {
        return field(name, value.longValue());
    }

    public Json field(String name, double value) {
        key(name).out.append(number(value));
        needComma = true;
        return this;
    }

    /** A value that is already JSON text (an array or object built elsewhere). */
    public Json rawField(String name, String json) {
        key(name).out.append(json);
        needComma = true;
        return this;
    }

    public static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        // "12.000" from 12.0000001 must become "12", not "12.", which is not JSON.
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    @Override
    public String toString() {
        return out.toString() + "\n";
    }
}
