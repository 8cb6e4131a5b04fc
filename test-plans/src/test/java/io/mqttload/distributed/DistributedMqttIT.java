package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.measure.Count;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * Plans in JMeter's distributed mode: two real jmeter-server engines over SSL RMI,
 * a controller with {@code -R}, a real Mosquitto. Every thread of both engines meets at the start
 * barrier, the subscribers of each engine also receive the other engine's partitions, and the run
 * report merged on the controller checks every delivery across engines exactly.
 */
class DistributedMqttIT {
    private static final int ENGINES = 2;
    private static final int PARTITIONS = 2;
    private static final int PUBLISHERS = 10;

    static Path plan() {
        return Path.of(System.getProperty("project.basedir", "."), "plans", "multi-publisher.jmx");
    }

    @Test
    void twoEngines_barrierReleasesEveryThread_andTheMergedReportFindsNoLossAcrossEngines(@TempDir Path dir)
            throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = mosquitto(); InfluxDbServer influx = InfluxDbServer.start();
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), ENGINES,
                true, Duration.ofSeconds(90))) {
            int port = broker.tcpPort();
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            String runId = "dist-it-" + Long.toString(System.currentTimeMillis(), 36);
            Path engineResults = dir.resolve("engine-results");
            Path controllerResults = dir.resolve("controller-results");
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", "127.0.0.1"), Map.entry("mqtt.port", Integer.toString(port)),
                    Map.entry("partitions", Integer.toString(PARTITIONS)),
                    Map.entry("publishersPerPartition", Integer.toString(PUBLISHERS)),
                    Map.entry("publishRate", "10"), Map.entry("durationSeconds", "4"), Map.entry("qos", "1"),
                    // Thread N's subscriber on each engine takes partition N of both engines.
                    Map.entry("subscriberFilter", "S/+/{thread}/#"),
                    // No mqttload.engines: the controller gives the engines its -R list's count, which the barrier
                    // waits for (its group size is asserted below).
                    Map.entry("mqttload.runId", runId),
                    Map.entry("mqttload.resultsDir", engineResults.toString()),
                    Map.entry("mqttload.progressSeconds", "0"), Map.entry("influx.url", influx.url()));

            // The controller reads the Run Report's ${__P(influx.url,)} from its own properties.
            JMeterEngines.Run run = engines.run(plan(), global, Map.of("mqttload.resultsDir",
                    controllerResults.toString(), "influx.url", influx.url()), Duration.ofSeconds(180));

            assertThat(run.exitCode).as(run.output).isZero();
            assertThat(engines.awaitExit(Duration.ofSeconds(30))).as("engines exit after the run").isTrue();
            assertThat(run.output).contains("verdict (all engines): NO LOSS");
            String report = Files.readString(controllerResults.resolve("report-" + runId + ".json"),
                    StandardCharsets.UTF_8);
            // The controller's merged report in the build log: what a user of the two engines would see.
            System.out.print(Files.readString(controllerResults.resolve("report-" + runId + ".txt"),
                    StandardCharsets.UTF_8));
            ReportFigures figures = SummaryJson.readReport(report);
            assertThat(figures.engines).isEqualTo(ENGINES);
            assertThat(figures.engineSummaries).containsOnlyKeys("engine-1", "engine-2");
            assertThat(figures.missingEngines).as(report).isEmpty();

            // Every message acknowledged by the broker is owed to the thread-N subscriber of both engines.
            long acknowledged = SummaryJson.readReport(report).count(Count.ACKNOWLEDGED);
            assertThat(acknowledged).as("some production happened").isGreaterThan(100);
            assertThat(SummaryJson.readReport(report).count(Count.EXPECTED)).isEqualTo(ENGINES * acknowledged);
            assertThat(SummaryJson.readReport(report).count(Count.RECEIVED_OF_EXPECTED)).isEqualTo(ENGINES * acknowledged);
            assertThat(SummaryJson.readReport(report).count(Count.RECEIVED)).isEqualTo(ENGINES * acknowledged);
            assertThat(SummaryJson.readReport(report).count(Count.LOST)).isZero();
            assertThat(SummaryJson.readReport(report).count(Count.DUPLICATES)).isZero();
            assertThat(SummaryJson.readReport(report).count(Count.PUBLISH_FAILED)).isZero();
            assertThat(report).contains("\"verdict\": \"NO_LOSS\"");
            // Live points from both engines, and the controller's exact whole-run point, in InfluxDB.
            assertThat(influx.query("mqttload", "SHOW TAG VALUES FROM \"mqtt_counts\" WITH KEY = \"engine\""))
                    .contains("engine-1").contains("engine-2");
            assertThat(influx.query("mqttload", "SELECT \"verdict\", \"engines\" FROM \"mqtt_report\" WHERE \"run\" = '"
                    + runId + "'")).contains("\"NO_LOSS\",2]");

            // The start barrier released all threads of both engines together.
            ReportFigures.BarrierLine start = figures.rendezvous.get("start #1");
            assertThat(start).as(report).isNotNull();
            assertThat(start.groupSize).isEqualTo(ENGINES * PARTITIONS);
            assertThat(start.threads).isEqualTo(ENGINES * PARTITIONS);
            assertThat(start.arrived).isEqualTo(ENGINES * PARTITIONS);
            assertThat(start.enginesReleased).isEqualTo(ENGINES);
            // A correctness bound (together, not one after another), not a speed target: see docs/distributed.md.
            assertThat(start.spreadMillis).isNotNull().isLessThan(1000.0);
            assertThat(figures.rendezvous).containsKey("production over #1");

            // Client ids: every connection the broker saw has its own id, from both engines.
            List<String> ids = connectedClientIds(broker.log());
            int perEngine = PARTITIONS * (1 + PUBLISHERS);
            assertThat(ids).filteredOn(id -> id.startsWith("engine-1-")).hasSize(perEngine);
            assertThat(ids).filteredOn(id -> id.startsWith("engine-2-")).hasSize(perEngine);
            assertThat(new HashSet<>(ids)).as("no client id used twice").hasSameSizeAs(ids);
            assertThat(broker.log()).doesNotContain("already connected");

            // JMeter's own HTML dashboard still works on the run's JTL, MQTT samples and Run End samples included.
            Path dashboard = dir.resolve("dashboard");
            // Fails the test when the generation fails or does not end within the timeout.
            JMeterEngines.dashboard(JMeterEngines.homeFromBuild(), run.jtl, dashboard, Duration.ofSeconds(120));
            String statistics = Files.readString(dashboard.resolve("statistics.json"), StandardCharsets.UTF_8);
            assertThat(statistics).contains("MQTT Publish devices").contains("MQTT Run End");
            assertThat(dashboard.resolve("index.html")).exists();
        }
    }

    /**
     * The EMQ shared-subscription plan on two engines: publishers partitioned by engine, subscribers of both
     * engines in the seed's one group {@code $share/perf/test/#}. Mosquitto hands each message to one member,
     * on either engine; neither engine can judge the group alone, the merged report must find every message
     * delivered exactly once.
     */
    @Test
    void twoEngines_oneSharedGroupAcrossEngines_everyMessageReachesExactlyOneMember(@TempDir Path dir) throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = mosquitto();
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), ENGINES,
                true, Duration.ofSeconds(90))) {
            int port = broker.tcpPort();
            String runId = "dist-share-" + Long.toString(System.currentTimeMillis(), 36);
            Path controllerResults = dir.resolve("controller-results");
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", "127.0.0.1"), Map.entry("mqtt.port", Integer.toString(port)),
                    Map.entry("partitions", "1"), Map.entry("publishersPerPartition", "10"),
                    Map.entry("subscribersPerPartition", "2"), Map.entry("publishRate", "10"),
                    Map.entry("samples", "3"), Map.entry("qos", "1"),
                    Map.entry("mqttload.engines", Integer.toString(ENGINES)), Map.entry("mqttload.runId", runId),
                    Map.entry("mqttload.resultsDir", dir.resolve("engine-results").toString()),
                    Map.entry("mqttload.progressSeconds", "0"));
            Path plan = Path.of(System.getProperty("project.basedir", "."), "plans", "emq-sharedsub.jmx");

            JMeterEngines.Run run = engines.run(plan, global,
                    Map.of("mqttload.resultsDir", controllerResults.toString()), Duration.ofSeconds(180));

            assertThat(run.exitCode).as(run.output).isZero();
            assertThat(engines.awaitExit(Duration.ofSeconds(30))).as("engines exit after the run").isTrue();
            String report = Files.readString(controllerResults.resolve("report-" + runId + ".json"),
                    StandardCharsets.UTF_8);
            long acknowledged = SummaryJson.readReport(report).count(Count.ACKNOWLEDGED);
            assertThat(acknowledged).as("every publish of both engines").isEqualTo(ENGINES * 3 * 10 * 10);
            // One group: each message is owed once, whichever engine's member took it.
            assertThat(SummaryJson.readReport(report).count(Count.EXPECTED)).isEqualTo(acknowledged);
            assertThat(SummaryJson.readReport(report).count(Count.RECEIVED_OF_EXPECTED)).isEqualTo(acknowledged);
            assertThat(SummaryJson.readReport(report).count(Count.RECEIVED)).isEqualTo(acknowledged);
            assertThat(SummaryJson.readReport(report).count(Count.DUPLICATES)).isZero();
            assertThat(SummaryJson.readReport(report).count(Count.SHARED_SCOPES_ACROSS_ENGINES))
                    .as("each engine left its group to the merge").isEqualTo(ENGINES);
            assertThat(report).contains("\"verdict\": \"NO_LOSS\"").doesNotContain("\"verdict\": \"LOSS");
            assertThat(run.output).contains("verdict (all engines): NO LOSS");
        }
    }

    /** Mosquitto with unbounded queues, logging every connection: the test reads the client ids from its log. */
    private static MosquittoBroker mosquitto() {
        return MosquittoBroker.builder().withSetting("max_queued_messages 0").withSetting("log_type notice")
                .withSetting("connection_messages true").start();
    }

    /** Load clients' ids from Mosquitto's connection messages; the rendezvous clients (rdv-...) left out. */
    private static List<String> connectedClientIds(String log) {
        Matcher m = Pattern.compile("New client connected from \\S+ as (\\S+)").matcher(log);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            if (!m.group(1).startsWith("rdv-")) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }
}
