package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.jmeter.MqttRendezvousTimer;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.rendezvous.Rendezvous;
import io.mqttload.summary.BarrierRow;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.LogCapture;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;
import io.mqttload.testsupport.TcpProxy;

/**
 * The MQTT Rendezvous Timer on one engine against a real broker: threads that arrive over seconds
 * all go on only after the last one arrived, a barrier can be passed again, and a barrier that cannot
 * fill up ends the wait on time with the count reached and expected. Several engines: DistributedIT; what a barrier
 * counts (another run's announcements, mismatched run ids) without JMeter: RendezvousTest.
 */
class RendezvousIT {
    private static EmbeddedHiveMqBroker broker;

    @TempDir
    Path results;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static MqttRendezvousTimer timer(String groupSize, String timeoutMs, String onTimeout) {
        MqttRendezvousTimer t = PlanBuilder.testBean(new MqttRendezvousTimer(), "start");
        t.setProperty("groupSize", groupSize);
        t.setProperty("timeoutInMs", timeoutMs);
        t.setProperty("onTimeout", onTimeout);
        return t;
    }

    private static <T extends TestElement> T named(T element, String name) {
        element.setName(name);
        return element;
    }

    private RunResult run(HashTree plan, String runId) {
        return run(plan, runId, 1);
    }

