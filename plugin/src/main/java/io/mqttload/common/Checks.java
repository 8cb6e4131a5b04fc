package io.mqttload.common;

import java.nio.charset.StandardCharsets;

/** One way to validate user input, one style of message (see {@link InvalidSettingException}). */
public final class Checks {
    private Checks() {
    }

    /** The most bytes an MQTT UTF-8 string (or binary data) may have: its length is two bytes. */
    public static final int MAX_MQTT_STRING_BYTES = 65_535;
    private static final int SHOWN_CHARACTERS = 40;

    /**
     * MQTT's UTF-8 string (§1.5.4): at most 65535 bytes, no U+0000, no lone surrogate (it has no UTF-8 encoding).
     * {@code shownValue} is what an error names (see {@link #shown}, or a hidden form of a secret).
     */
    public static String mqttString(String field, String text, String shownValue) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                throw new InvalidSettingException(field, shownValue, "MQTT strings must not contain U+0000");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidSettingException(field, shownValue, "contains an unpaired UTF-16 surrogate at"
                        + " index " + i + ", which UTF-8 cannot encode");
            }
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_MQTT_STRING_BYTES) {
            throw new InvalidSettingException(field, shownValue, "is " + bytes + " bytes in UTF-8; an MQTT string"
                    + " has at most " + MAX_MQTT_STRING_BYTES);
        }
        return text;
    }

    /** A long value cut for an error message, with its length. */
    public static String shown(String value) {
        return value.length() <= SHOWN_CHARACTERS ? value
                : value.substring(0, SHOWN_CHARACTERS) + "... (" + value.length() + " characters)";
    }

    public static long atLeast(String field, long value, long min) {
        if (value < min) {
            throw new InvalidSettingException(field, value, "must be at least " + min);
        }
        return value;
    }

    public static long between(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidSettingException(field, value, "must be between " + min + " and " + max);
        }
        return value;
    }

    public static String notBlank(String field, String value) {
        if (value == null || value.trim().isEmpty()) {
            throw new InvalidSettingException(field, value == null ? "" : value, "must not be empty");
        }
        return value.trim();
    }

    /** A topic a message is published to: no wildcards, not empty (MQTT 3.1.1 §4.7, 5.0 §4.7). */
    public static String publishTopic(String field, String topic) {
        if (topic == null || topic.isEmpty()) {
            throw new InvalidSettingException(field, "", "a topic name must not be empty");
        }
        // '+' inside a placeholder is arithmetic ({msg+40}), not a wildcard; the expanded topic is checked per message.
        String outsidePlaceholders = topic.replaceAll("\\{[^{}]*}", "");
        if (outsidePlaceholders.indexOf('+') >= 0 || outsidePlaceholders.indexOf('#') >= 0) {
            throw new InvalidSettingException(field, topic,
                    "wildcards (+ and #) are allowed only in subscriptions, not in a publish topic");
        }
        if (topic.indexOf('\u0000') >= 0) {
            throw new InvalidSettingException(field, topic, "a topic must not contain the NUL character");
        }
        return topic;
    }

    /** A subscription filter: '#' only as the last level, '+' only as a whole level. */
    public static String topicFilter(String field, String filter) {
        if (filter == null || filter.isEmpty()) {
            throw new InvalidSettingException(field, "", "a topic filter must not be empty");
        }
        String plain = SharedSubscription.isShared(filter) ? SharedSubscription.parse(field, filter).filter() : filter;
        String[] levels = plain.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String level = levels[i];
            if (level.contains("#") && (!level.equals("#") || i != levels.length - 1)) {
                throw new InvalidSettingException(field, filter, "'#' must be a whole level and the last one");
            }
            if (level.contains("+") && !level.equals("+")) {
                throw new InvalidSettingException(field, filter, "'+' must be a whole level");
            }
        }
        return filter;
    }
}
