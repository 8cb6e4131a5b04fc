package io.mqttload.common.settings;

import java.util.Locale;

import io.mqttload.common.InvalidSettingException;

/**
 * Parses the text of TestBean fields. Fields are text so that plans can use {@code ${__P(...)}};
 * JMeter's own conversion would turn "abc" into 0 silently, so each value is parsed here with an
 * error that names the field and the value.
 */
public final class SettingText {
    private SettingText() {
    }

    public static long parseLong(String field, String text, long min, long max) {
        String t = text == null ? "" : text.trim();
        long value;
        try {
            value = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(field, t, "not a whole number");
        }
        if (value < min || value > max) {
            throw new InvalidSettingException(field, t, "must be between " + min + " and " + max);
        }
        return value;
    }

    public static int parseInt(String field, String text, int min, int max) {
        return (int) parseLong(field, text, min, max);
    }

    public static double parseDouble(String field, String text, double min) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            return 0;
        }
        double value;
        try {
            value = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(field, t, "not a number");
        }
        if (!(value >= min) || Double.isInfinite(value)) {
            throw new InvalidSettingException(field, t, "must be at least " + min);
        }
        return value;
    }

    /** "0", "1", "2", or the names JMeter users type ("AT_LEAST_ONCE"...). */
    public static int parseQos(String field, String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        switch (t) {
            case "0":
            case "AT_MOST_ONCE":
                return 0;
            case "1":
            case "AT_LEAST_ONCE":
                return 1;
            case "2":
            case "EXACTLY_ONCE":
                return 2;
            default:
                throw new InvalidSettingException(field, text, "MQTT QoS must be 0, 1 or 2");
        }
    }

    public static boolean parseBoolean(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true")) {
            return true;
        }
        if (t.equals("false")) {
            return false;
        }
        throw new InvalidSettingException(field, text, "must be true or false");
    }
}
