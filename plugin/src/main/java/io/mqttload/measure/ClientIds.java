package io.mqttload.measure;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The engine's clients by client id, for session takeovers: which clients use an id (two groups may share ids and
 * ping-pong on each) and how many times each id's session was taken over.
 */
public final class ClientIds {
    /**
     * Per client id, whether each client of this engine with that id holds a connection or is getting one: a
     * connection closed without a reason while another holds or takes the id was taken over (see {@link #anotherHolds}).
     */
    private final ConcurrentHashMap<String, BooleanSupplier[]> holders = new ConcurrentHashMap<>();
    /** Takeovers per client id on this engine. */
    private final ConcurrentHashMap<String, AtomicInteger> takeovers = new ConcurrentHashMap<>();

    /** A client of this engine uses {@code clientId}; {@code holdsOrTakes} says whether it is connected or connecting. */
    public void uses(String clientId, BooleanSupplier holdsOrTakes) {
        holders.merge(clientId, new BooleanSupplier[] {holdsOrTakes}, (a, b) -> {
            BooleanSupplier[] all = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, all, a.length, b.length);
            return all;
        });
    }

    /** Whether a client of this engine other than {@code self} with {@code clientId} is connected or connecting now. */
    public boolean anotherHolds(String clientId, BooleanSupplier self) {
        BooleanSupplier[] all = holders.get(clientId);
        if (all == null) {
            return false;
        }
        for (BooleanSupplier h : all) {
            if (h != self && h.getAsBoolean()) {
                return true;
            }
        }
        return false;
    }

    /** Counts a takeover of {@code clientId}'s session; returns how many that id has had on this engine. */
    int takenOver(String clientId) {
        return takeovers.computeIfAbsent(clientId, id -> new AtomicInteger()).incrementAndGet();
    }
}
