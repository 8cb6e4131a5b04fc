package io.mqttload.jmeter.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.mqttload.engine.RunConfig;

/**
 * A run whose start fails in the callback that prepares it (an export that cannot start, a broken engine fact) is
 * never running, and the half-made runtime stops its ticker: a jmeter-server would otherwise keep it for its life.
 */
class JvmRunTest {

    @Test
    void aStartThatFailsInItsCallback_leavesNoRunAndNoTicker() {
        String engine = "lifecycle-" + System.nanoTime();
        RunConfig config = RunConfig.from(Map.of(RunConfig.ENGINE_ID, engine, RunConfig.RUN_ID, "run-1")::get, "s");
        PrintStream console = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

        assertThatThrownBy(() -> JvmRun.startEngineIfNone(() -> config, console, runtime -> {
            assertThat(tickerAlive(engine)).as("the runtime ticks once made").isTrue();
            throw new IllegalStateException("export failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("export failed");

        assertThat(JvmRun.running()).isEmpty();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !tickerAlive(engine));
    }

    private static boolean tickerAlive(String engine) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("mqttload-metrics-"
                + engine) && t.isAlive());
    }
}
