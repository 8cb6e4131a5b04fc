package io.mqttload.measure;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's counters and latency distributions. Written from JMeter threads and Netty threads
 * at message rate, so every field is a contention-free adder or recorder.
 */
public final class EngineMetrics {
    public final LatencyRecorder pubToSubLatency = new LatencyRecorder();
    public final LatencyRecorder publishLatency = new LatencyRecorder();
    public final LatencyRecorder connectLatency = new LatencyRecorder();

    public final LongAdder connectsOk = new LongAdder();
    public final LongAdder connectsFailed = new LongAdder();
    public final LongAdder reconnects = new LongAdder();
    public final LongAdder connectionsLost = new LongAdder();
    public final LongAdder disconnects = new LongAdder();

    /** Messages handed to a connected client (QoS 0: written; QoS 1/2: sent, ack pending). */
    public final LongAdder published = new LongAdder();
    /** Publishes that never left the client (no connection, rejected by the client): failed, not published. */
    public final LongAdder publishNotSent = new LongAdder();
    /** QoS 0 messages written, or QoS 1/2 messages acknowledged by the broker (PUBACK / PUBCOMP). */
    public final LongAdder acknowledged = new LongAdder();
    public final LongAdder publishFailed = new LongAdder();
    public final LongAdder publishedBytes = new LongAdder();

    public final LongAdder subscribeOk = new LongAdder();
    public final LongAdder subscribeFailed = new LongAdder();

    public final LongAdder received = new LongAdder();
    public final LongAdder receivedBytes = new LongAdder();
    /** Received payloads without a readable measurement header (foreign publisher, or measurement off). */
    public final LongAdder receivedUnmeasured = new LongAdder();
    public final LongAdder duplicates = new LongAdder();
    public final LongAdder reordered = new LongAdder();
    /** Messages counted as missing when a later sequence number arrived first (gaps). */
    public final LongAdder gaps = new LongAdder();
    /** Gap messages that arrived late after all (reordering, not loss). */
    public final LongAdder gapsFilled = new LongAdder();

    /** Why the most recent established connection was lost, for the summary. */
    public final AtomicReference<String> lastConnectionLoss = new AtomicReference<>();

    /** Rendezvous barriers that timed out on this engine (one per barrier passage, not per thread). */
    public final LongAdder rendezvousTimeouts = new LongAdder();
    /** Barriers that timed out or could not work at all (no broker for the rendezvous client). */
    public final LongAdder rendezvousFailures = new LongAdder();
    /** Connections the client closed because the broker broke the protocol (a PUBACK to a QoS 2 PUBLISH, say). */
    public final LongAdder protocolViolations = new LongAdder();
    /** Seconds of the measured window in which the engine's process used at least 90 % of every core. */
    public final LongAdder generatorSaturatedSeconds = new LongAdder();
    /** Seconds of the steady phase in which a paced Publish sampler stayed under 90 % of its schedule. */
    public final LongAdder publishBehindScheduleSeconds = new LongAdder();
    /** The highest publish rate (msg/s) the plan's throughput timers scheduled in a steady second; 0: unpaced. */
    public final AtomicLong scheduledPublishRate = new AtomicLong();
    /** Clients moved to another broker node after losing their connection. */
    public final LongAdder failovers = new LongAdder();
    /** Samples that could not run because a field's value is wrong: the plan, not the broker, failed. */
    public final LongAdder invalidSettings = new LongAdder();
    /** Why things failed: by sampler, kind and reason. */
    public final FailureTally failures = new FailureTally();
    /** Per broker node of the connection's list (one node unless the plan lists a cluster's). */
    public final NodeMetrics.Table nodes = new NodeMetrics.Table();

    /**
     * Counts one failure everywhere it shows: the engine's counter, the sampler's (when there is one) and the
     * reasons. The one call for every failure, so that counts and reasons never disagree.
     */
    public void failed(FailureTally.Kind kind, SamplerMetrics sampler, String reason) {
        failed(kind, sampler, null, reason);
    }

