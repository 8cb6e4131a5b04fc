package io.mqttload.common.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.mqttload.common.InvalidSettingException;

/**
 * One field of an element, declared once: its name (the property saved plans carry), its default as the GUI shows
 * it, the editor JMeter offers, and its parse, which is the field's one check: a bad value throws an {@link
 * InvalidSettingException} naming the field and the value. A field whose text is checked by what uses it (a topic
 * template, a client selection) is declared with {@link #text} and parses to its text unchanged.
 *
 * @param <T> the value the field parses to
 */
public final class Setting<T> {
    /** The editor JMeter's GUI shows for the field; every one accepts ${__P(...)} expressions. */
    public enum Editor {
        TEXT, MULTI_LINE, FILE, SECRET, CHOICE
    }

    private final String name;
    private final String defaultText;
    private final Editor editor;
    private final List<String> choices;
    private final Function<String, T> parse;
    /** Values the check refuses, for the tests that hold every declaration to its one error; none when unchecked. */
    private final List<String> refused;

    private Setting(String name, String defaultText, Editor editor, List<String> choices, Function<String, T> parse,
            List<String> refused) {
        this.name = name;
        this.defaultText = defaultText;
        this.editor = editor;
        this.choices = List.copyOf(choices);
        this.parse = parse;
        this.refused = List.copyOf(refused);
    }

    /** Any text, kept as typed; checked, if at all, by what uses it. */
    public static Setting<String> text(String name, String defaultText) {
        return new Setting<>(name, defaultText, Editor.TEXT, List.of(), t -> t, List.of());
    }

    public static Setting<String> multiLine(String name, String defaultText) {
        return new Setting<>(name, defaultText, Editor.MULTI_LINE, List.of(), t -> t, List.of());
    }

    /** A path, empty by default. */
    public static Setting<String> file(String name) {
        return new Setting<>(name, "", Editor.FILE, List.of(), t -> t, List.of());
    }

    /** A password or token: hidden in the GUI, empty by default. */
    public static Setting<String> secret(String name) {
        return new Setting<>(name, "", Editor.SECRET, List.of(), t -> t, List.of());
    }

    /** A whole number between {@code min} and {@code max}. */
    public static Setting<Long> whole(String name, long defaultValue, long min, long max) {
        return new Setting<>(name, Long.toString(defaultValue), Editor.TEXT, List.of(),
                t -> SettingText.parseLong(name, t, min, max), outside(min, max));
    }

    /** A whole number between {@code min} and {@code max} that fits an int. */
    public static Setting<Integer> integer(String name, int defaultValue, int min, int max) {
        return new Setting<>(name, Integer.toString(defaultValue), Editor.TEXT, List.of(),
                t -> SettingText.parseInt(name, t, min, max), outside(min, max));
    }

    /** A whole number between {@code min} and {@code max}, or empty (the default) for {@code absent}. */
    public static Setting<Long> optionalWhole(String name, long absent, long min, long max) {
        return new Setting<>(name, "", Editor.TEXT, List.of(),
                t -> t == null || t.isBlank() ? absent : SettingText.parseLong(name, t, min, max), outside(min, max));
    }

    /** A number of at least {@code min}; empty is 0. */
    public static Setting<Double> decimal(String name, String defaultText, double min) {
        List<String> refused = new ArrayList<>(List.of("abc", "Infinity"));
        refused.add(Double.toString(min - 1));
        return new Setting<>(name, defaultText, Editor.TEXT, List.of(),
                t -> SettingText.parseDouble(name, t, min), refused);
    }

    /**
     * A number of at least {@code min} (below it: "must be at least"), at most {@code max} (above it: "must be between
     * min and max"); empty is 0.
     */
    public static Setting<Double> decimal(String name, String defaultText, long min, long max) {
        Setting<Double> atLeast = decimal(name, defaultText, min);
        List<String> refused = new ArrayList<>(atLeast.refused);
        refused.add(Long.toString(max + 1));
        return new Setting<>(name, defaultText, Editor.TEXT, List.of(), t -> {
            double value = atLeast.parse(t);
            if (value > max) {
                throw new InvalidSettingException(name, t.trim(), "must be between " + min + " and " + max);
            }
            return value;
        }, refused);
    }

    /** True or false, strictly: JMeter's own conversion would read a typo as false. */
    public static Setting<Boolean> flag(String name, boolean defaultValue) {
        return new Setting<>(name, Boolean.toString(defaultValue), Editor.CHOICE, List.of("true", "false"),
                t -> SettingText.parseBoolean(name, t), List.of("ture", "1"));
    }

    /** 0, 1 or 2, or the names JMeter users type ("AT_LEAST_ONCE"...). */
    public static Setting<Integer> qos(String name, int defaultValue) {
        return new Setting<>(name, Integer.toString(defaultValue), Editor.CHOICE, List.of("0", "1", "2"),
                t -> SettingText.parseQos(name, t), List.of("3", "-1", "ONCE"));
    }

    /**
     * One of {@code values} (case and surrounding blanks aside), parsed to its upper-case name, which the owner of the
     * matching enum reads with {@code valueOf}; anything else is refused with {@code reason}.
     */
    public static Setting<String> choice(String name, String defaultValue, String reason, String... values) {
        return choice(name, defaultValue, reason, UnaryOperator.identity(), values);
    }

    /**
     * A choice that also takes other spellings: {@code spelling} turns the text (trimmed, upper-cased) into one of
     * {@code values} ("SSL" into "TLS"), or leaves it for the check to refuse.
     */
    public static Setting<String> choice(String name, String defaultValue, String reason, UnaryOperator<String> spelling,
            String... values) {
        List<String> allowed = List.of(values);
        return new Setting<>(name, defaultValue, Editor.CHOICE, allowed, t -> {
            String v = spelling.apply(t == null ? "" : t.trim().toUpperCase(Locale.ROOT));
            if (!allowed.contains(v)) {
                throw new InvalidSettingException(name, t, reason);
            }
            return v;
        }, List.of("NOT_ONE_OF_THEM", ""));
    }

    /**
     * The same setting, where empty means the default: plans saved before the field existed leave it empty (JMeter
     * sets a field a plan does not carry to "").
     */
    public Setting<T> emptyMeansDefault() {
        List<String> stillRefused = new ArrayList<>(refused);
        stillRefused.remove("");
        return new Setting<>(name, defaultText, editor, choices,
                t -> parse.apply(t == null || t.isBlank() ? defaultText : t), stillRefused);
    }

    private static List<String> outside(long min, long max) {
        List<String> refused = new ArrayList<>(List.of("abc", "1.5"));
        if (min > Long.MIN_VALUE) {
            refused.add(Long.toString(min - 1));
        }
        if (max < Long.MAX_VALUE) {
            refused.add(Long.toString(max + 1));
        }
        return refused;
    }

    /** The property name in saved plans and the resource keys' prefix. */
    public String name() {
        return name;
    }

    public String defaultText() {
        return defaultText;
    }

    public Editor editor() {
        return editor;
    }

    /** The values a choice offers, in the GUI's order; empty for other editors. */
    public List<String> choices() {
        return choices;
    }

    /** The field's one check: its value, or an {@link InvalidSettingException} naming the field and the text. */
    public T parse(String text) {
        return parse.apply(text);
    }

    public T defaultValue() {
        return parse(defaultText);
    }

    /** Texts this setting's check refuses; empty when it takes any text. */
    public List<String> refusedExamples() {
        return refused;
    }

    @Override
    public String toString() {
        return name;
    }
}
