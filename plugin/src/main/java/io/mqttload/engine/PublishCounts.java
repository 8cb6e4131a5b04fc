package io.mqttload.engine;

import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;

/** What one sample sent; messages are booked on the broker node per run of clients on the same node. */
final class PublishCounts {
    private final EngineMetrics metrics;
    private final SamplerMetrics sampler;
    int sent;
    long bytes;
    private NodeMetrics node;
    private int nodeSent;
    private long nodeBytes;

    PublishCounts(EngineMetrics metrics, SamplerMetrics sampler) {
        this.metrics = metrics;
        this.sampler = sampler;
    }

    /** One message sent by a client on node {@code on}; a change of node books the previous node's run. */
    void sent(NodeMetrics on, int length) {
        if (on != node) {
            book();
            node = on;
        }
        sent++;
        bytes += length;
        nodeSent++;
        nodeBytes += length;
    }

    /** Books the current node's run: called when the node changes and at the end of the sample. */
    void book() {
        if (node != null && nodeSent > 0) {
            metrics.published(sampler, node, nodeSent, nodeBytes);
        }
        nodeSent = 0;
        nodeBytes = 0;
    }
}
