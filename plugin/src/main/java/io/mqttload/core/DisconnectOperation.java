package io.mqttload.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Disconnects every client of a thread's group, bounded by a timeout, and empties the group. */
public final class DisconnectOperation {
    private final long timeoutMillis;

    public DisconnectOperation(long timeoutMillis) {
        this.timeoutMillis = Checks.between("disconnectTimeoutMs", timeoutMillis, 1, 3_600_000);
    }

    public OperationResult run(ClientGroup group) {
        if (group == null || group.size() == 0) {
            return OperationResult.ok("no client to disconnect", 0);
        }
        List<LoadClient> clients = group.clients();
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
        return OperationResult.ok("disconnected " + clients.size() + " client(s)", 0);
    }
}
