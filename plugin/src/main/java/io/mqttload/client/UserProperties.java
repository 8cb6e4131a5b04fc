package io.mqttload.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperties;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserPropertiesBuilder;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;

/**
 * MQTT 5 user properties as a plan writes them: one {@code name=value} pair per line (the first {@code =} splits;
 * a value may be empty, a name may not). Names may repeat, as MQTT 5 allows.
 */
public final class UserProperties {
    public static final UserProperties NONE = new UserProperties(List.of());

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
            Checks.mqttString(field, name, Checks.shown(name + "=" + value));
            Checks.mqttString(field, value, Checks.shown(name + "=" + value));
            pairs.add(new String[] {name, value});
        }
        return new UserProperties(Collections.unmodifiableList(pairs));
    }

    public boolean isEmpty() {
        return pairs.isEmpty();
    }

    /** A builder holding these properties, in plan order, for a CONNECT or a PUBLISH (which may add its own). */
    Mqtt5UserPropertiesBuilder mqtt5() {
        Mqtt5UserPropertiesBuilder builder = Mqtt5UserProperties.builder();
        for (String[] pair : pairs) {
            builder.add(pair[0], pair[1]);
        }
        return builder;
    }

    /** The (name, value) pairs in plan order. */
    public List<String[]> pairs() {
        return pairs;
    }
}
