package io.mqttload.common.settings;

import java.util.List;

/** The MQTT Outage sampler's settings. */
public final class OutageSettings {
    private OutageSettings() {
    }

    /** DROP: the sampler drops clients itself; BROKER_RESTART: a restart of the broker from outside is expected. */
    public static final Setting<String> OUTAGE = Setting.choice("outage", "DROP", "must be DROP (the sampler drops"
            + " this thread's clients) or BROKER_RESTART (a restart of the broker from outside is expected)", "DROP",
            "BROKER_RESTART");
    /** The share of the thread's connected clients of the group that DROP takes offline, rounded up. */
    public static final Setting<Integer> CLIENT_PERCENT = Setting.integer("clientPercent", 100, 1, 100);
    /** How long DROP keeps its clients away: their reconnect attempts wait at least this long after the drop. */
    public static final Setting<Long> OFFLINE_MS = Setting.whole("offlineMs", 0, 0, 3_600_000);
    /** The longest the plan allows from the outage's start until every client it took offline is connected again. */
    public static final Setting<Long> RECOVERY_BOUND_MS = Setting.whole("recoveryBoundMs", 30_000, 1, 3_600_000);
    /** How long the sample waits for the clients it dropped to be connected again; 0: it returns at once. */
    public static final Setting<Long> AWAIT_RECOVERY_MS = Setting.whole("awaitRecoveryMs", 0, 0, 3_600_000);

    /**
     * How long after a BROKER_RESTART's declaration a lost connection is the outage's; a later loss is a failure, as
     * without a declaration. 0: until the run's end.
     */
    /** Plans saved before this field existed do not carry it: empty reads as its default. */
    public static final Setting<Long> RESTART_WINDOW_MS = Setting.whole("restartWindowMs", 0, 0, 86_400_000)
            .emptyMeansDefault();

    public static final List<Setting<?>> ALL = List.of(SamplerSettings.CLIENT_GROUP, OUTAGE, CLIENT_PERCENT, OFFLINE_MS,
            RECOVERY_BOUND_MS, AWAIT_RECOVERY_MS, RESTART_WINDOW_MS);
}