    private RunResult run(HashTree plan, String runId, int engines) {
        // The broker is not asked its version: tests number the connections their proxies see.
        return JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.runId", runId, "mqttload.engines", Integer.toString(engines),
                "mqttload.brokerVersionTimeoutMs", "0"));
    }

    @Test
    void threadsArrivingOverTwoSeconds_allGoOnOnlyAfterTheLastArrived() {
        int threads = 6;
        HashTree plan = PlanBuilder.testPlan("rendezvous").config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(runReport())
                .threadGroup("pubs", threads, 1).rampUp(Duration.ofSeconds(2))
                .add(connect("pub", 1, "{engine}-rv-{thread}"))
                .add(publish("pub", "rv/{thread}", 1, 1, "SYNC"), timer("0", "20000", "STOP_TEST"))
                .build();

        RunResult run = run(plan, "rv-ramp");

        assertThat(run.failures()).as(run.describe()).isEmpty();
        List<SampleResult> connects = run.byLabel("connect pub");
        List<SampleResult> publishes = run.byLabel("publish pub");
        assertThat(connects).hasSize(threads);
        assertThat(publishes).hasSize(threads);
        long lastArrival = connects.stream().mapToLong(SampleResult::getEndTime).max().orElseThrow();
        long firstRelease = publishes.stream().mapToLong(SampleResult::getStartTime).min().orElseThrow();
        long lastRelease = publishes.stream().mapToLong(SampleResult::getStartTime).max().orElseThrow();
        long firstArrival = connects.stream().mapToLong(SampleResult::getEndTime).min().orElseThrow();
        assertThat(lastArrival - firstArrival).as("the ramp-up spread the arrivals").isGreaterThan(1000);
        assertThat(firstRelease).as("no thread went on before the last one arrived").isGreaterThanOrEqualTo(lastArrival);
        // A bound for correctness, not speed: released together means within the same second, not one by one.
        assertThat(lastRelease - firstRelease).isLessThan(500);

        MergedReport report = MqttRunReport.lastReport();
        assertThat(report.rendezvous).hasSize(1);
        BarrierRow barrier = report.rendezvous.get(0);
        assertThat(barrier.name).isEqualTo("start");
        assertThat(barrier.groupSize).as("0 means this thread group's threads x mqttload.engines (1)").isEqualTo(threads);
        assertThat(barrier.threads).isEqualTo(threads);
        assertThat(barrier.releasedEverywhere()).isTrue();
        assertThat(barrier.spreadMillis()).isBetween(0.0, 500.0);
        // The two seconds of arrivals are neither warm-up nor measured: production starts at the release, after the
        // last arrival, and ends with the last publish (0.1 s for the engine's and the samples' clocks, each read
        // apart from the other), however long the machine took for either.
        long lastPublishEnd = publishes.stream().mapToLong(SampleResult::getEndTime).max().orElseThrow();
        assertThat(JvmRun.lastSummary().measuredSeconds).as("measured window, s")
                .isLessThanOrEqualTo((lastPublishEnd - lastArrival) / 1000.0 + 0.1);
    }

    @Test
    void aBarrierInALoop_isPassedOncePerIterationAsItsNextGeneration() {
        int threads = 3;
        HashTree plan = PlanBuilder.testPlan("rendezvous-loop").config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .config(runReport())
                .threadGroup("pubs", threads, 1)
                .add(connect("pub", 1, "{engine}-rl-{thread}"))
                .add(loop(3), named(publish("pub", "rl/{thread}", 1, 1, "SYNC"), "tick"),
                        timer(Integer.toString(threads), "20000", "STOP_TEST"))
                .build();

        RunResult run = run(plan, "rv-loop");

        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(run.byLabel("tick")).hasSize(3 * threads);
        MergedReport report = MqttRunReport.lastReport();
        assertThat(report.rendezvous).extracting(b -> b.generation).containsExactly(1, 2, 3);
        assertThat(report.rendezvous).allSatisfy(b -> {
            assertThat(b.releasedEverywhere()).isTrue();
            assertThat(b.threads).isEqualTo(threads);
        });
        // Within each generation, every thread's sample started after every thread's previous one ended.
        List<SampleResult> ticks = run.byLabel("tick");
        for (int generation = 1; generation < 3; generation++) {
            int g = generation;
            long previousEnd = ticks.stream().filter(s -> iteration(ticks, s) == g).mapToLong(SampleResult::getEndTime)
                    .max().orElseThrow();
            long nextStart = ticks.stream().filter(s -> iteration(ticks, s) == g + 1)
                    .mapToLong(SampleResult::getStartTime).min().orElseThrow();
            assertThat(nextStart).as("generation " + (g + 1)).isGreaterThanOrEqualTo(previousEnd);
        }
    }

    /** 1-based index of {@code sample} among the samples of its thread, in start order. */
    private static int iteration(List<SampleResult> all, SampleResult sample) {
        return (int) all.stream().filter(s -> s.getThreadName().equals(sample.getThreadName())
                && s.getStartTime() <= sample.getStartTime()).count();
    }

    @Test
    void aBarrierThatCannotFill_timesOutNamingCountsAndTheTestGoesOnWithContinue() {
        HashTree plan = PlanBuilder.testPlan("rendezvous-timeout")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .threadGroup("pubs", 2, 1)
                .add(connect("pub", 1, "{engine}-rt-{thread}"))
                .add(publish("pub", "rt/{thread}", 1, 1, "SYNC"), timer("5", "1500", "CONTINUE"))
                .build();

        RunResult run;
        List<String> errors;
        try (LogCapture log = LogCapture.start()) {
            run = run(plan, "rv-timeout");
            errors = log.messagesAtLeast(ch.qos.logback.classic.Level.ERROR);
        }

        RunSummary summary = JvmRun.lastSummary();
        assertThat(run.elapsed()).as("the wait is bounded by the timeout").isLessThan(Duration.ofSeconds(20));
        assertThat(run.byLabel("publish pub")).as("CONTINUE: the threads go on").hasSize(2);
        assertThat(summary.count(Count.RENDEZVOUS_TIMEOUTS)).isEqualTo(1);
        assertThat(errors).as("reported once, with barrier, counts and action")
                .filteredOn(e -> e.contains("rendezvous")).singleElement().asString()
                .contains("'start' #1").contains("timed out after 1500 ms").contains("2 of 5 threads arrived")
                .contains(summary.engineId).contains("unsynchronised");
        assertThat(summary.toTable()).contains("TIMED OUT with 2 of 5 arrived");
    }

    /**
     * A broker busy with a storm of connects (RabbitMQ at 3,000/s) left an engine's control client without a CONNACK
     * for its whole timeout, and that engine's start barrier never released: the control client tries again within
     * the barrier's timeout.
     */
    @Test
    void aControlClientTheBrokerDidNotAnswer_triesAgainWithinTheBarriersTimeout_andTheBarrierReleases() {
        // Connection 1 is the load client's, 2 the rendezvous client's first attempt: never answered.
        try (TcpProxy busy = TcpProxy.answeringNot("127.0.0.1", broker.tcpPort(), n -> n == 2)) {
            MqttConnectionConfig config = connection("127.0.0.1", busy.port(), "MQTT_5");
            config.setProperty("connectTimeoutMs", "1000");
            HashTree plan = PlanBuilder.testPlan("rendezvous-busy").config(config).config(runReport())
                    .threadGroup("pubs", 1, 1)
                    .add(connect("pub", 1, "{engine}-rb-{thread}"))
                    .add(publish("pub", "rb/{thread}", 1, 1, "SYNC"), timer("0", "20000", "STOP_TEST"))
                    .build();

            RunResult run;
            List<String> warnings;
            try (LogCapture log = LogCapture.start()) {
                run = run(plan, "rv-busy");
                warnings = log.messagesAtLeast(ch.qos.logback.classic.Level.WARN);
            }

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(run.byLabel("publish pub")).as("released after the second attempt").hasSize(1);
            assertThat(JvmRun.lastSummary().count(Count.RENDEZVOUS_FAILURES)).isZero();
            assertThat(warnings).filteredOn(w -> w.contains("rendezvous client")).singleElement().asString()
                    .contains("no answer within 1000 ms").contains("attempt 1").contains("trying again");
            assertThat(busy.accepted()).as("load client, unanswered attempt, answered attempt (and the clock's)")
                    .isGreaterThanOrEqualTo(3);
        }
    }

    /**
     * A control client that never gets an answer fails the barrier when its timeout is spent, once: the threads that
     * arrive after the first do not each wait through attempts of their own (eight threads, eight timeouts in a row,
     * kept the test from stopping), and the test stops.
     */
    @Test
    void aControlClientThatNeverGetsAnAnswer_failsOnceWithinTheBarriersTimeout_andTheTestStops() {
        int threads = 8;
        try (TcpProxy silent = TcpProxy.answeringNot("127.0.0.1", broker.tcpPort(), n -> true)) {
            MqttRendezvousTimer barrier = timer("0", "3000", "CONTINUE");
            barrier.setProperty("brokerHost", "127.0.0.1");
            barrier.setProperty("brokerPort", Integer.toString(silent.port()));
            HashTree plan = PlanBuilder.testPlan("rendezvous-silent")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .threadGroup("pubs", threads, 1)
                    .add(connect("pub", 1, "{engine}-rn-{thread}"))
                    .add(loop(50), publish("pub", "rn/{thread}", 1, 1, "SYNC"), barrier)
                    .build();

            Logged logged = runLogged(plan, "rv-silent", 1);

            RunSummary summary = JvmRun.lastSummary();
            assertThat(logged.run.elapsed()).as("one 3 s patience, not one per thread").isLessThan(Duration.ofSeconds(15));
            assertThat(summary.count(Count.RENDEZVOUS_FAILURES)).isEqualTo(1);
            assertThat(logged.rendezvousErrors).singleElement().asString().contains("'start' cannot work")
                    .contains("rendezvous client could not connect to").contains("127.0.0.1:" + silent.port())
                    .contains("no answer within 3000 ms (1 attempt in 3.").contains("stopping the test");
            assertThat(logged.run.byLabel("publish pub").size()).as("stopped, not run on unsynchronised")
                    .isLessThanOrEqualTo(2 * threads);
        }
    }

    @Test
    void aBarrierThatCannotFill_withStopTest_stopsTheTestInsteadOfRunningUnsynchronised() {
        HashTree plan = PlanBuilder.testPlan("rendezvous-stop")
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .threadGroup("pubs", 2, 1)
                .add(connect("pub", 1, "{engine}-rs-{thread}"))
                .add(loop(50), publish("pub", "rs/{thread}", 1, 1, "SYNC"), timer("3", "1000", "STOP_TEST"))
                .build();

        RunResult run = run(plan, "rv-stop");

        // A graceful stop lets each thread finish the iteration it is in (its timer no longer waits): at most
        // two publishes per thread, against 50 each had the test run on unsynchronised.
        assertThat(run.byLabel("publish pub").size()).as("stopped at the first barrier, not after 100 publishes")
                .isLessThanOrEqualTo(4);
        assertThat(JvmRun.lastSummary().count(Count.RENDEZVOUS_TIMEOUTS)).isEqualTo(1);
    }

    /**
     * The other engine of a two-engine run, which was given no run id and made one up (a headless {@code -R} run
     * without {@code -G}): a real rendezvous client of its own on the same broker, waiting at the same barrier.
     * Both sides name the mismatch within a second or two instead of waiting out the 30 s timeout.
     */
    @Test
    void anotherEngineAtTheBarrierUnderAnotherRunId_isNamedOnBothSidesAtOnce_notAfterTheTimeout() throws Exception {
        HashTree plan = twoThreadsOfTwoEngines("rv-mismatch", "30000");
        ExecutorService otherThread = Executors.newSingleThreadExecutor();
        try (Rendezvous otherEngine = new Rendezvous(settings(), "run-made-up", false, "made up by the engine itself",
                "engine-other", 7)) {
            Future<Rendezvous.Passage> otherWait = otherThread.submit(() -> otherEngine.await("start", 1, 4, 30_000, true));

            Logged logged = runLogged(plan, "rv-given");

            RunSummary summary = JvmRun.lastSummary();
            assertThat(logged.run.elapsed()).as("named at once, not after the 30 s timeout").isLessThan(Duration.ofSeconds(10));
            assertThat(summary.count(Count.RENDEZVOUS_TIMEOUTS)).isZero();
            assertThat(summary.count(Count.RENDEZVOUS_FAILURES)).isEqualTo(1);
            assertThat(summary.failures).filteredOn(row -> row.kind == FailureTally.Kind.RENDEZVOUS).singleElement()
                    .satisfies(row -> assertThat(row.reason)
                    .contains("engine-other").contains("run-made-up").contains("made up by the engine itself")
                    .contains(summary.engineId).contains("rv-given").contains("property mqttload.runId"));
            assertThat(logged.rendezvousErrors).singleElement().asString().contains("'start' cannot work")
                    .contains("engine-other").contains("run-made-up")
                    .contains("stopping the test");

            Rendezvous.Passage other = otherWait.get(10, TimeUnit.SECONDS);
            assertThat(other.released).isFalse();
            assertThat(other.barrier.mismatch()).as("the other engine heard of this one too")
                    .contains(summary.engineId).contains("rv-given").contains("engine-other").contains("run-made-up");
        } finally {
            otherThread.shutdownNow();
        }
    }

    /**
     * Two runs whose ids were both given on purpose may share a broker and barrier names: the other run is not
     * taken for a mistake, only named in the timeout's message, where it helps to find a mistyped id.
     */
    @Test
    void anotherRunWhoseIdWasGivenToo_isNotAMismatch_butNamedWhenTheBarrierTimesOut() throws Exception {
        HashTree plan = twoThreadsOfTwoEngines("rv-two-runs", "2000");
        ExecutorService otherThread = Executors.newSingleThreadExecutor();
        try (Rendezvous otherRun = new Rendezvous(settings(), "rv-other-given", true, "property mqttload.runId",
                "engine-other", 7)) {
            Future<Rendezvous.Passage> otherWait = otherThread.submit(() -> otherRun.await("start", 1, 4, 20_000, true));

            Logged logged = runLogged(plan, "rv-this-given");

            assertThat(JvmRun.lastSummary().count(Count.RENDEZVOUS_TIMEOUTS)).isEqualTo(1);
            assertThat(logged.run.byLabel("publish pub")).as("CONTINUE after the timeout").hasSize(2);
            assertThat(logged.rendezvousErrors).singleElement().asString().contains("timed out after 2000 ms")
                    .contains("arrived under other run ids")
                    .contains("engine-other (run rv-other-given)");
            assertThat(otherWait.isDone()).as("the other run still waits for its own engines").isFalse();
        } finally {
            otherThread.shutdownNow();
        }
    }

    /** Two threads at barrier "start" (CONTINUE on timeout) on an engine of two: only another engine can fill it. */
    private static HashTree twoThreadsOfTwoEngines(String name, String timeoutMs) {
        return PlanBuilder.testPlan(name).config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .threadGroup("pubs", 2, 1)
                .add(connect("pub", 1, "{engine}-" + name + "-{thread}"))
                .add(publish("pub", name + "/{thread}", 1, 1, "SYNC"), timer("0", timeoutMs, "CONTINUE"))
                .build();
    }

    /** A run with mqttload.engines=2, and the ERROR lines it logged about the rendezvous. */
    private Logged runLogged(HashTree plan, String runId) {
        return runLogged(plan, runId, 2);
    }

    private Logged runLogged(HashTree plan, String runId, int engines) {
        try (LogCapture log = LogCapture.start()) {
            RunResult run = run(plan, runId, engines);
            return new Logged(run, log.messagesAtLeast(ch.qos.logback.classic.Level.ERROR).stream()
                    .filter(e -> e.contains("rendezvous")).collect(Collectors.toList()));
        }
    }

    private static final class Logged {
        final RunResult run;
        final List<String> rendezvousErrors;

        Logged(RunResult run, List<String> rendezvousErrors) {
            this.run = run;
            this.rendezvousErrors = rendezvousErrors;
        }
    }

    private static ConnectionSettings settings() {
        return ConnectionSettings.builder().host("127.0.0.1").port(broker.tcpPort()).build();
    }
}
