package io.mqttload.core;

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

    /** Messages handed to the client (QoS 0: written; QoS 1/2: sent, ack pending). */
    public final LongAdder published = new LongAdder();
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

    /** Currently open connections. */
    public final LongAdder activeConnections = new LongAdder();
}
