package io.mqttload.testsupport.memory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/** A client's session on the broker: its subscriptions and, while it is offline, its queued QoS 1 and 2 messages. */
final class Session {
    /** One subscription of a session; a shared one belongs to its group too, unless the broker serves no groups. */
    static final class Subscription {
        final Session session;
        final String filter;
        final int qos;
        final boolean noLocal;
        /** Whether it is a member of its {@code $share/} filter's group (else its filter is matched as it is written). */
        final boolean shared;

        Subscription(Session session, String filter, int qos, boolean noLocal, boolean shared) {
            this.session = session;
            this.filter = filter;
            this.qos = qos;
            this.noLocal = noLocal;
            this.shared = shared;
        }
    }

    /** A message waiting for its offline client, at the QoS it will be delivered with. */
    static final class Queued {
        final MemoryMessage message;
        final int qos;

        Queued(MemoryMessage message, int qos) {
            this.message = message;
            this.qos = qos;
        }
    }

    final String clientId;
    /** Subscriptions by their filter as the client gave it ({@code $share/...} included). */
    final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    final Deque<Queued> queue = new ArrayDeque<>();
    /** The connection of the client while it is online, else null. */
    Link link;
    boolean keptWhenOffline;
    /** When an offline session ends (System.nanoTime), or {@link Long#MAX_VALUE}. */
    long expiresAtNanos = Long.MAX_VALUE;

    Session(String clientId) {
        this.clientId = clientId;
    }

    boolean online() {
        return link != null && link.connected;
    }

    boolean expired(long nowNanos) {
        return link == null && expiresAtNanos != Long.MAX_VALUE && nowNanos - expiresAtNanos >= 0;
    }
}
