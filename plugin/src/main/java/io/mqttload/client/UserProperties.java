package io.mqttload.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.mqttload.common.InvalidSettingException;

/**
 * MQTT 5 user properties as a plan writes them: one {@code name=value} pair per line (the first {@code =} splits;
 * a value may be empty, a name may not). Names may repeat, as MQTT 5 allows.
 */
public final class UserProperties {
    public static final UserProperties NONE = new UserProperties(List.of());
    /** The most a UTF-8 string of an MQTT packet can hold. */
    private static final int MAX_UTF8_BYTES = 65_535;

    private final List<String[]> pairs;

    private UserProperties(List<String[]> pairs) {
        this.pairs = pairs;
    }

    /** Parses {@code text} of the plan's field {@code field}; blank lines are skipped. */
    public static UserProperties parse(String field, String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        List<String[]> pairs = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (line.isBlank()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new InvalidSettingException(field, line, "a user property is name=value, one per line");
            }
            String name = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (name.isEmpty()) {
                throw new InvalidSettingException(field, line, "a user property needs a name before '='");
            }
            checkUtf8(field, name);
            checkUtf8(field, value);
            pairs.add(new String[] {name, value});
        }
        return new UserProperties(Collections.unmodifiableList(pairs));
    }

    private static void checkUtf8(String field, String s) {
        if (s.indexOf('\u0000') >= 0) {
            throw new InvalidSettingException(field, s, "MQTT strings must not contain the character U+0000");
        }
        if (s.getBytes(StandardCharsets.UTF_8).length > MAX_UTF8_BYTES) {
            throw new InvalidSettingException(field, s.substring(0, 40) + "...", "longer than the 65,535 bytes"
                    + " of an MQTT string");
        }
    }

    public boolean isEmpty() {
        return pairs.isEmpty();
    }

    /** The (name, value) pairs in plan order. */
    public List<String[]> pairs() {
        return pairs;
    }
}
