package io.mqttload.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.mqttload.client.Errors;
import io.mqttload.common.Waits;
import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.traffic.LoadClient;

/** Disconnects every client of a thread's group, bounded by a timeout, and empties the group. */
public final class DisconnectOperation {
    private final long timeoutMillis;
    private final long drainTimeoutMillis;

    /** @param values the sampler's settings, checked as they were read */
    public DisconnectOperation(SettingValues values) {
        this.timeoutMillis = values.get(DisconnectSettings.DISCONNECT_TIMEOUT_MS);
        this.drainTimeoutMillis = values.get(DisconnectSettings.DRAIN_TIMEOUT_MS);
    }

    public OperationResult run(RunContext run, ClientGroup group) {
        run.disconnecting();
        if (group == null || group.size() == 0) {
            return OperationResult.ok("no client to disconnect", 0);
        }
        List<LoadClient> clients = group.clients();
        String unacknowledged = awaitInFlight(group);
        String drained = drain(run, clients);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (LoadClient c : clients) {
            done.add(c.disconnect());
        }
        try {
            CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return OperationResult.failed("DISCONNECT_TIMEOUT", "not every one of " + clients.size()
                    + " clients disconnected within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            return OperationResult.failed("DISCONNECT_FAILED", Errors.describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OperationResult.failed("INTERRUPTED", "interrupted while disconnecting");
        }
        group.clear();
        String asyncFailures = group.takeAsyncFailures();
        if (unacknowledged != null || asyncFailures != null) {
            // Publishes abandoned or failed are counted as failed publishes, each where its acknowledgement ends.
            return OperationResult.failedCounted("PUBLISH_FAILED", "disconnected " + clients.size() + " client(s); "
                    + (unacknowledged != null ? unacknowledged : asyncFailures), 0);
        }
        return OperationResult.ok("disconnected " + clients.size() + " client(s)" + drained, 0);
    }

    /**
     * Lets the group's asynchronous publishes be acknowledged before DISCONNECT would abandon them.
     * Returns null when none is left, else what was abandoned.
     */
    private String awaitInFlight(ClientGroup group) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Waits.until(() -> group.inFlightCount() == 0, deadline, 5);
        int left = group.inFlightCount();
        return left > 0 ? left + " published message(s) were still unacknowledged after " + timeoutMillis + " ms" : null;
    }

    /**
     * Waits until the group's subscribers got every message owed to them so far, so a plan's
     * disconnect does not cut off messages still on their way. Returns a note for the sample.
     */
    private String drain(RunContext run, List<LoadClient> clients) {
        List<ReceiverScope> scopes = new ArrayList<>();
        for (LoadClient c : clients) {
            for (ReceiverScope s : c.scopes()) {
                if (!scopes.contains(s)) {
                    scopes.add(s);
                }
            }
        }
        if (drainTimeoutMillis == 0 || scopes.isEmpty() && repliesOutstanding(clients) == 0) {
            return "";
        }
        // What arrives from here on is the drain's, not the window's: the counts are cut before the wait.
        run.draining();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainTimeoutMillis);
        DeliveryLedger ledger = run.ledger();
        // Replies too: a requester of this group must still be there to get its own, a responder to send its own.
        Waits.until(() -> (scopes.isEmpty() || ledger.delivery(scopes).stillMissing() == 0)
                && repliesOutstanding(clients) == 0, deadline, 20);
        long missing = scopes.isEmpty() ? 0 : ledger.delivery(scopes).stillMissing();
        long replies = repliesOutstanding(clients);
        if (missing == 0 && replies == 0) {
            return "; drained";
        }
        return "; after the " + drainTimeoutMillis + " ms drain " + (missing > 0 ? missing + " expected message(s)" : "")
                + (missing > 0 && replies > 0 ? " and " : "") + (replies > 0 ? replies + " repl(ies)" : "")
                + " had not arrived or gone";
    }

    /** Replies the group's clients are still owed (requesters) or still sending (responders). */
    private static long repliesOutstanding(List<LoadClient> clients) {
        long n = 0;
        for (LoadClient c : clients) {
            n += c.repliesOwed() + c.repliesInFlight();
        }
        return n;
    }
}
