package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Disconnect sampler's settings. */
public final class DisconnectSettings {
    private DisconnectSettings() {
    }

    /** How long subscribers may wait for messages still owed to them; 0 for not at all. */
    public static final Setting<Long> DRAIN_TIMEOUT_MS = Setting.whole("drainTimeoutMs", 10_000, 0, 3_600_000);
    public static final Setting<Long> DISCONNECT_TIMEOUT_MS = Setting.whole("disconnectTimeoutMs", 10_000, 1, 3_600_000);

    public static final List<Setting<?>> ALL = List.of(SamplerSettings.CLIENT_GROUP, DRAIN_TIMEOUT_MS,
            DISCONNECT_TIMEOUT_MS);
}
