package io.mqttload.jmeter.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.mqttload.delivery.Verdict;
import io.mqttload.engine.RunConfig;
import io.mqttload.summary.RunSummary;

/**
 * The run holder: a run begins whole and ends whole. Two runs back to back in one JVM, without JMeter's engine, share
 * nothing; a start that fails leaves no run and no ticker behind.
 */
class JvmRunTest {
    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void twoRunsBackToBack_theSecondFindsNothingOfTheFirst() {
        CountingResource firstResource = new CountingResource();
        JvmRun.startEngineIfNone(() -> config("first"), QUIET, runtime -> { });
        RunState first = JvmRun.current();
        // Everything a run can hold, set as the elements, the report and the controller set it.
        first.startupError("an earlier element could not start it");
        first.jmeterEngineAtStart(true);
        first.verdict(Verdict.FAILED);
        assertThat(first.firstTime("expiry without MQTT 5: c=60")).isTrue();
        first.reported(null, Path.of("first.html"));
        first.sending(new ControllerStart("run-first", 2));
        first.resource(CountingResource.class, () -> firstResource);
        assertThat(JvmRun.engineStarted("engine-a:1099")).isSameAs(first);
        RunSummary firstSummary = JvmRun.stopEngine();
        assertThat(firstSummary.runId).isEqualTo("run-first");
        JvmRun.end(first);
        assertThat(firstResource.closed).as("the first run's resources are closed at its end").hasValue(1);
        assertThat(JvmRun.current().verdict()).as("the results stay readable until the next run").isEqualTo(Verdict.FAILED);

        RunState second = JvmRun.beginOrJoin();
        assertThat(second).isNotSameAs(first);
        assertThat(second.number()).isEqualTo(first.number() + 1);
        assertThat(fields(second)).as("a run begun is as a new one, field by field (a field added later is checked too)")
                .isEqualTo(fields(new RunState(second.number(), false)));

        JvmRun.startEngineIfNone(() -> config("second"), QUIET, runtime -> { });
        assertThat(JvmRun.current()).as("the engine joins the run the report began").isSameAs(second);
        assertThat(JvmRun.lastSummary()).as("no summary of the first while the second runs").isNull();
        assertThat(JMeterStop.asked()).isFalse();
        assertThat(second.firstTime("expiry without MQTT 5: c=60")).as("a warning once per run, again").isTrue();
        assertThat(JvmRun.engineStarted("engine-a:1099").engineReports().enginesStarted).containsExactly("engine-a:1099");
        assertThat(second.resource(CountingResource.class, CountingResource::new)).isNotSameAs(firstResource);
        assertThat(JvmRun.stopOrSummaryOf(second).runId).isEqualTo("run-second");
        assertThat(JvmRun.stopOrSummaryOf(first)).as("the first run's summary is still its own").isSameAs(firstSummary);
        JvmRun.end(second);
        assertThat(firstResource.closed).as("closed once").hasValue(1);
    }

    @Test
    void anEngineThatStartsAgain_beginsANewRun_andAControllerEngineStartingTwiceToo() {
        JvmRun.startEngineIfNone(() -> config("again-1"), QUIET, runtime -> { });
        RunState first = JvmRun.current();
        JvmRun.stopEngine();
        JvmRun.startEngineIfNone(() -> config("again-2"), QUIET, runtime -> { });
        assertThat(JvmRun.current()).as("an engine stopped is never started again in its run").isNotSameAs(first);
        JvmRun.stopEngine();
        JvmRun.end(JvmRun.current());

        RunState controller = JvmRun.engineStarted("e1");
        assertThat(JvmRun.engineStarted("e2")).isSameAs(controller);
        RunState restarted = JvmRun.engineStarted("e1");
        assertThat(restarted).as("an engine starting again belongs to a new run").isNotSameAs(controller);
        assertThat(controller.engineReports().reported()).as("the old run is given up, not mixed in").isTrue();
        assertThat(restarted.engineReports().enginesStarted).containsExactly("e1");
        JvmRun.end(restarted);
    }

    @Test
    void aStartThatFailsInItsCallback_leavesNoRunAndNoTicker() {
        String engine = "lifecycle-" + System.nanoTime();
        RunConfig config = RunConfig.from(Map.of(RunConfig.ENGINE_ID, engine, RunConfig.RUN_ID, "run-1")::get, "s");

        assertThatThrownBy(() -> JvmRun.startEngineIfNone(() -> config, QUIET, runtime -> {
            assertThat(tickerAlive(engine)).as("the runtime ticks once made").isTrue();
            throw new IllegalStateException("export failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("export failed");

        assertThat(JvmRun.running()).isEmpty();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !tickerAlive(engine));
        JvmRun.end(JvmRun.current());
    }

    private static RunConfig config(String name) {
        return RunConfig.from(Map.of(RunConfig.ENGINE_ID, "back-to-back-" + name, RunConfig.RUN_ID, "run-" + name)::get,
                "s");
    }

    /** Every field of a run, atomics read: what two runs must agree on when both are new. */
    private static Map<String, Object> fields(RunState run) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Field f : RunState.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            try {
                Object v = f.get(run);
                values.put(f.getName(), v instanceof AtomicBoolean ? Boolean.valueOf(((AtomicBoolean) v).get()) : v);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return values;
    }

    private static boolean tickerAlive(String engine) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("mqttload-metrics-"
                + engine) && t.isAlive());
    }

    /** A run's resource that counts its closes. */
    private static final class CountingResource implements AutoCloseable {
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public void close() {
            closed.incrementAndGet();
        }
    }
}