    /** As {@link #failed(FailureTally.Kind, SamplerMetrics, String)}, also on the client's broker node. */
    public void failed(FailureTally.Kind kind, SamplerMetrics sampler, NodeMetrics node, String reason) {
        if (node != null && (kind == FailureTally.Kind.CONNECTION_LOST || kind == FailureTally.Kind.PROTOCOL_VIOLATION)) {
            node.connectionsLost.increment();
            node.firstLossMillis.compareAndSet(-1, System.currentTimeMillis());
        }
        switch (kind) {
            case CONNECT:
                connectsFailed.increment();
                if (sampler != null) {
                    sampler.connectsFailed.increment();
                }
                break;
            case SUBSCRIBE:
                subscribeFailed.increment();
                if (sampler != null) {
                    sampler.subscribeFailed.increment();
                }
                break;
            case PUBLISH:
                publishFailed.increment();
                if (sampler != null) {
                    sampler.publishFailed.increment();
                }
                break;
            case CONNECTION_LOST:
                connectionsLost.increment();
                break;
            case PROTOCOL_VIOLATION:
                protocolViolations.increment();
                break;
            case INVALID_SETTING:
                invalidSettings.increment();
                break;
            default:
                rendezvousFailures.increment();
                break;
        }
        failures.add(sampler == null ? "" : sampler.label, kind, reason, 1);
    }

    // Successes, each counted by one call on the engine and on its sampler, as failures are by failed().

    public void connected(SamplerMetrics sampler, NodeMetrics node, long micros) {
        connectLatency.record(micros);
        connectsOk.increment();
        sampler.connectLatency.record(micros);
        sampler.connectsOk.increment();
        node.connectsOk.increment();
    }

    /** A connection opened (+1) or closed (-1). */
    public void connections(SamplerMetrics sampler, NodeMetrics node, int change) {
        activeConnections.add(change);
        sampler.activeConnections.add(change);
        node.activeConnections.add(change);
    }

    public void subscribed(SamplerMetrics sampler) {
        subscribeOk.increment();
        sampler.subscribeOk.increment();
    }

    /** Messages handed to connected clients by one sample. */
    public void published(SamplerMetrics sampler, NodeMetrics node, int messages, long bytes) {
        published.add(messages);
        publishedBytes.add(bytes);
        sampler.published.add(messages);
        node.published.add(messages);
    }

    public void acknowledged(SamplerMetrics sampler, NodeMetrics node, long micros) {
        publishLatency.record(micros);
        acknowledged.increment();
        sampler.publishLatency.record(micros);
        sampler.acknowledged.increment();
        node.acknowledged.increment();
    }

    /** A message arrived for {@code sampler}'s subscribers (null: a client no Subscribe sampler made). */
    public void received(SamplerMetrics sampler, NodeMetrics node, int bytes) {
        received.increment();
        receivedBytes.add(bytes);
        node.received.increment();
        if (sampler != null) {
            sampler.received.increment();
            sampler.receivedBytes.add(bytes);
        }
    }

    /** Latency of a message from a publisher on {@code publisherNode} (-1: not known) to a subscriber on {@code node}. */
    public void pubToSub(SamplerMetrics sampler, NodeMetrics node, int publisherNode, long micros) {
        pubToSubLatency.record(micros);
        node.pubToSub(publisherNode, micros);
        if (sampler != null) {
            sampler.pubToSubLatency.record(micros);
        }
    }

    /** A client that lost its connection to {@code from} reconnected to {@code to} (failover). */
    public void failedOver(NodeMetrics from, NodeMetrics to) {
        failovers.increment();
        from.movedAway.increment();
        to.movedIn.increment();
    }

    /** A barrier that timed out or could not work, named after its timer. */
    public void rendezvousFailed(String timer, String reason) {
        rendezvousFailures.increment();
        failures.add(timer, FailureTally.Kind.RENDEZVOUS, reason, 1);
    }

    /** The run's errors so far ({@link FailureTally#ERROR_COUNTS}), for the progress line and the timeline. */
    public long errors() {
        return FailureTally.errors(this::errorCount);
    }

    /** One of {@link FailureTally#ERROR_COUNTS} so far. */
    public long errorCount(String name) {
        return errorCounters.get(name).sum();
    }

    private final Map<String, LongAdder> errorCounters = Map.of("connectsFailed", connectsFailed, "subscribeFailed",
            subscribeFailed, "publishFailed", publishFailed, "connectionsLost", connectionsLost, "protocolViolations",
            protocolViolations, "rendezvousFailures", rendezvousFailures, "invalidSettings", invalidSettings);

    /** Currently open connections. */
    public final LongAdder activeConnections = new LongAdder();
}
