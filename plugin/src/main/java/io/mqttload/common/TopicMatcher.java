package io.mqttload.common;

/** MQTT topic-filter matching for one filter and one topic (MQTT 3.1.1 §4.7, 5.0 §4.7). */
public final class TopicMatcher {
    private TopicMatcher() {
    }

    public static boolean matches(String filter, String topic) {
        if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
            return false;
        }
        String[] f = filter.split("/", -1);
        String[] t = topic.split("/", -1);
        for (int i = 0; i < f.length; i++) {
            if (f[i].equals("#")) {
                return true;
            }
            if (i >= t.length) {
                return false;
            }
            if (!f[i].equals("+") && !f[i].equals(t[i])) {
                return false;
            }
        }
        return f.length == t.length;
    }
}
