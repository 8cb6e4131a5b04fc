package io.mqttload.engine;

import io.mqttload.common.InvalidSettingException;

/**
 * Which of a thread's clients an operation applies to: empty or "all" for every client, "N-M" for
 * the indexes N to M inclusive, or a comma-separated list of indexes and ranges ("0,5,10-19").
 */
public final class ClientSelection {
    private final String text;
    private final long[][] ranges;

    private ClientSelection(String text, long[][] ranges) {
        this.text = text;
        this.ranges = ranges;
    }

    public static ClientSelection parse(String field, String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty() || t.equalsIgnoreCase("all")) {
            return new ClientSelection("all", null);
        }
        String[] parts = t.split("\\s*,\\s*");
        long[][] ranges = new long[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (!p.matches("\\d+(-\\d+)?")) {
                throw new InvalidSettingException(field, text, "use 'all', an index such as 3, or a range such as 0-99");
            }
            String[] ends = p.split("-");
            long from = Long.parseLong(ends[0]);
            long to = ends.length == 2 ? Long.parseLong(ends[1]) : from;
            if (to < from) {
                throw new InvalidSettingException(field, text, "range " + p + " ends before it starts");
            }
            ranges[i] = new long[] {from, to};
        }
        return new ClientSelection(t, ranges);
    }

    public boolean includes(int index) {
        if (ranges == null) {
            return true;
        }
        for (long[] r : ranges) {
            if (index >= r[0] && index <= r[1]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
