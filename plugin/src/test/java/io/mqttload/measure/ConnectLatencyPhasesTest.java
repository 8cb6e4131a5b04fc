package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ConnectLatencyPhasesTest {
    private static long only(Histogram h) {
        assertThat(h.getTotalCount()).isEqualTo(1);
        return h.getMinValue();
    }

    @Test
    void connected_overTls_recordsThreePhasesThatAddUpToTheConnect() {
        EngineMetrics metrics = new EngineMetrics();
        SamplerMetrics sampler = new SamplerMetrics("connect");
        // Values HdrHistogram keeps exactly (below 2,048 µs): the sum is then exact in the histograms too.
        metrics.connected(sampler, null, 1_000_000, 1_000_310, 1_001_530, 1_001_990);

        long whole = only(metrics.latency.takeInterval(Latency.CONNECT, true));
        Map<Latency, Histogram> phases = metrics.latency.takeIntervals(true);
        assertThat(only(phases.get(Latency.CONNECT_TCP))).isEqualTo(310);
        assertThat(only(phases.get(Latency.CONNECT_TLS))).isEqualTo(1_220);
        assertThat(only(phases.get(Latency.CONNECT_CONNACK))).isEqualTo(460);
        assertThat(310 + 1_220 + 460).isEqualTo(whole).isEqualTo(1_990);
        assertThat(only(sampler.latency.takeInterval(Latency.CONNECT_TLS, false))).isEqualTo(1_220);
        assertThat(metrics.sum(Count.CONNECTS_OK)).isEqualTo(1);
    }

    @Test
    void connected_withoutTls_recordsNoTlsPhase() {
        EngineMetrics metrics = new EngineMetrics();
        metrics.connected(new SamplerMetrics("connect"), null, 5_000, 5_400, -1, 5_900);

        Map<Latency, Histogram> phases = metrics.latency.takeIntervals(true);
        assertThat(only(phases.get(Latency.CONNECT_TCP))).isEqualTo(400);
        assertThat(phases.get(Latency.CONNECT_TLS).getTotalCount()).isZero();
        assertThat(only(phases.get(Latency.CONNECT_CONNACK))).isEqualTo(500);
        assertThat(only(phases.get(Latency.CONNECT))).isEqualTo(900);
    }
}
