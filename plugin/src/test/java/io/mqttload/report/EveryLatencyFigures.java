package io.mqttload.report;

import java.util.List;
import java.util.Map;

import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.WindowCounts;

/**
 * One engine's latency of every declared kind, for LatencyShownTest and LatencyShownIT: each kind recorded a count of
 * times of its own, with a value of its own, by sampler "probe" on node "left" ({@link #ofSampler}) and by no sampler on
 * node "right" ({@link #ENGINE_ONLY} more), so that a kind left out, or shown under another's name, cannot go
 * unnoticed on any level.
 */
final class EveryLatencyFigures {
    /** What the engine records of a kind besides its sampler's. */
    static final int ENGINE_ONLY = 20;
    final EngineMetrics metrics = new EngineMetrics();
    final SamplerMetrics sampler = new SamplerMetrics("probe");
    final RunConfig config = RunConfig.from(Map.of(RunConfig.RUN_ID, "run-l", RunConfig.ENGINE_ID, "engine-l")::get,
            "every-latency");
    /** The one metrics tick that took all of it, counted in the run's totals. */
    final Interval interval;
    final RunSummary summary;

    EveryLatencyFigures() {
        NodeMetrics left = metrics.nodes.node(0, "left");
        NodeMetrics right = metrics.nodes.node(1, "right");
        for (Latency kind : Latency.values()) {
            for (int i = 0; i < ofSampler(kind); i++) {
                record(kind, sampler, left);
            }
            for (int i = 0; i < ENGINE_ONLY; i++) {
                record(kind, null, right);
            }
        }
        interval = metrics.takeInterval(List.of(sampler), true);
        DeliveryLedger ledger = new DeliveryLedger(1);
        summary = new RunSummary("run-l", "engine-l", 1, "every-latency", 1_000, 9_000, 0, 8.0, metrics,
                ledger.delivery(), 0, 0, WindowCounts.NONE, new long[] {0, 0, 0}, ledger.book(), 0);
    }

    /** Records one latency of {@code kind} at its recording point: per receiver, or on the engine and the sampler. */
    private void record(Latency kind, SamplerMetrics by, NodeMetrics node) {
        if (kind.recordedPerReceiver()) {
            metrics.pubToSubRecorder(by, node, -1).record(kind, micros(kind));
        } else {
            metrics.record(kind, by, micros(kind));
        }
    }

    /** How many latencies of {@code kind} the sampler (and the left node) has: a number of the kind's own. */
    static int ofSampler(Latency kind) {
        return 2 + kind.ordinal();
    }

    /** How many the engine has. */
    static long ofEngine(Latency kind) {
        return ofSampler(kind) + ENGINE_ONLY;
    }

    /** The value every latency of {@code kind} has: HdrHistogram keeps it exactly, so its percentiles are it too. */
    static long micros(Latency kind) {
        return 100L * (kind.ordinal() + 1);
    }
}
