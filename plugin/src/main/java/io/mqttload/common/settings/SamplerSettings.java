package io.mqttload.common.settings;

/** The field every sampler has. */
public final class SamplerSettings {
    private SamplerSettings() {
    }

    /** The name of the thread's clients a sampler works on; checked by the sampler, which knows the thread's groups. */
    public static final Setting<String> CLIENT_GROUP = Setting.text("clientGroup", "default");
}
