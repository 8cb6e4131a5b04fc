package io.mqttload.engine;

import java.util.concurrent.Semaphore;

import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.SamplerMetrics;

/** What one sample's messages share, and its failures so far. */
final class PublishBatch {
    final EngineMetrics metrics;
    final SamplerMetrics sampler;
    final ClientGroup group;
    final PlaceholderValues values;
    final Semaphore window;
    final PublishCounts counts;
    final SetupRecorder.Step setupStep;
    /**
     * Sent from the client's event loop: an in-flight window that is full is never waited for there; the message is
     * left for a later pass ({@link PublishOperation#WINDOW_FULL}).
     */
    boolean onLoop;
    int failed;
    String firstError;

    PublishBatch(EngineMetrics metrics, SamplerMetrics sampler, ClientGroup group, PlaceholderValues values, Semaphore window,
            PublishCounts counts, SetupRecorder.Step setupStep) {
        this.metrics = metrics;
        this.sampler = sampler;
        this.group = group;
        this.values = values;
        this.window = window;
        this.counts = counts;
        this.setupStep = setupStep;
    }
}
