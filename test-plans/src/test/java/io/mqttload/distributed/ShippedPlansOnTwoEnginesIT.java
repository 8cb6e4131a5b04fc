package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * Every shipped plan as a user runs it on several engines: two jmeter-server engines started with ports only, one
 * controller with {@code -R}, the broker's address and the plan's own size properties (no run id, engine number or
 * engine count), one plan after the other on the same engines.
 * Each run is one run id over engines 1 and 2 of two, its clocks measured through the plan's broker (with or without
 * a rendezvous in the plan), merged, with the true verdict: no message is lost on a healthy broker, and every
 * engine's figures add up to the merged ones. The plans are those of {@code plans/}, listed from the folder.
 * <p>
 * Sizes are made small through properties each plan reads ({@link #SMALL}, a second or two of production, tens of
 * clients): what is checked here is the run over engines, the same for 10 clients as for 400, and the defaults' exact
 * counts are ScenarioPlansIT's, on one engine. The plans' defaults had each run take about 20 s here, 33 s in CI beside
 * the other forks; a plan without an entry runs at its defaults. Two plans run at a time, each on a setup of its own
 * (a broker and two engines, taken from {@link #setups} for the run and given back after it), as the runs mostly wait:
 * for JVMs, barriers, drains and JMeter's own 5 s pause at a distributed run's end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Execution(ExecutionMode.CONCURRENT)
class ShippedPlansOnTwoEnginesIT {
    private static final Pattern CONTROLLER_GIVES = Pattern.compile("this controller gives its engines run id ([^,\\s]+)");
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);
    /**
     * Plans whose subscribers on one engine also receive the other engine's publishers (one shared subscription
     * group over both engines): what is owed across engines is the cross-engine ledger's to decide, so these may be
     * uncertain, never LOSS.
     */
    private static final Set<String> CROSSING = Set.of("emq-sharedsub");
    /** Connection plans publish nothing: their true verdict is that there was nothing to check. */
    private static final Set<String> CONNECTIONS_ONLY = Set.of("emq-conn-rate", "rabbitmq-idle-connections");

    /**
     * Per plan, the {@code -G} sizes that shorten its run: fewer samples or seconds of production, fewer clients. Each
     * is a property the plan reads ({@code ${__P(name,...)}}, checked before the run: JMeter ignores any other).
     */
    private static final Map<String, Map<String, String>> SMALL = Map.ofEntries(
            Map.entry("emq-conn-rate", Map.of("connectionsPerThread", "50", "holdSeconds", "1")),
            // On their own schedule a sample is one second: samples count seconds, the rate keeps a thread's messages.
            Map.entry("emq-fanout", Map.of("samples", "1", "subscribersPerPartition", "20")),
            // Its own schedule: one sample is one second; 10 msg/s per publisher keeps the 100 messages a thread sent.
            Map.entry("emq-p2p", Map.of("samples", "1", "publishRate", "10", "pairsPerThread", "10")),
            Map.entry("emq-sharedsub", Map.of("samples", "1", "publishRate", "10", "publishersPerPartition", "10")),
            Map.entry("jorammq-multi-publisher",
                    Map.of("samples", "1", "publishRate", "10", "publishersPerPartition", "40")),
            Map.entry("jorammq-multi-subscriber",
                    Map.of("samples", "1", "deviceRate", "5", "devicesPerPartition", "20")),
            Map.entry("jorammq-multi-subscription", Map.of("samples", "1")),
            Map.entry("mqtt-bm-latency", Map.of("samples", "3", "pairs", "4")),
            Map.entry("multi-publisher", Map.of("durationSeconds", "2", "publishersPerPartition", "5")),
            Map.entry("quickstart-p2p", Map.of("samples", "1")),
            Map.entry("rabbitmq-idle-connections", Map.of("connectionsPerThread", "50", "idleSeconds", "1")),
            Map.entry("rabbitmq-one-to-one", Map.of("samples", "1", "publishRate", "20", "pairsPerThread", "10")),
            Map.entry("scalagent-multi-publisher",
                    Map.of("samples", "1", "publishRate", "5", "publishersPerPartition", "20")),
            // The probe keeps its own schedule (10 msg/s): a sample is one second of it.
            Map.entry("stress-max-rate", Map.of("samples", "5", "subscribersPerPartition", "5", "probeSamples", "1")));

    /** As many as the cases JUnit runs at a time (junit.jupiter.execution.parallel.config.fixed.parallelism). */
    private static final int SETUPS = 2;

    /** One broker, with two engines that know only their ports, and the folder their summaries go to. */
    private static final class Setup {
        final MosquittoBroker broker;
        final JMeterEngines engines;
        final Path dir;

        Setup(MosquittoBroker broker, JMeterEngines engines, Path dir) {
            this.broker = broker;
            this.engines = engines;
            this.dir = dir;
        }
    }

    private final List<Setup> all = new ArrayList<>();
    private final BlockingQueue<Setup> setups = new ArrayBlockingQueue<>(SETUPS);

    /** Every plan in {@code plans/}, by name, sorted: a plan added there is run here without a change. */
    static List<String> shippedPlans() {
        try (Stream<Path> files = Files.list(plans())) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".jmx"))
                    .map(n -> n.substring(0, n.length() - ".jmx".length())).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path plans() {
        return Path.of(System.getProperty("project.basedir", "."), "plans");
    }

    @BeforeAll
    void start(@TempDir Path tempDir) throws Exception {
        MosquittoBroker.requireInstalled();
        for (int n = 1; n <= SETUPS; n++) {
            Path dir = tempDir.resolve("setup-" + n);
            // Unlimited queues: Mosquitto's default of 1000 drops QoS 1/2 messages of a subscriber that falls behind.
            MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 0").start();
            JMeterEngines engines;
            try {
                engines = JMeterEngines.startWithoutIdentity(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 2,
                        false, Duration.ofSeconds(90), Map.of("mqttload.resultsDir", dir.resolve("results").toString()));
            } catch (RuntimeException | IOException e) {
                broker.close();
                throw e;
            }
            Setup setup = new Setup(broker, engines, dir);
            all.add(setup);
            setups.add(setup);
        }
    }

    @AfterAll
    void stop() {
        for (Setup setup : all) {
            setup.engines.close();
            setup.broker.close();
        }
    }

    @ParameterizedTest
    @MethodSource("shippedPlans")
    void plan_onTwoEnginesStartedWithR_oneRunMergedWithNoLoss(String plan) throws Exception {
        Setup setup = setups.take();
        try {
            check(plan, setup);
        } finally {
            setups.add(setup);
        }
    }

    private void check(String plan, Setup setup) throws Exception {
        MosquittoBroker broker = setup.broker;
        JMeterEngines engines = setup.engines;
        Path dir = setup.dir;
        Path jmx = plans().resolve(plan + ".jmx");
        Path reports = dir.resolve("controller").resolve(plan);
        Map<String, String> small = SMALL.getOrDefault(plan, Map.of());
        String planText = Files.readString(jmx, StandardCharsets.UTF_8);
        assertThat(small.keySet()).as("%s reads the sizes given to it", plan)
                .allSatisfy(p -> assertThat(planText).contains("__P(" + p + ","));
        Map<String, String> global = new HashMap<>(small);
        global.putAll(Map.of("mqtt.host", JMeterEngines.HOST, "mqtt.port", Integer.toString(broker.tcpPort())));
        JMeterEngines.Run run = engines.run(jmx, global, Map.of("mqttload.resultsDir", reports.toString()), RUN_TIMEOUT,
                false);

        Matcher given = CONTROLLER_GIVES.matcher(run.output);
        assertThat(given.find()).as("%s: the controller names the run id it gives: %s", plan, run.output).isTrue();
        String runId = given.group(1);
        assertThat(run.output).as(plan).contains("gives its engines run id " + runId + ", 2 engine(s)")
                .contains("MQTT run " + runId + "  scenario ").contains("  engines 2")
                .doesNotContain("summaries of different runs")
                // Measured through the plan's broker whether or not the plan has a rendezvous (the quick start has none).
                .contains("clock offsets (engine clock minus engine-1's").doesNotContain("clock offsets: not measured");

        assertThat(engines.engines()).allSatisfy(e -> assertThat(e.output()).as(plan).contains("run id " + runId
                + " (given by the controller that started the engines)").contains("2 engine(s) (given by the controller)"));
        List<EngineSummary> summaries = engineSummaries(dir, runId);
        assertThat(summaries).as(plan).extracting(s -> s.engineNumber).containsExactlyInAnyOrder(1, 2);
        assertThat(summaries).as(plan).extracting(s -> s.engineId).containsExactlyInAnyOrder("engine-1", "engine-2");
        ReportFigures report = SummaryJson.readReport(Files.readString(reports.resolve("report-" + runId + ".json"),
                StandardCharsets.UTF_8));
        assertThat(report.count(Count.CONNECTS_FAILED)).as(plan + " connect failures").isZero();
        assertThat(report.count(Count.PUBLISH_FAILED)).as(plan + " publish failures").isZero();
        assertThat(report.count(Count.DUPLICATES)).as(plan + " duplicates").isZero();
        assertThat(report.count(Count.CONNECTS_OK)).as(plan + ": the engines' connects add up")
                .isEqualTo(summaries.stream().mapToLong(s -> s.count(Count.CONNECTS_OK)).sum()).isPositive();
        if (CONNECTIONS_ONLY.contains(plan)) {
            assertThat(report.verdict).as(report.verdictText).isEqualTo(Verdict.NOTHING_TO_CHECK);
            return;
        }
        assertThat(report.count(Count.EXPECTED)).as(plan + " expected").isPositive();
        assertThat(report.count(Count.PUBLISHED)).as(plan + ": the engines' publishes add up")
                .isEqualTo(summaries.stream().mapToLong(s -> s.count(Count.PUBLISHED)).sum());
        if (CROSSING.contains(plan)) {
            assertThat(report.verdict).as(report.verdictText).isIn(Verdict.NO_LOSS, Verdict.LOSS_UNCERTAIN);
        } else {
            assertThat(report.verdict).as(report.verdictText).isEqualTo(Verdict.NO_LOSS);
            assertThat(report.count(Count.RECEIVED_OF_EXPECTED)).as(plan + " received").isEqualTo(report.count(Count.EXPECTED));
            // Nothing crosses engines in these plans: what each engine owes itself is the whole run's.
            assertThat(report.count(Count.EXPECTED)).as(plan + ": the engines' expected add up")
                    .isEqualTo(summaries.stream().mapToLong(s -> s.count(Count.EXPECTED)).sum());
        }
    }

    private static List<EngineSummary> engineSummaries(Path dir, String runId) throws IOException {
        List<EngineSummary> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("results"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("summary-" + runId + "-")
                    && f.getFileName().toString().endsWith(".json")).collect(Collectors.toList())) {
                all.add(SummaryJson.readEngineSummary(Files.readString(file, StandardCharsets.UTF_8)));
            }
        }
        return all;
    }
}
