package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * The fault matrix: real {@code jmeter -n} processes from the build's JMeter home (and, for the engine crash, two
 * {@code jmeter-server} engines and a controller), each meeting one fault: a rendezvous broker that is not there,
 * a broker down from the start, a broker killed mid-run and restarted or killed for good, InfluxDB down, an
 * engine killed with SIGKILL, JMeter's own StopTestNow, and the exit-code gate. For each, the verdict and failure
 * reasons in the written JSON, the process exit code, and an upper bound on the time to exit, from the start or
 * from the fault. A process still running at its bound is a hang: the failure carries its console, its log and a
 * {@code jstack} thread dump. The cases run two at a time (failsafe's JUnit configuration), each with its own broker,
 * folder and processes: the bounds must hold on a machine that is busy with other work.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Execution(ExecutionMode.CONCURRENT)
class FaultMatrixIT {
    private static final String HOST = "127.0.0.1";
    private static final int FAIL_EXIT_CODE = 3;

    /** Timed runs: production, and the plugin's bounded waits, kept short. */
    private static final int DURATION_SECONDS = 6;
    private static final long ACK_TIMEOUT_MS = 2_000;
    private static final long RENDEZVOUS_TIMEOUT_MS = 4_000;
    private static final long DRAIN_TIMEOUT_MS = 2_000;
    private static final long CLOSE_TIMEOUT_MS = 2_000;
    /** JVM start-up, JMeter's end of test (its 2 s check for remaining threads) and the exit, on 2 busy cores. */
    private static final Duration JVM_SLACK = Duration.ofSeconds(10);

    /** Runs that end by themselves: a few seconds of plan between JVM start-up and the bounded waits at the end. */
    private static final Duration START_TO_EXIT = Duration.ofSeconds(60);
    /**
     * From a fault in production to the exit: the rest of production, a barrier that cannot work ("production
     * over": subscribing bounded by its timeout, then waiting for its timeout), the last acknowledgement, drain
     * and close, and the JVM slack.
     */
    private static final Duration FAULT_TO_EXIT = Duration.ofSeconds(DURATION_SECONDS)
            .plusMillis(2 * RENDEZVOUS_TIMEOUT_MS + ACK_TIMEOUT_MS + DRAIN_TIMEOUT_MS + CLOSE_TIMEOUT_MS)
            .plus(JVM_SLACK);
    /** JMeter's StopTestNow interrupts the threads at once: the summary, the report and the exit follow. */
    private static final Duration STOP_TO_EXIT = Duration.ofSeconds(15);
    /**
     * The controller after the surviving engine has written its summary: the summary's way to the controller, the
     * controller's two failed probes of the killed engine 1 s apart (mqttload.engineCheckSeconds=1, 2 s timeout
     * each), the report, and the 5 s the controller leaves its listeners before it exits.
     */
    private static final Duration SURVIVOR_END_TO_CONTROLLER_EXIT = Duration.ofSeconds(30);
    /** Engines told to exit (-X) are gone a second or two later; engines.sh waits 30 s for them, as here. */
    private static final Duration SURVIVOR_EXIT = Duration.ofSeconds(30);

    private static final Pattern PROGRESS = Pattern.compile(
            "\\[mqtt \\S+\\]\\s+\\d+s \\S+\\s+connections (\\d+), published (\\d+)");

    @TempDir
    static Path dir;
    private static Path home;
    /** The broker of a case whose broker stays up: one per case, as the cases run two at a time. */
    private MosquittoBroker broker;
    private static final AtomicInteger ENGINE_NUMBER = new AtomicInteger(100);
    private static final List<String> OUTCOMES = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void findHome() throws IOException {
        MosquittoBroker.requireInstalled();
        home = JMeterEngines.homeFromBuild();
    }

    @BeforeEach
    void startBroker() {
        broker = mosquitto();
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @AfterAll
    static void printOutcomes() {
        // The measured times, for the build log: one line per case.
        OUTCOMES.forEach(System.out::println);
    }

    static Path faultPlan() {
        return Path.of(System.getProperty("project.basedir", "."), "src", "test", "resources", "fault-matrix.jmx");
    }

    static Path planFile(String name) {
        return Path.of(System.getProperty("project.basedir", "."), "plans", name);
    }

    @Test
    @Order(1)
    void rendezvousBrokerUnreachable_failedWithARendezvousRow_andTheFailExitCode() throws Exception {
        String runId = runId("rdv");
        Map<String, String> props = timedRun(runId, broker.tcpPort());
        props.put("rendezvous.host", HOST);
        props.put("rendezvous.port", Integer.toString(FreePorts.tcpPort()));
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        try (JMeterEngines.Headless run = start("rendezvous-unreachable", faultPlan(), props)) {
            Duration toExit = exitFromStartWithin(run, START_TO_EXIT);
            String summary = summary(run, runId);
            outcome("1 rendezvous unreachable", toExit, "start", run, summary);

            assertThat(run.exitCode()).as(run.output()).isEqualTo(FAIL_EXIT_CODE);
            assertThat(verdict(summary)).as(summary).isEqualTo("FAILED");
            assertThat(failures(summary)).as(summary).anySatisfy(f -> {
                assertThat(f.kind).isEqualTo("rendezvous");
                assertThat(f.reason).contains("cannot work").contains("connection refused");
            });
            assertThat(verdict(report(run, runId))).as(run.output()).isEqualTo("FAILED");
            assertThat(run.output()).contains("exiting with status " + FAIL_EXIT_CODE);
        }
    }

    @Test
    @Order(2)
    void brokerDownAtStart_noConnectionSucceeded_connectRowsSayConnectionRefused_nothingPublished() throws Exception {
        String runId = runId("down");
        Map<String, String> props = common(runId);
        props.put("mqtt.port", Integer.toString(FreePorts.tcpPort()));
        props.put("pairs", "2");
        props.put("samples", "5");
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        try (JMeterEngines.Headless run = start("broker-down-at-start", planFile("quickstart-p2p.jmx"), props)) {
            Duration toExit = exitFromStartWithin(run, START_TO_EXIT);
            String summary = summary(run, runId);
            outcome("2 broker down at start", toExit, "start", run, summary);

            assertThat(run.exitCode()).as(run.output()).isEqualTo(FAIL_EXIT_CODE);
            assertThat(verdict(summary)).as(summary).isEqualTo("FAILED");
            assertThat(string(summary, "verdictText")).as(summary).contains("no connection succeeded");
            assertThat(failures(summary)).as(summary).anySatisfy(f -> {
                assertThat(f.kind).isEqualTo("connect");
                assertThat(f.reason.toLowerCase(Locale.ROOT)).contains("connection refused");
            });
            assertThat(number(summary, "connectsOk")).as(summary).isZero();
            assertThat(number(summary, "published")).as(summary).isZero();
            assertThat(number(summary, "acknowledged")).as(summary).isZero();
        }
    }

    @Test
    @Order(3)
    void brokerKilledMidRunAndBack_runEndsByItself_failedWithConnectionLostRows_figuresKept() throws Exception {
        MosquittoBroker own = mosquitto();
        String runId = runId("back");
        Map<String, String> props = timedRun(runId, own.tcpPort());
        // Reconnects for about 10 s: the broker is back well within that.
        props.put("reconnectAttempts", "20");
        props.put("reconnectDelayMs", "200");
        props.put("reconnectMaxDelayMs", "500");
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        try (JMeterEngines.Headless run = start("broker-killed-and-back", faultPlan(), props)) {
            awaitPublished(run, 100);
            long faultNanos = System.nanoTime();
            own.stop();
            await("the engine sees its connections gone").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(200)).until(() -> lastConnections(run.output()) == 0);
            own.start();
            Duration toExit = exitWithin(run, faultNanos, FAULT_TO_EXIT, "from the broker's SIGTERM");
            String summary = summary(run, runId);
            outcome("3 broker killed and back", toExit, "fault", run, summary);

            assertThat(run.exitCode()).as(run.output()).isEqualTo(FAIL_EXIT_CODE);
            assertThat(verdict(summary)).as(summary).isEqualTo("FAILED");
            assertThat(failures(summary)).as(summary).anySatisfy(f -> assertThat(f.kind).isEqualTo("connection lost"));
            assertThat(string(summary, "verdictText")).as(summary).contains("connection(s) lost");
            assertThat(number(summary, "connectionsLost")).as(summary).isPositive();
            assertThat(number(summary, "acknowledged")).as("figures kept: " + summary).isPositive();
            assertThat(number(summary, "received")).as("figures kept: " + summary).isPositive();
            assertThat(number(summary, "reconnects")).as("the clients came back to the restarted broker: " + summary)
                    .isPositive();
        } finally {
            own.close();
        }
    }

    @Test
    @Order(4)
    void brokerKilledForGood_boundedExit_failed() throws Exception {
        MosquittoBroker own = mosquitto();
        String runId = runId("gone");
        Map<String, String> props = timedRun(runId, own.tcpPort());
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        try (JMeterEngines.Headless run = start("broker-killed-for-good", faultPlan(), props)) {
            awaitPublished(run, 100);
            long faultNanos = System.nanoTime();
            own.stop();
            Duration toExit = exitWithin(run, faultNanos, FAULT_TO_EXIT, "from the broker's SIGTERM");
            String summary = summary(run, runId);
            outcome("4 broker killed for good", toExit, "fault", run, summary);

            assertThat(run.exitCode()).as(run.output()).isEqualTo(FAIL_EXIT_CODE);
            assertThat(verdict(summary)).as(summary).isEqualTo("FAILED");
            assertThat(failures(summary)).as(summary).anySatisfy(f -> assertThat(f.kind).isEqualTo("connection lost"));
            assertThat(number(summary, "acknowledged")).as("figures kept: " + summary).isPositive();
            assertThat(number(summary, "reconnects")).as(summary).isZero();
            assertThat(verdict(report(run, runId))).as(run.output()).isEqualTo("FAILED");
        } finally {
            own.close();
        }
    }

    @Test
    @Order(5)
    void influxDbDownForTheWholeRun_noLoss_exitZero_pointsCountedDropped() throws Exception {
        String runId = runId("influx");
        Map<String, String> props = timedRun(runId, broker.tcpPort());
        props.put("durationSeconds", "3");
        // MQTT Metrics and the Run Report both take their URL from influx.url: nothing listens there.
        props.put("influx.url", "http://" + HOST + ":" + FreePorts.tcpPort());
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        try (JMeterEngines.Headless run = start("influxdb-down", faultPlan(), props)) {
            Duration toExit = exitFromStartWithin(run, START_TO_EXIT);
            String summary = summary(run, runId);
            outcome("5 InfluxDB down", toExit, "start", run, summary);

            assertThat(run.exitCode()).as("InfluxDB is not the broker under test: " + run.output()).isZero();
            assertThat(verdict(summary)).as(summary).isEqualTo("NO_LOSS");
            assertThat(verdict(report(run, runId))).as(run.output()).isEqualTo("NO_LOSS");
            assertThat(number(summary, "metricPointsDropped")).as(summary).isPositive();
            assertThat(number(summary, "metricPointsWritten")).as(summary).isZero();
            assertThat(number(summary, "acknowledged")).as(summary).isPositive();
        }
    }

    @Test
    @Order(6)
    void engineKilledMidRun_controllerEndsByItself_incompleteNamingTheEngine_survivorsFiguresKept() throws Exception {
        String runId = runId("crash");
        Path engineResults = dir.resolve("crash-engine-results");
        Path controllerResults = dir.resolve("crash-controller-results");
        Map<String, String> global = new LinkedHashMap<>();
        global.put("mqtt.host", HOST);
        global.put("mqtt.port", Integer.toString(broker.tcpPort()));
        global.put("partitions", "2");
        global.put("publishersPerPartition", "3");
        global.put("durationSeconds", Integer.toString(DURATION_SECONDS));
        // The survivor waits at "production over" for the dead engine's threads this long, then ends its run.
        global.put("rendezvousTimeoutMs", Long.toString(RENDEZVOUS_TIMEOUT_MS));
        global.put("mqttload.engines", "2");
        global.put("mqttload.runId", runId);
        global.put("mqttload.resultsDir", engineResults.toString());
        global.put("mqttload.progressSeconds", "1");
        global.put("mqttload.drainTimeoutMs", Long.toString(DRAIN_TIMEOUT_MS));
        global.put("mqttload.closeTimeoutMs", Long.toString(CLOSE_TIMEOUT_MS));
        Map<String, String> local = new LinkedHashMap<>();
        local.put("mqttload.resultsDir", controllerResults.toString());
        local.put("mqttload.engineCheckSeconds", "1");
        local.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        // RMI without SSL: loopback only, and it spares the keystore; the fault is the same.
        try (JMeterEngines engines = JMeterEngines.start(home, dir.resolve("engines"), 2, false,
                Duration.ofSeconds(90));
                JMeterEngines.Headless controller = engines.startController(DistributedMqttIT.plan(), global, local)) {
            JMeterEngines.Engine survivor = engines.engines().get(0);
            JMeterEngines.Engine victim = engines.engines().get(1);
            await("both engines in production").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        if (!controller.isAlive()) {
                            throw new IllegalStateException("the controller exited early:\n" + controller.output());
                        }
                        return published(survivor.output()) >= 100 && published(victim.output()) >= 100;
                    });
            long killNanos = System.nanoTime();
            victim.kill();

            Path survivorSummary = engineResults.resolve("summary-" + runId + "-engine-1.json");
            await("the surviving engine ends its run and writes its summary")
                    .atMost(FAULT_TO_EXIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> Files.exists(survivorSummary));
            long survivorEndNanos = System.nanoTime();
            Duration afterSurvivor = exitWithin(controller, survivorEndNanos, SURVIVOR_END_TO_CONTROLLER_EXIT,
                    "from the survivor's summary");
            Duration afterKill = Duration.ofNanos(System.nanoTime() - killNanos);
            Path reportFile = controllerResults.resolve("report-" + runId + ".json");
            String report = Files.exists(reportFile) ? Files.readString(reportFile, StandardCharsets.UTF_8) : "";
            outcome("6 engine SIGKILL (controller)", afterSurvivor, "survivor's end; " + afterKill.toMillis()
                    + " ms from the kill", controller, report);
            long controllerExitNanos = System.nanoTime();
            boolean survivorExited = survivor.awaitExit(SURVIVOR_EXIT);
            OUTCOMES.add(String.format(Locale.ROOT, "fault matrix %-58s %s", "6 surviving engine after the controller",
                    survivorExited ? String.format(Locale.ROOT, "exited after %.1f s",
                            (System.nanoTime() - controllerExitNanos) / 1e9)
                            : "STILL RUNNING " + SURVIVOR_EXIT.toSeconds() + " s after the controller exited"));

            assertThat(reportFile).as(controller.output()).exists();
            assertThat(controller.exitCode()).as(controller.output()).isEqualTo(FAIL_EXIT_CODE);
            assertThat(verdict(report)).as(report).isEqualTo("INCOMPLETE");
            assertThat(string(report, "missingEngines")).as(report).contains(victim.host());
            assertThat(string(report, "verdictText")).as(report).contains(victim.host());
            assertThat(tree(report).path("engineSummaries").fieldNames()).toIterable().as("the survivor's figures")
                    .containsExactly("engine-1");
            assertThat(number(report, "acknowledged")).as("the survivor's figures: " + report).isPositive();
            assertThat(number(report, "received")).as("the survivor's figures: " + report).isPositive();
            // The merged barrier counts are the engines' own: the dead engine's threads passed 'start' before it died.
            JsonNode survivorStart = null;
            for (JsonNode b : tree(Files.readString(survivorSummary, StandardCharsets.UTF_8)).path("rendezvous")) {
                if (b.path("name").asText().equals("start")) {
                    survivorStart = b;
                }
            }
            assertThat(survivorStart).as("the survivor's 'start' barrier").isNotNull();
            assertThat(tree(report).path("rendezvous").path("start #1").path("arrived").asInt()).as(report)
                    .isEqualTo(survivorStart.path("arrivedAtRelease").asInt()).isEqualTo(4);
            assertThat(controller.output()).contains(victim.host());
            // The controller ran with -X, as engines.sh run does: like every other run, the engines that are left
            // must exit after it, or engines.sh fails its bounded wait ("still running: use stop").
            assertThat(survivorExited).as("the surviving engine exits after the controller (-X); its log ends:\n"
                    + tail(survivor.log(), 3_000)).isTrue();
        }
    }

    @Test
    @Order(7)
    void stopTestNowOverJMetersShutdownPort_boundedExit_summaryStillWritten() throws Exception {
        String runId = runId("stop");
        int udpPort = freeUdpPort();
        Map<String, String> props = timedRun(runId, broker.tcpPort());
        props.put("durationSeconds", "120");
        props.put("jmeterengine.nongui.port", Integer.toString(udpPort));
        props.put("jmeterengine.nongui.maxport", Integer.toString(udpPort));
        try (JMeterEngines.Headless run = start("stop-test-now", faultPlan(), props)) {
            awaitPublished(run, 100);
            assertThat(run.output()).as("JMeter listens for StopTestNow on the port given")
                    .contains("message on port " + udpPort);
            long stopNanos = System.nanoTime();
            // What bin/stoptest.sh does: "StopTestNow" in one UDP datagram to the loopback port.
            try (DatagramSocket socket = new DatagramSocket()) {
                byte[] command = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
                socket.send(new DatagramPacket(command, command.length, InetAddress.getByName(HOST), udpPort));
            }
            Duration toExit = exitWithin(run, stopNanos, STOP_TO_EXIT, "from StopTestNow");
            String summary = summary(run, runId);
            outcome("7 StopTestNow", toExit, "StopTestNow", run, summary);

            assertThat(run.output()).contains("Command: StopTestNow received");
            assertThat(run.exitCode()).as("no mqttload.failExitCode: JMeter's own status. " + run.output()).isZero();
            // Cut short by the user: never a plain pass, and the summary says when (issue 27, point 8).
            assertThat(verdict(summary)).as(summary).isEqualTo("STOPPED");
            assertThat(number(summary, "stoppedAtMillis")).as(summary).isPositive();
            assertThat(number(summary, "acknowledged")).as(summary).isPositive();
            assertThat(verdict(report(run, runId))).as(run.output()).isEqualTo(verdict(summary));
        }
    }

    @Test
    @Order(8)
    void exitCodeGate_passingRunWithFailExitCodeExitsZero() throws Exception {
        String runId = runId("pass");
        Map<String, String> props = timedRun(runId, broker.tcpPort());
        props.put("durationSeconds", "2");
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        try (JMeterEngines.Headless run = start("passing-run", faultPlan(), props)) {
            Duration toExit = exitFromStartWithin(run, START_TO_EXIT);
            String summary = summary(run, runId);
            outcome("8a passing run", toExit, "start", run, summary);

            assertThat(verdict(summary)).as(summary).isEqualTo("NO_LOSS");
            assertThat(run.exitCode()).as(run.output()).isZero();
            assertThat(run.output()).doesNotContain("exiting with status");
        }
    }

    /** Connections only: NOTHING_TO_CHECK passes only when passVerdicts names it (the two runs go side by side). */
    @Test
    @Order(9)
    void exitCodeGate_connectionOnlyPlan_passesWithNothingToCheckInPassVerdicts_failsWithout() throws Exception {
        String passRun = runId("idle-pass");
        String failRun = runId("idle-fail");
        Map<String, String> pass = idleRun(passRun);
        pass.put("mqttload.passVerdicts", "NO_LOSS,NOTHING_TO_CHECK");
        Map<String, String> strict = idleRun(failRun);
        Path plan = planFile("rabbitmq-idle-connections.jmx");
        try (JMeterEngines.Headless withPass = start("idle-pass-verdicts", plan, pass);
                JMeterEngines.Headless without = start("idle-default-pass-verdicts", plan, strict)) {
            Duration passExit = exitFromStartWithin(withPass, START_TO_EXIT);
            Duration strictExit = exitFromStartWithin(without, START_TO_EXIT);
            String passSummary = summary(withPass, passRun);
            String strictSummary = summary(without, failRun);
            outcome("8b connection-only, passVerdicts=NO_LOSS,NOTHING_TO_CHECK", passExit, "start", withPass,
                    passSummary);
            outcome("8c connection-only, default passVerdicts", strictExit, "start", without, strictSummary);

            assertThat(verdict(passSummary)).as(passSummary).isEqualTo("NOTHING_TO_CHECK");
            assertThat(withPass.exitCode()).as(withPass.output()).isZero();
            assertThat(verdict(strictSummary)).as(strictSummary).isEqualTo("NOTHING_TO_CHECK");
            assertThat(without.exitCode()).as("NOTHING_TO_CHECK is not in the default NO_LOSS: " + without.output())
                    .isEqualTo(FAIL_EXIT_CODE);
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private static JMeterEngines.Headless start(String name, Path plan, Map<String, String> props)
            throws IOException {
        Path runDir = dir.resolve(name);
        Map<String, String> all = new LinkedHashMap<>(props);
        all.putIfAbsent("mqttload.resultsDir", runDir.resolve("results").toString());
        return JMeterEngines.startLocal(home, runDir, name, plan, all);
    }

    /** What every stand-alone run sets: its own engine id, number and run id, progress every second. */
    private static Map<String, String> common(String runId) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("mqtt.host", HOST);
        props.put("mqttload.runId", runId);
        props.put("mqttload.engineId", "engine-fm");
        props.put("mqttload.engineNumber", Integer.toString(ENGINE_NUMBER.incrementAndGet()));
        props.put("mqttload.progressSeconds", "1");
        props.put("mqttload.drainTimeoutMs", Long.toString(DRAIN_TIMEOUT_MS));
        props.put("mqttload.closeTimeoutMs", Long.toString(CLOSE_TIMEOUT_MS));
        return props;
    }

    /** The fault plan, small: 2 partitions of 3 publishers, 200 msg/s in all, short timeouts. */
    private static Map<String, String> timedRun(String runId, int port) {
        Map<String, String> props = common(runId);
        props.put("mqtt.port", Integer.toString(port));
        props.put("partitions", "2");
        props.put("publishersPerPartition", "3");
        props.put("durationSeconds", Integer.toString(DURATION_SECONDS));
        props.put("ackTimeoutMs", Long.toString(ACK_TIMEOUT_MS));
        props.put("rendezvousTimeoutMs", Long.toString(RENDEZVOUS_TIMEOUT_MS));
        return props;
    }

    private Map<String, String> idleRun(String runId) {
        Map<String, String> props = common(runId);
        props.put("mqtt.port", Integer.toString(broker.tcpPort()));
        props.put("partitions", "1");
        props.put("connectionsPerThread", "5");
        props.put("idleSeconds", "1");
        props.put("rendezvousTimeoutMs", Long.toString(RENDEZVOUS_TIMEOUT_MS));
        props.put("mqttload.failExitCode", Integer.toString(FAIL_EXIT_CODE));
        return props;
    }

    private static String runId(String what) {
        return "fm-" + what + "-" + Long.toString(System.currentTimeMillis(), 36);
    }

    /** {@link #exitWithin} counted from the start of the process. */
    private static Duration exitFromStartWithin(JMeterEngines.Headless run, Duration bound)
            throws InterruptedException {
        return exitWithin(run, System.nanoTime() - run.sinceStart().toNanos(), bound, "from start");
    }

    /**
     * Waits until the process has exited, at most until {@code bound} after {@code fromNanos} ({@link System#nanoTime}),
     * and returns the time it took. Still running then: fails with its console, log and a thread dump.
     */
    private static Duration exitWithin(JMeterEngines.Headless run, long fromNanos, Duration bound, String from)
            throws InterruptedException {
        Duration left = bound.minusNanos(System.nanoTime() - fromNanos);
        if (!run.awaitExit(left.isNegative() ? Duration.ZERO : left)) {
            String dump = threadDump(run.pid());
            OUTCOMES.add(String.format(Locale.ROOT, "%s: STILL RUNNING %s %s", run.name, bound, from));
            fail(run.name + " (pid " + run.pid() + ") still running " + bound.toSeconds() + " s " + from
                    + "\n--- console ---\n" + tail(run.output()) + "\n--- jmeter.log ---\n" + tail(run.log())
                    + "\n--- jstack ---\n" + dump);
        }
        return Duration.ofNanos(System.nanoTime() - fromNanos);
    }

    private static void awaitPublished(JMeterEngines.Headless run, long messages) {
        await(run.name + ": production under way").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!run.isAlive()) {
                        throw new IllegalStateException(run.name + " exited early with " + run.exitCode() + ":\n"
                                + run.output());
                    }
                    return published(run.output()) >= messages;
                });
    }

    /** The highest "published" of the plugin's progress lines. */
    static long published(String output) {
        Matcher m = PROGRESS.matcher(output);
        long max = 0;
        while (m.find()) {
            max = Math.max(max, Long.parseLong(m.group(2)));
        }
        return max;
    }

    /** Open connections in the last progress line; -1 before the first one. */
    static long lastConnections(String output) {
        Matcher m = PROGRESS.matcher(output);
        long last = -1;
        while (m.find()) {
            last = Long.parseLong(m.group(1));
        }
        return last;
    }

    private static String summary(JMeterEngines.Headless run, String runId) throws IOException {
        Path file = dir.resolve(run.name).resolve("results").resolve("summary-" + runId + "-engine-fm.json");
        assertThat(file).as("the engine summary; console:\n" + run.output()).exists();
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static String report(JMeterEngines.Headless run, String runId) throws IOException {
        Path file = dir.resolve(run.name).resolve("results").resolve("report-" + runId + ".json");
        assertThat(file).as("the run report; console:\n" + run.output()).exists();
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + e.getMessage() + "\n" + json, e);
        }
    }

    /** The run's verdict, or the engine's in an engine summary. */
    static String verdict(String json) {
        return tree(json).path("verdict").asText();
    }

    /** The first field {@code name} of the JSON, depth first (totals come before per-engine and per-sampler parts). */
    static String string(String json, String name) {
        JsonNode value = tree(json).findValue(name);
        assertThat(value).as(name + " in " + json).isNotNull();
        return value.isValueNode() ? value.asText() : value.toString();
    }

    /** The first number {@code name} of the JSON, depth first (the totals' counts). */
    static long number(String json, String name) {
        JsonNode value = tree(json).findValue(name);
        assertThat(value).as(name + " in " + json).isNotNull();
        assertThat(value.isNumber()).as(name + " is a number in " + json).isTrue();
        return value.asLong();
    }

    /** The rows of the JSON's "failures" array. */
    static List<Failure> failures(String json) {
        JsonNode array = tree(json).path("failures");
        assertThat(array.isArray()).as("failures in " + json).isTrue();
        List<Failure> rows = new ArrayList<>();
        for (JsonNode f : array) {
            rows.add(new Failure(f.path("sampler").asText(), f.path("kind").asText(), f.path("reason").asText(),
                    f.path("count").asLong()));
        }
        return rows;
    }

    /** One row of a "failures" array. */
    static final class Failure {
        final String sampler;
        final String kind;
        final String reason;
        final long count;

        Failure(String sampler, String kind, String reason, long count) {
            this.sampler = sampler;
            this.kind = kind;
            this.reason = reason;
            this.count = count;
        }

        @Override
        public String toString() {
            return count + " x " + kind + " in '" + sampler + "': " + reason;
        }
    }

    private static void outcome(String name, Duration toExit, String from, JMeterEngines.Headless run, String json) {
        String verdict = json.isEmpty() ? "(no JSON)" : verdict(json);
        OUTCOMES.add(String.format(Locale.ROOT, "fault matrix %-58s exit %3d after %6.1f s from %s, verdict %s", name,
                run.exitCode(), toExit.toMillis() / 1000.0, from, verdict));
    }

    private static String threadDump(long pid) {
        Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
        try {
            Path out = Files.createTempFile(dir, "jstack-" + pid + "-", ".txt");
            Process p = new ProcessBuilder(jstack.toString(), Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "jstack failed: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while jstack ran";
        }
    }

    private static String tail(String text) {
        return tail(text, 20_000);
    }

    private static String tail(String text, int max) {
        return text.length() <= max ? text : "...\n" + text.substring(text.length() - max);
    }

    /** Mosquitto with unbounded queues; stopped with SIGTERM and restartable on its port. */
    private static MosquittoBroker mosquitto() {
        return MosquittoBroker.builder().withSetting("max_queued_messages 0").start();
    }


    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

}
