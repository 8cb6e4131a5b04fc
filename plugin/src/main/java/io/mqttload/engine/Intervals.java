package io.mqttload.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Interval;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;

/** Takes one metrics interval from every latency recorder of the engine, its samplers and its broker nodes. */
final class Intervals {
    private Intervals() {
    }

    /** @param countInTotal whether the interval counts in the run's totals (false during warm-up) */
    static Interval take(EngineMetrics metrics, Collection<SamplerMetrics> samplers, boolean countInTotal) {
        EngineMetrics.PubToSubInterval pubToSub = metrics.takePubToSubInterval(countInTotal);
        List<Interval.OfNode> byNode = new ArrayList<>();
        for (NodeMetrics node : metrics.nodes.all()) {
            byNode.add(new Interval.OfNode(node, pubToSub.of(node)));
        }
        List<Interval.OfSampler> bySampler = new ArrayList<>(samplers.size());
        for (SamplerMetrics s : samplers) {
            bySampler.add(new Interval.OfSampler(s, pubToSub.of(s), s.publishLatency.takeInterval(false),
                    s.connectLatency.takeInterval(false),
                    new Interval.ConnectPhases(s.connectPhases.takeInterval(false)), new Interval.FromIntended(pubToSub.intendedOf(s),
                            s.publishIntendedLatency.takeInterval(false), s.scheduleLag.takeInterval(false))));
        }
        Interval.FromIntended fromIntended = new Interval.FromIntended(pubToSub.engineIntended,
                metrics.publishIntendedLatency.takeInterval(countInTotal), metrics.scheduleLag.takeInterval(countInTotal));
        return new Interval(System.currentTimeMillis(), pubToSub.engine,
                // Connects happen before production, most of them before any warm-up ends: they always count.
                metrics.publishLatency.takeInterval(countInTotal), metrics.connectLatency.takeInterval(true),
                new Interval.ConnectPhases(metrics.connectPhases.takeInterval(true)),
                metrics.roundTripLatency.takeInterval(countInTotal), fromIntended,
                bySampler, byNode, countInTotal);
    }
}
