package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.rmi.NotBoundException;
import java.rmi.registry.LocateRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.jmeter.remote.LiveFiguresSource;
import io.mqttload.live.LiveFigures;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * What the Run Report panel of a controller started from the GUI reads: every jmeter-server engine offers its live
 * figures in its own RMI registry while it runs the test, and takes them away at the end (the engines still exit).
 */
class DistributedLiveFiguresIT {
    private static final int ENGINES = 2;
    private static final String PUBLISH_SAMPLER = "MQTT Publish devices";

    @Test
    void twoEngines_eachOffersItsLiveFiguresWhileTheRunGoes_andNoneAfterIt(@TempDir Path dir) throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 0").start();
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), ENGINES,
                        false, Duration.ofSeconds(90))) {
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", "127.0.0.1"), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                    Map.entry("partitions", "2"), Map.entry("publishersPerPartition", "5"),
                    Map.entry("publishRate", "20"),
                    Map.entry("durationSeconds", "8"), Map.entry("qos", "1"),
                    Map.entry("mqttload.engines", Integer.toString(ENGINES)),
                    // One run id for both engines: their start barrier is the run's (each engine's default differs).
                    Map.entry("mqttload.runId", "live-it-" + Long.toString(System.currentTimeMillis(), 36)),
                    Map.entry("mqttload.resultsDir", dir.resolve("engine-results").toString()),
                    Map.entry("mqttload.progressSeconds", "0"));
            try (JMeterEngines.Headless controller = engines.startController(DistributedMqttIT.plan(), global,
                    Map.of("mqttload.resultsDir", dir.resolve("controller-results").toString()))) {
                Map<String, LiveFigures> seen = new HashMap<>();
                Map<String, String> lastSeen = new HashMap<>();
                try {
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                        for (JMeterEngines.Engine engine : engines.engines()) {
                            LiveFigures f = figures(engine.host(), lastSeen);
                            // A feed's first interval after it was attached gives counts; the chart's points follow.
                            // A sampler's row comes with the first interval taken after its first sample, which may be
                            // one tick after the engine's counts (read a moment after the interval) show it published.
                            if (f != null && f.published > 0 && f.received > 0 && !f.history.isEmpty()
                                    && f.samplers.stream().anyMatch(s -> s.label.equals(PUBLISH_SAMPLER))) {
                                seen.put(engine.host(), f);
                            }
                        }
                        return seen.size() == ENGINES;
                    });
                } catch (ConditionTimeoutException e) {
                    StringBuilder why = new StringBuilder("live figures seen from " + seen.keySet() + "; last answers "
                            + lastSeen + "\ncontroller:\n" + controller.output());
                    for (JMeterEngines.Engine engine : engines.engines()) {
                        why.append("\n").append(engine.host()).append(" console:\n").append(engine.output())
                                .append("\nlog:\n").append(engine.log());
                    }
                    throw new AssertionError(why.toString(), e);
                }
                for (int n = 1; n <= ENGINES; n++) {
                    LiveFigures f = seen.get(engines.engines().get(n - 1).host());
                    assertThat(f.engineId).isEqualTo("engine-" + n);
                    // Two partitions of five publishers and one subscriber each, on every engine.
                    assertThat(f.activeConnections).isEqualTo(12);
                    assertThat(f.history).isNotEmpty();
                }

                assertThat(controller.awaitExit(Duration.ofSeconds(120))).as(controller.output()).isTrue();
                assertThat(controller.output()).contains("verdict (all engines): NO LOSS");
            }
            assertThat(engines.awaitExit(Duration.ofSeconds(30))).as("engines exit after the run").isTrue();
        }
    }

    /**
     * The engine's live figures as a controller reads them, or null while it has none bound or none yet; what it
     * answered goes to {@code answers}, for the message of a failure.
     */
    private static LiveFigures figures(String hostAndPort, Map<String, String> answers) throws Exception {
        int colon = hostAndPort.lastIndexOf(':');
        try {
            LiveFiguresSource source = (LiveFiguresSource) LocateRegistry.getRegistry(hostAndPort.substring(0, colon),
                    Integer.parseInt(hostAndPort.substring(colon + 1))).lookup(LiveFiguresSource.NAME);
            String json = source.liveFiguresJson();
            LiveFigures f = json == null ? null : LiveFigures.fromJson(json);
            answers.put(hostAndPort, f == null ? "no figures yet" : f.phase + " at " + f.elapsedSeconds + " s, "
                    + f.activeConnections + " connections, published " + f.published + ", received " + f.received);
            return f;
        } catch (NotBoundException notYet) {
            answers.put(hostAndPort, "not bound");
            return null;
        }
    }
}
