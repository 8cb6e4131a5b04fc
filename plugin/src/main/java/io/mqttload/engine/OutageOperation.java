package io.mqttload.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.mqttload.common.Waits;
import io.mqttload.common.settings.OutageSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.measure.Count;
import io.mqttload.measure.RecoveryTracker;
import io.mqttload.traffic.LoadClient;

/**
 * Declares an outage the plan expects, so that the run is judged on recovery rather than failed by the connections it
 * takes: DROP closes a share of the thread's connected clients abruptly (no DISCONNECT), and they come back through
 * their own reconnect policy once its offline time has passed; BROKER_RESTART declares that the broker will be
 * restarted from outside, and the connections lost from then on (within its window, when it has one) are the outage's
 * (see {@link RecoveryTracker}). Publishes that fail while a declared outage holds their client offline are the
 * outage's too ({@code publishFailedInOutage}).
 */
public final class OutageOperation {
    private final boolean brokerRestart;
    private final int clientPercent;
    private final long offlineMillis;
    private final long boundMillis;
    private final long awaitMillis;
    private final long restartWindowMillis;

    /** @param values the sampler's settings, checked as they were read */
    public OutageOperation(SettingValues values) {
        this.brokerRestart = "BROKER_RESTART".equals(values.get(OutageSettings.OUTAGE));
        this.clientPercent = values.get(OutageSettings.CLIENT_PERCENT);
        this.offlineMillis = values.get(OutageSettings.OFFLINE_MS);
        this.boundMillis = values.get(OutageSettings.RECOVERY_BOUND_MS);
        this.awaitMillis = values.get(OutageSettings.AWAIT_RECOVERY_MS);
        this.restartWindowMillis = values.get(OutageSettings.RESTART_WINDOW_MS);
    }

    /** @param group the thread's client group; not read for a broker restart, which concerns every client */
    public OperationResult run(RunContext run, ClientGroup group) {
        RecoveryTracker recovery = run.metrics().recovery;
        if (brokerRestart) {
            recovery.brokerRestartExpected(System.currentTimeMillis(), boundMillis, restartWindowMillis);
            run.metrics().count(Count.OUTAGES_DECLARED);
            return OperationResult.ok("broker restart expected " + (restartWindowMillis == 0 ? "from now on"
                    : "within " + restartWindowMillis + " ms") + "; recovery bound " + boundMillis + " ms", 0);
        }
        List<LoadClient> chosen = new ArrayList<>();
        if (group != null) {
            List<LoadClient> connected = new ArrayList<>();
            for (LoadClient c : group.clients()) {
                if (c.isConnected()) {
                    connected.add(c);
                }
            }
            int n = (int) ((connected.size() * (long) clientPercent + 99) / 100);
            chosen.addAll(connected.subList(0, n));
        }
        if (chosen.isEmpty()) {
            return OperationResult.failed("NOT_CONNECTED", "no connected MQTT client in this thread's client group"
                    + (group == null ? "" : " '" + group.name() + "'") + " to take offline");
        }
        List<String> ids = new ArrayList<>();
        for (LoadClient c : chosen) {
            ids.add(c.clientId());
        }
        // Declared before the drop: the loss each drop causes is the outage's start for that client.
        recovery.planned(ids, boundMillis);
        run.metrics().count(Count.OUTAGES_DECLARED);
        for (LoadClient c : chosen) {
            c.drop(offlineMillis);
        }
        String dropped = String.format(Locale.ROOT, "dropped %d of the group's %d client(s)", chosen.size(),
                group.size());
        if (awaitMillis == 0) {
            return OperationResult.ok(dropped, 0);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(awaitMillis);
        // Read from the tracker, not the clients' state: a drop closes the connection asynchronously.
        Waits.until(() -> recovery.backOf(ids) == ids.size(), deadline, 10);
        return OperationResult.ok(dropped + "; " + recovery.backOf(ids) + " connected again within " + awaitMillis
                + " ms", 0);
    }
}
