package io.mqttload.traffic;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.MicroClock;

/**
 * One load client's session takeovers: another connection with its client id made the broker close its own. Told by
 * an MQTT 5 DISCONNECT 0x8E, or inferred from a connection closed without a reason while another client of this engine
 * with the same id was connected or connecting (MQTT 3.1.1 has no reason to tell; Mosquitto 2.0.11 sends none at
 * MQTT 5 either). Counted per client and, through the engine's metrics, per id.
 */
final class Takeovers {
    private final String clientId;
    private final EngineMetrics metrics;
    private final BooleanSupplier connected;
    /** How many times another connection with this client's id took its session over. */
    private final AtomicInteger count = new AtomicInteger();
    /** Since when (MicroClock µs) a connect attempt of this client is under way or due; 0 when none is. */
    private volatile long connectingSinceMicros;
    /** This client as a holder of its id, as the engine's other clients of the id ask. */
    private final BooleanSupplier holder = this::holdsOrTakesId;

    Takeovers(String clientId, EngineMetrics metrics, BooleanSupplier connected) {
        this.clientId = clientId;
        this.metrics = metrics;
        this.connected = connected;
    }

    /** The client is about to connect for the first time: the engine learns that it uses its id. */
    void register() {
        metrics.clientIds.uses(clientId, holder);
    }

    /** A connect attempt starts (or is due) at {@code micros}. */
    void connecting(long micros) {
        connectingSinceMicros = micros;
    }

    /** The attempt ended: connected, failed, or given up. */
    void settled() {
        connectingSinceMicros = 0;
    }

    /** Whether a connection of this client closed without a reason was taken over by another client of the engine. */
    boolean closedByAnother() {
        return metrics.clientIds.anotherHolds(clientId, holder);
    }

    /** Counts a takeover, {@code inferred} when the broker gave no reason. */
    void takenOver(boolean inferred) {
        if (inferred) {
            metrics.count(Count.TAKEOVERS_INFERRED);
        }
        metrics.sessionTakenOver(clientId, count.incrementAndGet());
    }

    private boolean holdsOrTakesId() {
        long since = connectingSinceMicros;
        return connected.getAsBoolean() || since != 0 && since <= MicroClock.nowMicros();
    }
}
