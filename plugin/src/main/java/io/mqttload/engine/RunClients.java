package io.mqttload.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.Errors;
import io.mqttload.traffic.LoadClient;

/**
 * The clients of one run: each thread's named client groups, and every client ever made, also those a plan
 * disconnected, so that none escapes closing and counting at the end.
 */
final class RunClients {
    private static final Logger log = LoggerFactory.getLogger(RunClients.class);

    private final ConcurrentHashMap<GroupKey, ClientGroup> groups = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<LoadClient> all = new ConcurrentLinkedQueue<>();

    /** The group named {@code name} of the thread identified by {@code threadKey}, created on first use. */
    ClientGroup group(Object threadKey, String name) {
        return groups.computeIfAbsent(new GroupKey(threadKey, name), k -> new ClientGroup(name));
    }

    /** The group if it exists, else null (a publish before any connect). */
    ClientGroup existingGroup(Object threadKey, String name) {
        return groups.get(new GroupKey(threadKey, name));
    }

    void register(LoadClient client) {
        all.add(client);
    }

    /**
     * The names of the groups of the thread identified by {@code threadKey} that hold a client, sorted: what a sampler
     * whose own group has none names, so that a misspelt client group reads as one.
     */
    List<String> groupsWithClients(Object threadKey) {
        List<String> names = new ArrayList<>();
        groups.forEach((k, g) -> {
            if (k.thread == threadKey && g.size() > 0) {
                names.add(k.name);
            }
        });
        Collections.sort(names);
        return names;
    }

    /** Publishes not yet acknowledged, over every group. */
    int inFlight() {
        int n = 0;
        for (ClientGroup g : groups.values()) {
            n += g.inFlightCount();
        }
        return n;
    }

    /** Requests of this engine's clients that the broker took and that have no reply yet. */
    long repliesOwed() {
        long n = 0;
        for (ClientGroup g : groups.values()) {
            for (LoadClient c : g.clients()) {
                n += c.repliesOwed();
            }
        }
        return n;
    }

    /** Subscribing clients, and the fewest and most messages one of them received (fairness of shared groups). */
    long[] receivedPerSubscriber() {
        long count = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (LoadClient c : all) {
            if (c.hasSubscriptions()) {
                count++;
                min = Math.min(min, c.receivedCount());
                max = Math.max(max, c.receivedCount());
            }
        }
        return new long[] {count, count == 0 ? 0 : min, max};
    }

    /**
     * Disconnects every client still connected, reconnecting or retrying its first connect, waiting at most
     * {@code timeoutMillis} for all.
     */
    void closeAll(long timeoutMillis) {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        int count = 0;
        for (LoadClient c : all) {
            if (c.isConnected() || c.isReconnecting() || c.isFirstConnectPending()) {
                closing.add(c.disconnect());
                count++;
            }
        }
        try {
            CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0])).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("MQTT run end: not every one of {} clients closed within {} ms", count, timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.warn("MQTT run end: closing a client failed: {}", Errors.describe(e));
        }
        if (count > 0) {
            log.info("MQTT run end: closed {} clients", count);
        }
    }

    void clear() {
        groups.clear();
        all.clear();
    }

    /** A thread's group: threads are told apart by identity, never by a name a plan may repeat. */
    private static final class GroupKey {
        final Object thread;
        final String name;

        GroupKey(Object thread, String name) {
            this.thread = thread;
            this.name = name;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof GroupKey)) {
                return false;
            }
            GroupKey k = (GroupKey) o;
            return thread == k.thread && name.equals(k.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(System.identityHashCode(thread), name);
        }
    }
}
