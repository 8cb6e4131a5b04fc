package io.mqttload.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mqttload.common.InvalidSettingException;

/**
 * Integer ranges in a topic filter, {@code {first..last}}, expanded the way a shell expands braces:
 * {@code Subsystem{client%10}/Device{0..99}/#} is 100 filters, one per device. A scenario whose
 * subscribers each hold many subscriptions (JoramMQ's 100 {@code Device/#} filters per subscriber) is
 * then one line a user can read and edit in the GUI. Placeholders such as {@code {client}} are left for
 * {@link io.mqttload.common.NameTemplate}.
 */
public final class FilterRanges {
    /** One SUBSCRIBE per client carries every filter; this keeps a typo from building a gigantic packet. */
    public static final int MAX_FILTERS_PER_LINE = 10_000;

    private static final Pattern RANGE = Pattern.compile("\\{(-?\\d+)\\.\\.(-?\\d+)}");

    private FilterRanges() {
    }

    public static List<String> expand(String field, String filter) {
        List<String> out = new ArrayList<>();
        out.add(filter);
        Matcher m = RANGE.matcher(filter);
        while (m.find()) {
            long first;
            long last;
            try {
                first = Long.parseLong(m.group(1));
                last = Long.parseLong(m.group(2));
            } catch (NumberFormatException e) {
                throw new InvalidSettingException(field, filter, "range " + m.group() + " has a number out of range");
            }
            if (first > last) {
                throw new InvalidSettingException(field, filter,
                        "range " + m.group() + " must count up: {first..last} with first <= last");
            }
            long size = last - first + 1;
            if (size * out.size() > MAX_FILTERS_PER_LINE) {
                throw new InvalidSettingException(field, filter,
                        "expands to more than " + MAX_FILTERS_PER_LINE + " filters");
            }
            String range = m.group();
            List<String> next = new ArrayList<>((int) (size * out.size()));
            for (String partial : out) {
                int at = partial.indexOf(range);
                for (long v = first; v <= last; v++) {
                    next.add(partial.substring(0, at) + v + partial.substring(at + range.length()));
                }
            }
            out = next;
        }
        return out;
    }
}
