package io.mqttload.traffic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.mqttload.client.Errors;
import io.mqttload.client.LoadConnection;
import io.mqttload.client.SubscribeRefusedException;
import io.mqttload.client.SubscribeOptions;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.SamplerMetrics;

/**
 * A subscribing client across its lost connections. The transport does not subscribe again by itself: when the broker
 * it comes back to kept no session for it, this subscribes again, each filter at the QoS and with the options it was
 * first granted with, and times it as a first subscription is timed, so that its client scopes record the lapse of
 * their subscriptions (see {@code DeliveryCheck.Lapse}): what was published in between is then decided per message,
 * not owed by default. A shared group's scope records none: the group's subscription lives on in its other members,
 * and which member a message went to is not known.
 */
final class Resubscriber {
    /** A granted subscription as first asked for. */
    private static final class Granted {
        final int qos;
        final SubscribeOptions options;
        final SamplerMetrics sampler;

        Granted(int qos, SubscribeOptions options, SamplerMetrics sampler) {
            this.qos = qos;
            this.options = options;
            this.sampler = sampler;
        }
    }

    private final LoadConnection connection;
    private final EngineMetrics metrics;
    private final DeliveryLedger ledger;
    private final Supplier<List<ReceiverScope>> scopes;
    /** By filter as the plan gave it, the first grant; guarded by this. */
    private final Map<String, Granted> granted = new LinkedHashMap<>();

    Resubscriber(LoadConnection connection, EngineMetrics metrics, DeliveryLedger ledger,
            Supplier<List<ReceiverScope>> scopes) {
        this.connection = connection;
        this.metrics = metrics;
        this.ledger = ledger;
        this.scopes = scopes;
    }

    /** The broker granted {@code filters}; a filter granted before keeps its first QoS and options. */
    synchronized void granted(List<String> filters, int qos, SubscribeOptions options, SamplerMetrics sampler) {
        Granted grant = new Granted(qos, options, sampler);
        for (String f : filters) {
            granted.putIfAbsent(f, grant);
        }
    }

    /** The connection was lost: each client scope keeps what it had received, where a lapse would begin. */
    void lost() {
        for (ReceiverScope scope : scopes.get()) {
            if (!scope.isShared()) {
                scope.connectionLost();
            }
        }
    }

    /**
     * The connection is back. With the session kept nothing lapsed; without it (counted), the client subscribes again
     * and its client scopes record the lapse once every filter was granted again.
     */
    void reopened(boolean sessionPresent) {
        List<ReceiverScope> own = new ArrayList<>();
        boolean shared = false;
        for (ReceiverScope scope : scopes.get()) {
            if (scope.isShared()) {
                shared = true;
            } else {
                own.add(scope);
            }
        }
        Map<String, Granted> filters;
        synchronized (this) {
            filters = new LinkedHashMap<>(granted);
        }
        if (sessionPresent) {
            // QoS 0 is not promised to an offline session: only a QoS 1 or 2 subscriber's loss is the broker's word broken.
            boolean promised = filters.values().stream().anyMatch(g -> g.qos > 0);
            own.forEach(scope -> scope.sessionKept(promised));
            return;
        }
        metrics.count(Count.SUBSCRIBER_SESSIONS_LOST);
        // Read before the SUBSCRIBE leaves: what this engine's streams had sent by then was surely sent before it.
        Map<ReceiverScope, Map<Integer, Long>> sentBefore = new LinkedHashMap<>();
        own.forEach(scope -> sentBefore.put(scope, ledger.lastSent(scope.streamIds())));
        long asked = MicroClock.nowMicros();
        List<CompletableFuture<Void>> subscribed = new ArrayList<>();
        for (Map.Entry<Granted, List<String>> e : byGrant(filters).entrySet()) {
            Granted g = e.getKey();
            subscribed.add(connection.subscribe(e.getValue(), g.qos, g.options).whenComplete((ok, error) -> {
                if (error != null && cutShort(error)) {
                    metrics.count(Count.RESUBSCRIBES_CUT_SHORT);
                } else if (error != null) {
                    metrics.failed(FailureTally.Kind.SUBSCRIBE, g.sampler, "subscribing again after a reconnect"
                            + " without session: " + Errors.reason(error));
                }
            }));
        }
        boolean recordsAll = !shared;
        CompletableFuture.allOf(subscribed.toArray(new CompletableFuture<?>[0])).whenComplete((ok, error) -> {
            long grantedAt = MicroClock.nowMicros();
            for (ReceiverScope scope : own) {
                if (error != null && cutShort(error)) {
                    // The lapse goes on from the first loss: the next return subscribes again and records it whole.
                    continue;
                }
                if (error == null) {
                    Map<Integer, Long> sentAfter = new LinkedHashMap<>();
                    ledger.lastSent(sentBefore.get(scope).keySet()).forEach((id, last) -> sentAfter.put(id, last + 2));
                    scope.lapsed(asked, grantedAt, sentBefore.get(scope), sentAfter);
                } else {
                    scope.lapseUnrecorded();
                }
            }
            if (error == null && recordsAll) {
                metrics.count(Count.SUBSCRIBER_LAPSES_RECORDED);
            }
        });
    }

    /**
     * Whether a SUBSCRIBE failed because its connection was lost before the SUBACK (taken over, dropped), not because
     * the broker refused it: the client subscribes again when it is back, so this is no failure of its own.
     */
    private boolean cutShort(Throwable error) {
        return !(Errors.unwrap(error) instanceof SubscribeRefusedException) && !connection.isConnected();
    }

    /** The filters asked for with the same QoS, options and sampler: one SUBSCRIBE each, as they were first asked for. */
    private static Map<Granted, List<String>> byGrant(Map<String, Granted> filters) {
        Map<Granted, List<String>> out = new LinkedHashMap<>();
        filters.forEach((filter, g) -> out.computeIfAbsent(g, k -> new ArrayList<>()).add(filter));
        return out;
    }
}
