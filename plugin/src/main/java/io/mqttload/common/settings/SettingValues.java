package io.mqttload.common.settings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An element's settings as values, each put here only by parsing its text with its declaration's check ({@link
 * #read}): what takes one (an operation) trusts its values and checks none again. An element reads its fields in the
 * order it always did, and only those that apply (a payload size only for a random payload), so a bad value is reported
 * as before.
 */
public final class SettingValues {
    private final List<Setting<?>> declared;
    private final Map<Setting<?>, Object> values = new HashMap<>();

    /** @param declared the element's declaration, the only settings this accepts */
    public SettingValues(List<Setting<?>> declared) {
        this.declared = List.copyOf(declared);
    }

    /**
     * The declared settings, each from {@code text} by name or else its default, all read: for callers without an
     * element (the engine's tests, benchmarks), through the same checks.
     */
    public static SettingValues of(List<Setting<?>> declared, Map<String, String> text) {
        SettingValues v = new SettingValues(declared);
        for (Setting<?> s : declared) {
            v.read(s, text.getOrDefault(s.name(), s.defaultText()));
        }
        return v;
    }

    /** Parses and checks {@code text} as {@code setting} (its one check), keeps the value and returns it. */
    public <T> T read(Setting<T> setting, String text) {
        T value = setting.parse(text);
        values.put(declaredOne(setting), value);
        return value;
    }

    /** The value read for {@code setting}; reading it first is the element's job. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        Setting<?> s = declaredOne(setting);
        if (!values.containsKey(s)) {
            throw new IllegalStateException(setting.name() + " was not read");
        }
        return (T) values.get(s);
    }

    private Setting<?> declaredOne(Setting<?> setting) {
        if (!declared.contains(setting)) {
            throw new IllegalArgumentException(setting.name() + " is not one of this element's settings");
        }
        return setting;
    }
}
