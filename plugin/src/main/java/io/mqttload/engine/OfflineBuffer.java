package io.mqttload.engine;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;

import io.mqttload.traffic.LoadClient;

/**
 * A device's messages published while its client is disconnected, up to a bound per client: held in order with their
 * intended send times and message numbers, and sent before the client's next message once it is connected again. Owned
 * by one JMeter thread's Publish operation (its clients are the thread's own), so not shared.
 */
final class OfflineBuffer {
    /** One held message: when it was meant to go, and its number in its sample (the topic's {msg}). */
    static final class Held {
        final long intendedMicros;
        final int msg;

        Held(long intendedMicros, int msg) {
            this.intendedMicros = intendedMicros;
            this.msg = msg;
        }
    }

    private final int bound;
    /** Each client's queue is used by one thread at a time, the map by the thread's clients' event loops at once. */
    private final Map<LoadClient, ArrayDeque<Held>> held = new IdentityHashMap<>();

    OfflineBuffer(int bound) {
        this.bound = bound;
    }

    int bound() {
        return bound;
    }

    boolean enabled() {
        return bound > 0;
    }

    /** Holds a message of {@code client}; false when its buffer is full (the message is dropped). */
    synchronized boolean hold(LoadClient client, long intendedMicros, int msg) {
        ArrayDeque<Held> q = held.computeIfAbsent(client, c -> new ArrayDeque<>());
        if (q.size() >= bound) {
            return false;
        }
        q.addLast(new Held(intendedMicros, msg));
        return true;
    }

    /** The oldest message {@code client} holds, or null. */
    synchronized Held peek(LoadClient client) {
        ArrayDeque<Held> q = held.get(client);
        return q == null ? null : q.peekFirst();
    }

    /** Removes the oldest message {@code client} holds (after {@link #peek} returned it and it was sent). */
    synchronized void remove(LoadClient client) {
        ArrayDeque<Held> q = held.get(client);
        if (q != null) {
            q.pollFirst();
        }
    }
}
