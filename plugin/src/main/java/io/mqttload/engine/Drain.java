package io.mqttload.engine;

import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.common.Waits;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;

/**
 * The run's end before the clients close: acknowledgements still in flight, then the messages still owed to this
 * engine's subscribers, each wait bounded by its own timeout.
 */
final class Drain {
    private static final Logger log = LoggerFactory.getLogger(Drain.class);

    private Drain() {
    }

    static void await(RunClients clients, DeliveryLedger ledger, EngineMetrics metrics, RunConfig config) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.closeTimeoutMillis());
        Waits.until(() -> clients.inFlight() == 0, deadline, 20);
        int stillInFlight = clients.inFlight();
        if (stillInFlight > 0) {
            log.warn("MQTT run end: {} published messages still unacknowledged after {} ms", stillInFlight,
                    config.closeTimeoutMillis());
        }
        long drainDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.drainTimeoutMillis());
        // Requests owe a reply too: it comes back to the requesting engine after the request reached a responder.
        Waits.until(() -> ledger.delivery().stillMissing() == 0 && metrics.sum(Count.REPLIES_PENDING) == 0
                && clients.repliesOwed() == 0, drainDeadline, 20);
        // Messages from other engines, and shared groups this ledger cannot judge, are not counted down: wait for quiet.
        if (ledger.receivesFromOtherEngines() || ledger.delivery().sharedScopesAcrossEngines > 0) {
            awaitQuiet(metrics, config.drainQuietMillis(), drainDeadline);
        }
    }

    /**
     * Waits (until the drain deadline) for {@code quietMillis} without a message: what publishers on other engines
     * still owe this engine's subscribers is not in its ledger, only in the merged report.
     */
    private static void awaitQuiet(EngineMetrics metrics, long quietMillis, long deadlineNanos) {
        long quietNanos = TimeUnit.MILLISECONDS.toNanos(quietMillis);
        long[] last = {metrics.sum(Count.RECEIVED), System.nanoTime()};
        boolean quiet = Waits.until(() -> {
            long now = metrics.sum(Count.RECEIVED);
            if (now != last[0]) {
                last[0] = now;
                last[1] = System.nanoTime();
            }
            return System.nanoTime() - last[1] >= quietNanos;
        }, deadlineNanos, 20);
        if (!quiet) {
            log.warn("MQTT run end: messages from other engines were still arriving when the drain timeout ended");
        }
    }
}
