package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.clock.ClockFigures;
import io.mqttload.rendezvous.Rendezvous;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * The runtime's own rendezvous and clock exchange through the transport port: two engines on one in-memory broker
 * meet at a barrier and measure their clocks against the reference engine, and both land in the summaries.
 */
class InMemoryRendezvousRunTest {
    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    private final ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "engine-thread");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private MemoryEngine engine(int number) {
        return new MemoryEngine(broker, results, Map.of("mqttload.engineId", "engine-" + number,
                "mqttload.engineNumber", Integer.toString(number), "mqttload.engines", "2",
                "mqttload.clockSamples", "4", "mqttload.clockTimeoutMs", "2000"));
    }

    private Future<Rendezvous.Passage> arrive(MemoryEngine engine, ConnectionSettings settings) {
        return threads.submit(() -> {
            Rendezvous.Passage p = engine.runtime().rendezvous(settings, 0).await("start", 1, 2, 5_000, true);
            engine.runtime().productionStarted("barrier 'start' released");
            return p;
        });
    }

    @Test
    void twoEngines_meetAtABarrier_andMeasureTheirClocks_throughTheirRuntimes() throws Exception {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine one = engine(1);
        MemoryEngine two = engine(2);

        Future<Rendezvous.Passage> first = arrive(one, settings);
        Future<Rendezvous.Passage> second = arrive(two, settings);
        assertThat(first.get(5, TimeUnit.SECONDS).released).isTrue();
        assertThat(second.get(5, TimeUnit.SECONDS).released).isTrue();
        // The measuring engine first: its end-of-run exchange needs the reference engine still there.
        RunSummary measured = two.shutdown();
        RunSummary reference = one.shutdown();

        ClockFigures clock = SummaryJson.readEngineSummary(measured.toJson()).clock;
        assertThat(clock.notMeasured).as(measured.toTable()).isNull();
        assertThat(clock.referenceEngine).isEqualTo("engine-1");
        assertThat(clock.before).isNotNull();
        assertThat(clock.after).isNotNull();
        assertThat(SummaryJson.readEngineSummary(reference.toJson()).clock.reference).isTrue();
        MergedReport report = MergedReport.merge(List.of(reference.toJson(), measured.toJson()), List.of());
        assertThat(report.rendezvous).hasSize(1);
    }
}
