package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.Jtl;

/**
 * The stock smoke plan on two real jmeter-server engines: each engine runs the plan's threads x loops once,
 * the controller's JTL gets every sample, and the run ends by itself, over SSL RMI and without it.
 */
class DistributedSmokeIT {
    static final int ENGINES = 2;
    static final int THREADS = 2;
    static final int LOOPS = 3;
    /** JVM start-up dominates: three JVMs on two cores take about 15 s in all. */
    static final Duration RUN_BOUND = Duration.ofSeconds(120);
    static final Map<String, String> CSV_WITH_HOSTNAME = Map.of("jmeter.save.saveservice.output_format", "csv",
            "jmeter.save.saveservice.hostname", "true", "jmeter.save.saveservice.thread_name", "true",
            "jmeter.save.saveservice.label", "true", "jmeter.save.saveservice.successful", "true");

    static Path smokePlan() {
        return Path.of(System.getProperty("project.basedir", "."), "distributed", "smoke.jmx");
    }

    @ParameterizedTest(name = "ssl = {0}")
    @ValueSource(booleans = {true, false})
    void everyEngineRunsThreadsTimesLoops_andTheRunEndsByItself(boolean ssl, @TempDir Path dir) throws Exception {
        long startNanos = System.nanoTime();
        try (JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir, ENGINES, ssl,
                Duration.ofSeconds(90))) {
            long readyNanos = System.nanoTime();
            JMeterEngines.Run run = engines.run(smokePlan(),
                    Map.of("threads", String.valueOf(THREADS), "loops", String.valueOf(LOOPS)), CSV_WITH_HOSTNAME,
                    RUN_BOUND);
            long runNanos = System.nanoTime();

            assertThat(run.exitCode).as(run.output).isZero();
            List<Map<String, String>> samples = Jtl.read(run.jtl);
            assertSamplesPerEngine(samples, engines.engines().stream().collect(
                    Collectors.toMap(e -> e.number, JMeterEngines.Engine::threadNamePrefix)));
            assertThat(engines.awaitExit(Duration.ofSeconds(30))).as("engines exit after -X").isTrue();
            System.out.printf("ssl=%s: engines ready in %d ms, controller run %d ms, engines gone after %d ms%n",
                    ssl, (readyNanos - startNanos) / 1_000_000, (runNanos - readyNanos) / 1_000_000,
                    (System.nanoTime() - startNanos) / 1_000_000);
        }
    }

    /** Each engine's samples carry its thread-name prefix and its own engineId: -J reached that engine only. */
    static void assertSamplesPerEngine(List<Map<String, String>> samples, Map<Integer, String> threadNamePrefixes) {
        assertThat(samples).hasSize(ENGINES * THREADS * LOOPS)
                .allSatisfy(s -> assertThat(s.get("success")).isEqualTo("true"))
                .allSatisfy(s -> assertThat(s.get("Hostname")).isNotBlank());
        assertThat(samples.stream().collect(Collectors.groupingBy(s -> s.get("threadName"), Collectors.counting())))
                .hasSize(ENGINES * THREADS).allSatisfy((thread, count) -> assertThat(count).isEqualTo((long) LOOPS));
        threadNamePrefixes.forEach((number, prefix) -> assertThat(samples).as("engine %d", number)
                .filteredOn(s -> s.get("threadName").startsWith(prefix))
                .hasSize(THREADS * LOOPS)
                .allSatisfy(s -> assertThat(s.get("label")).isEqualTo("smoke engine-" + number)));
    }
}
