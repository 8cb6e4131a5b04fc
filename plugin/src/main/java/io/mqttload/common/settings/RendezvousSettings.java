package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Rendezvous Timer's settings; names follow JMeter's Synchronizing Timer where they mean the same. */
public final class RendezvousSettings {
    private RendezvousSettings() {
    }

    /** Empty: the timer's own name. */
    public static final Setting<String> BARRIER_NAME = Setting.text("barrierName", "");
    /** Threads to wait for across the run; 0: this thread group's threads on every engine. */
    public static final Setting<Integer> GROUP_SIZE = Setting.integer("groupSize", 0, 0, 100_000_000);
    public static final Setting<Long> TIMEOUT_IN_MS = Setting.whole("timeoutInMs", 60_000, 1, 86_400_000L);
    /** The upper-case name of the timer's {@code Action}. */
    public static final Setting<String> ON_TIMEOUT = Setting.choice("onTimeout", "STOP_TEST",
            "must be CONTINUE, STOP_TEST or STOP_TEST_NOW", "STOP_TEST", "STOP_TEST_NOW", "CONTINUE");
    /** Empty: the broker of the engine's first MQTT Connect. */
    public static final Setting<String> BROKER_HOST = Setting.text("brokerHost", "");
    public static final Setting<Integer> BROKER_PORT = Setting.integer("brokerPort", 1883, 1, 65535);

    public static final List<Setting<?>> ALL = List.of(BARRIER_NAME, GROUP_SIZE, TIMEOUT_IN_MS, ON_TIMEOUT, BROKER_HOST,
            BROKER_PORT);
}
