package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Pub-to-sub latency is recorded once per message, by (subscriber's node, publisher's node, sampler); the engine's,
 * nodes', node pairs' and samplers' figures are sums of those recorders and must equal histograms of every value.
 */
class PubToSubLatencyTest {
    private final EngineMetrics metrics = new EngineMetrics();
    private final NodeMetrics first = metrics.nodes.node(0, "a");
    private final NodeMetrics second = metrics.nodes.node(1, "b");
    private final SamplerMetrics flood = new SamplerMetrics("flood");
    private final SamplerMetrics probe = new SamplerMetrics("probe");
    private final SamplerMetrics[] samplers = {flood, probe, null};
    private final NodeMetrics[] nodes = {first, second};
    /** Expected totals: engine, by node, by (node, publisher node 0/1), by sampler. */
    private final Histogram engine = LatencyRecorder.newHistogram();
    private final Histogram[] byNode = {LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram()};
    private final Histogram[][] byPair = {{LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram()},
        {LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram()}};
    private final Histogram[] bySampler = {LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram()};
    private final Random random = new Random(7);

    @Test
    void everyFigure_isTheHistogramOfItsMessages_andWarmUpCountsInNone() {
        recordSome(5_000, false);
        EngineMetrics.ReceivedInterval warmup = metrics.takeReceivedInterval(false);
        assertThat(warmup.engine.get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(5_000);
        assertThat(metrics.latency.totalCopy(Latency.PUB_TO_SUB).getTotalCount()).isZero();

        Histogram lastTick = recordSome(20_000, true);
        EngineMetrics.ReceivedInterval tick = metrics.takeReceivedInterval(true);
        assertThat(tick.engine.get(Latency.PUB_TO_SUB)).isEqualTo(lastTick);
        Histogram more = recordSome(3_000, true);
        EngineMetrics.ReceivedInterval next = metrics.takeReceivedInterval(true);
        assertThat(next.engine.get(Latency.PUB_TO_SUB)).isEqualTo(more);

        assertThat(metrics.latency.totalCopy(Latency.PUB_TO_SUB)).isEqualTo(engine);
        assertThat(engine.getTotalCount()).isEqualTo(23_000);
        for (int n = 0; n < 2; n++) {
            assertThat(nodes[n].latency.totalCopy(Latency.PUB_TO_SUB)).isEqualTo(byNode[n]);
            assertThat(nodes[n].publisherNodes()).containsExactly(0, 1);
            for (int from = 0; from < 2; from++) {
                assertThat(nodes[n].fromNode(from).totalCopy()).isEqualTo(byPair[n][from]);
            }
        }
        assertThat(flood.latency.totalCopy(Latency.PUB_TO_SUB)).isEqualTo(bySampler[0]);
        assertThat(probe.latency.totalCopy(Latency.PUB_TO_SUB)).isEqualTo(bySampler[1]);
        assertThat(next.of(first).get(Latency.PUB_TO_SUB).getTotalCount()
                + next.of(second).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(3_000);
    }

    @Test
    void negativeAndClampedValues_areCountedOverEveryRecorder() {
        metrics.pubToSub(flood, first, 0, -5);
        metrics.pubToSub(null, second, -1, -1);
        metrics.pubToSub(probe, second, 1, LatencyRecorder.HIGHEST_TRACKABLE_MICROS + 1);

        assertThat(metrics.pubToSubNegativeCount()).isEqualTo(2);
        assertThat(metrics.pubToSubClampedCount()).isEqualTo(1);
        EngineMetrics.ReceivedInterval tick = metrics.takeReceivedInterval(true);
        assertThat(tick.engine.get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(3);
        assertThat(tick.of(flood).get(Latency.PUB_TO_SUB).getTotalCount()).isEqualTo(1);
        assertThat(tick.of(new SamplerMetrics("idle")).get(Latency.PUB_TO_SUB).getTotalCount()).isZero();
    }

    /** Records {@code count} values over every node, publisher node (or none) and sampler (or none). */
    private Histogram recordSome(int count, boolean counted) {
        Histogram recorded = LatencyRecorder.newHistogram();
        for (int i = 0; i < count; i++) {
            long micros = 100 + (long) (Math.abs(random.nextGaussian()) * (i % 3 == 0 ? 20_000 : 900));
            int node = random.nextInt(2);
            int from = random.nextInt(3) - 1;
            int sampler = random.nextInt(3);
            metrics.pubToSub(samplers[sampler], nodes[node], from, micros);
            recorded.recordValue(micros);
            if (counted) {
                engine.recordValue(micros);
                byNode[node].recordValue(micros);
                if (from >= 0) {
                    byPair[node][from].recordValue(micros);
                }
                if (sampler < 2) {
                    bySampler[sampler].recordValue(micros);
                }
            }
        }
        return recorded;
    }
}
