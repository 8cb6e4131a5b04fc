package io.mqttload.common;

/** A {@code $share/<group>/<filter>} subscription (MQTT 5.0 §4.8.2; Mosquitto and HiveMQ accept it on 3.1.1 too). */
public final class SharedSubscription {
    private static final String PREFIX = "$share/";

    private final String group;
    private final String filter;

    private SharedSubscription(String group, String filter) {
        this.group = group;
        this.filter = filter;
    }

    public static boolean isShared(String filter) {
        return filter.startsWith(PREFIX);
    }

    public static SharedSubscription parse(String field, String text) {
        int slash = text.indexOf('/', PREFIX.length());
        if (slash < 0 || slash == PREFIX.length() || slash == text.length() - 1) {
            throw new InvalidSettingException(field, text, "a shared subscription is $share/<group>/<filter>");
        }
        String group = text.substring(PREFIX.length(), slash);
        if (group.contains("+") || group.contains("#")) {
            throw new InvalidSettingException(field, text, "the share group name must not contain wildcards");
        }
        return new SharedSubscription(group, text.substring(slash + 1));
    }

    public String group() {
        return group;
    }

    public String filter() {
        return filter;
    }
}
