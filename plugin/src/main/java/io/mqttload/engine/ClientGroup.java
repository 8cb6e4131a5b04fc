package io.mqttload.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.mqttload.client.Errors;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.traffic.LoadClient;

/**
 * The clients one JMeter thread owns under one group name. Only the owning thread adds clients or
 * publishes; Netty threads complete publishes and release in-flight permits.
 */
public final class ClientGroup {
    private final String name;
    private final List<LoadClient> clients = new ArrayList<>();
    private int cursor;
    private Semaphore inFlight;
    private int inFlightLimit;
    private final AtomicLong asyncFailures = new AtomicLong();
    private final AtomicReference<String> lastAsyncFailure = new AtomicReference<>();

    ClientGroup(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public synchronized void add(LoadClient client) {
        clients.add(client);
    }

    /** Forgets the clients (after a disconnect); a later connect starts again at index 0. */
    public synchronized void clear() {
        clients.clear();
        cursor = 0;
    }

    public synchronized List<LoadClient> clients() {
        return Collections.unmodifiableList(new ArrayList<>(clients));
    }

    /**
     * Refuses an MQTT 5 {@code kind} ("property", "option") set in {@code field} when a client of this group speaks
     * MQTT 3.1.1: its packets cannot carry it.
     */
    public synchronized void requireMqtt5(String kind, String field, Object value) {
        for (LoadClient c : clients) {
            if (!c.isMqtt5()) {
                throw new InvalidSettingException(field, value, "is an MQTT 5 " + kind + ", but this thread's clients"
                        + " connected with MQTT 3.1.1 (mqttVersion of the MQTT Connection)");
            }
        }
    }

    public synchronized int size() {
        return clients.size();
    }

    /** The next client in round-robin order, or null when the group has none. */
    public LoadClient nextClient() {
        if (clients.isEmpty()) {
            return null;
        }
        LoadClient c = clients.get(cursor);
        cursor = (cursor + 1) % clients.size();
        return c;
    }

    /** The in-flight bound for asynchronous publishing; the first limit asked for is kept for the run. */
    public Semaphore inFlight(int limit) {
        if (inFlight == null) {
            inFlight = new Semaphore(limit);
            inFlightLimit = limit;
        }
        return inFlight;
    }

    /** Messages published asynchronously and not yet acknowledged. */
    public int inFlightCount() {
        Semaphore s = inFlight;
        return s == null ? 0 : inFlightLimit - s.availablePermits();
    }

    void recordAsyncFailure(Throwable error) {
        asyncFailures.incrementAndGet();
        lastAsyncFailure.set(Errors.describe(error));
    }

    /** Failures of asynchronous publishes since the last call, with the latest reason; null if none. */
    public String takeAsyncFailures() {
        long n = asyncFailures.getAndSet(0);
        if (n == 0) {
            return null;
        }
        return n + " earlier asynchronous publish(es) failed; last: " + lastAsyncFailure.get();
    }
}
