package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.jmeter.MqttMetricsConfig;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.NodeFigures;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * A distributed broker as seed 002 tests it: two child Mosquitto nodes bridged upward to a root node. Clients are
 * spread over the three nodes by the connection's node list; every node's figures, and latency per (publisher node,
 * subscriber node) pair, come out exact.
 */
class BrokerClusterIT {
    private static final int PER_SAMPLE = 90;
    private static MosquittoBroker root;
    private static MosquittoBroker childA;
    private static MosquittoBroker childB;

    @TempDir
    Path results;

    @BeforeAll
    static void startCluster() {
        MosquittoBroker.requireInstalled();
        root = MosquittoBroker.builder().withSetting("connection_messages true").withSetting("log_type notice").start();
        childA = MosquittoBroker.builder().withBridge("a", root, "# both 1").start();
        childB = MosquittoBroker.builder().withBridge("b", root, "# both 1").start();
        // The bridges connect on their own after start: publishing before would lose messages on the way up.
        await("both bridges connected to the root").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> root.log().contains("as bridge-a") && root.log().contains("as bridge-b"));
    }

    @AfterAll
    static void stopCluster() {
        for (MosquittoBroker b : new MosquittoBroker[] {childB, childA, root}) {
            if (b != null) {
                b.close();
            }
        }
    }

    private static String nodes() {
        return "root=127.0.0.1:" + root.tcpPort() + ", a=127.0.0.1:" + childA.tcpPort() + ", b=127.0.0.1:"
                + childB.tcpPort();
    }

    @Test
    void clientsSpreadOverTheNodes_everyNodesFiguresAndEveryNodePairAreExact() throws Exception {
        InfluxDbServer.requireInstalled();
        try (InfluxDbServer influx = InfluxDbServer.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            runOnTheCluster(influx);
            // Live points per node beside the engine's totals: what a Grafana panel per node reads.
            String nodeCounts = influx.query("mqttload", "SELECT last(\"received\"), last(\"published\") FROM"
                    + " \"mqtt_node\" WHERE \"run\" = 'cluster-it' GROUP BY \"node\"");
            for (String node : List.of("root", "a", "b")) {
                assertThat(nodeCounts).as(nodeCounts).contains("\"node\":\"" + node + "\"");
            }
            assertThat(nodeCounts).contains("," + PER_SAMPLE + "," + PER_SAMPLE / 3 + "]");
            assertThat(influx.query("mqttload", "SELECT sum(\"count\") FROM \"mqtt_node_latency\" WHERE \"run\" ="
                    + " 'cluster-it'")).contains("," + 3 * PER_SAMPLE + "]");
            // The exact whole-run figures per node and per node pair, from the run report.
            assertThat(influx.query("mqttload", "SELECT \"expected\", \"receivedOfExpected\" FROM \"mqtt_report_node\""
                    + " WHERE \"run\" = 'cluster-it' AND \"node\" = 'a'")).contains("," + PER_SAMPLE + "," + PER_SAMPLE + "]");
            assertThat(influx.query("mqttload", "SELECT \"count\" FROM \"mqtt_report_node_latency\" WHERE \"run\" ="
                    + " 'cluster-it' AND \"node\" = 'a' AND \"from\" = 'b'")).contains("," + PER_SAMPLE / 3 + "]");
        }
    }

    private void runOnTheCluster(InfluxDbServer influx) {
        MqttConnectionConfig cluster = with(connection("127.0.0.1", root.tcpPort(), "MQTT_3_1_1"), "nodes", nodes());
        MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
        metrics.setProperty("influxUrl", influx.url());
        MqttRunReport runReport = runReport();
        runReport.setProperty("influxUrl", influx.url());
        HashTree plan = PlanBuilder.testPlan("cluster")
                .config(runReport)
                .config(cluster)
                .config(metrics)
                // One thread: every subscription is granted before the first message is published.
                .threadGroup("t", 1, 1)
                .add(connect("sub", 3, "{engine}-{run}-s{client}"))
                .add(subscribe("sub", "cl/#", 1))
                .add(connect("pub", 3, "{engine}-{run}-p{client}"))
                .add(publish("pub", "cl/{client}", 1, PER_SAMPLE, "SYNC"))
                .build();

        RunResult result = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "5000",
                "mqttload.closeTimeoutMs", "3000", "mqttload.runId", "cluster-it"));
        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary).as(result.describe()).isNotNull();

        // Round robin: the three subscribers on three nodes, then the three publishers; each publisher sent a third.
        assertThat(summary.nodes).extracting(n -> n.name).containsExactlyInAnyOrder("root", "a", "b");
        for (NodeFigures n : summary.nodes) {
            assertThat(n.count(Count.CONNECTS_OK)).as(n.name + " connects").isEqualTo(2);
            assertThat(n.count(Count.PUBLISHED)).as(n.name + " published").isEqualTo(PER_SAMPLE / 3);
            assertThat(n.count(Count.ACKNOWLEDGED)).as(n.name + " acknowledged").isEqualTo(PER_SAMPLE / 3);
            // Every message reaches every node's subscriber: a third published there, two thirds over the bridges.
            assertThat(n.count(Count.RECEIVED)).as(n.name + " received").isEqualTo(PER_SAMPLE);
            assertThat(n.expected).as(n.name + " expected").isEqualTo(PER_SAMPLE);
            assertThat(n.receivedOfExpected).as(n.name + " received of expected").isEqualTo(PER_SAMPLE);
            assertThat(n.pubToSubFrom).as(n.name + ": latency from every node").containsOnlyKeys("root", "a", "b");
            n.pubToSubFrom.values().forEach(s -> assertThat(s.count).isEqualTo(PER_SAMPLE / 3));
        }
        assertThat(summary.delivery.expected).isEqualTo(3 * PER_SAMPLE);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.DUPLICATES)).as("no message looped through the bridges").isZero();
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.toTable()).contains("broker node").contains("pub-to-sub a -> b:");

        MergedReport report = MergedReport.of(List.of(summary.figures()), List.of());
        assertThat(report.nodes).containsOnlyKeys("root", "a", "b");
        assertThat(report.nodes.get("a").pubToSubFrom.get("b").count).isEqualTo(PER_SAMPLE / 3);
        assertThat(report.nodes.get("b").expected).isEqualTo(PER_SAMPLE);
    }

    @Test
    void aTemplateThatNamesNoNode_failsTheConnectNamingFieldAndValue() {
        MqttConnectionConfig cluster = with(with(with(connection("127.0.0.1", root.tcpPort(), "MQTT_3_1_1"), "nodes",
                nodes()), "nodeAssignment", "TEMPLATE"), "nodeTemplate", "node-{client}");
        HashTree plan = PlanBuilder.testPlan("cluster-template")
                .config(cluster)
                .threadGroup("t", 1, 1)
                .add(connect("sub", 1, "{engine}-{run}-s{client}"))
                .build();

        RunResult result = JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir",
                results.toString(), "mqttload.progressSeconds", "0"));

        assertThat(result.failures()).as(result.describe()).singleElement().satisfies(f -> assertThat(
                f.getResponseMessage()).contains("nodeTemplate").contains("'node-0'").contains("names no node"));
        RunSummary summary = JvmRun.lastSummary();
        assertThat(summary.verdict()).as("a plan that could not run is no NOTHING_TO_CHECK").isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("1 sample(s) refused an invalid setting").contains("nodeTemplate");
    }

    @Test
    void aNodeThatGoesAway_itsClientsFailOverToTheNextNode_andTheVerdictSaysWhichNodeAndHowMany() throws Exception {
        try (MosquittoBroker top = MosquittoBroker.builder().withSetting("connection_messages true")
                .withSetting("log_type notice").start();
                MosquittoBroker left = MosquittoBroker.builder().withBridge("left", top, "fo/# both 1").start();
                MosquittoBroker right = MosquittoBroker.builder().withBridge("right", top, "fo/# both 1").start()) {
            await("both bridges connected").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .until(() -> top.log().contains("as bridge-left") && top.log().contains("as bridge-right"));
            MqttConnectionConfig cluster = with(connection("127.0.0.1", top.tcpPort(), "MQTT_3_1_1"), "nodes",
                    "top=127.0.0.1:" + top.tcpPort() + ", left=127.0.0.1:" + left.tcpPort() + ", right=127.0.0.1:"
                            + right.tcpPort());
            MqttConnectSampler connectSub = with(with(connect("sub", 3, "{engine}-{run}-fs{client}"),
                    "reconnectAttempts", "10"), "reconnectDelayMs", "100");
            MqttConnectSampler connectPub = with(with(connect("pub", 3, "{engine}-{run}-fp{client}"),
                    "reconnectAttempts", "10"), "reconnectDelayMs", "100");
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace",
                    "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "20");
            HashTree plan = PlanBuilder.testPlan("failover")
                    .config(cluster)
                    .threadGroup("t", 1, PlanBuilder.FOREVER)
                    .duration(Duration.ofSeconds(6))
                    .add(onceOnly(), connectSub, subscribe("sub", "fo/#", 1), connectPub)
                    .add(with(publish("pub", "fo/{client}", 1, 3, "SYNC"), "ackTimeoutMs", "2000"), pace)
                    .build();

            long start = System.nanoTime();
            CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> JMeterTestEngine.run(plan,
                    Duration.ofSeconds(90), Map.of("mqttload.resultsDir", results.toString(),
                            "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "3000",
                            "mqttload.closeTimeoutMs", "3000")));
            await("publishing under way").atMost(Duration.ofSeconds(20))
                    .until(() -> JvmRun.running().map(r -> r.context().metrics().sum(Count.ACKNOWLEDGED) > 60).orElse(false));
            left.stop();
            RunResult result = run.get(90, TimeUnit.SECONDS);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            RunSummary summary = JvmRun.lastSummary();

            assertThat(elapsed).as("the run ends by its duration, plus bounded drain and close")
                    .isLessThan(Duration.ofSeconds(30));
            NodeFigures lost = summary.nodes.stream().filter(n -> n.name.equals("left")).findFirst().orElseThrow();
            // Round robin put one subscriber and one publisher on each node: both left "left" for "right".
            assertThat(lost.count(Count.CONNECTIONS_LOST)).as(summary.toTable()).isEqualTo(2);
            assertThat(lost.count(Count.MOVED_AWAY)).isEqualTo(2);
            assertThat(lost.firstLossMillis).isPositive();
            assertThat(summary.nodes.stream().filter(n -> n.name.equals("right")).findFirst().orElseThrow().count(Count.MOVED_IN))
                    .isEqualTo(2);
            assertThat(summary.count(Count.FAILOVERS)).isEqualTo(2);
            assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
            assertThat(summary.verdictLine()).contains("2 established connection(s) lost")
                    .contains("node left:").contains("2 client(s) failed over to another broker node")
                    .contains("delivery: expected " + summary.delivery.expected);
            // Publishing went on through the other nodes after the failover, and the moved subscriber received.
            assertThat(summary.nodes.stream().filter(n -> n.name.equals("right")).findFirst().orElseThrow().count(Count.PUBLISHED))
                    .isGreaterThan(lost.count(Count.PUBLISHED));
            assertThat(result.count()).isPositive();
        }
    }

    @Test
    void distributedPreset_devicesOnTheChildren_controlCentreOnTheRoot_noLoss() throws Exception {
        Path jmx = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans", "plans",
                "jorammq-multi-publisher.jmx").normalize();
        Path preset = jmx.getParent().resolveSibling("presets").resolve("jorammq-multi-publisher-distributed.properties");
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(preset)) {
            p.load(r);
        }
        Map<String, String> properties = new HashMap<>();
        p.forEach((k, v) -> properties.put(k.toString(), v.toString()));
        // The preset's topology on this test's nodes, at a laptop's size: 2 partitions of 40 devices at 10 msg/s each, one second.
        properties.putAll(Map.of("mqtt.nodes", "root=127.0.0.1:" + root.tcpPort() + ",c0=127.0.0.1:" + childA.tcpPort()
                + ",c1=127.0.0.1:" + childB.tcpPort(), "mqtt.version", "MQTT_3_1_1", "publishersPerPartition", "40",
                "samples", "1", "publishRate", "10", "durationSeconds", "30", "mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.runId", "distributed-it"));

        RunResult result = JMeterTestEngine.run(JMeterTestEngine.load(jmx), Duration.ofSeconds(90), properties);
        RunSummary summary = JvmRun.lastSummary();

        assertThat(result.failures()).as(result.describe()).isEmpty();
        Map<String, NodeFigures> byName = new HashMap<>();
        summary.nodes.forEach(n -> byName.put(n.name, n));
        // Thread 1 (odd) on c1, thread 2 on c0; both control centres on the root.
        assertThat(byName.get("c1").count(Count.CONNECTS_OK)).isEqualTo(40);
        assertThat(byName.get("c0").count(Count.CONNECTS_OK)).isEqualTo(40);
        assertThat(byName.get("root").count(Count.CONNECTS_OK)).isEqualTo(2);
        assertThat(byName.get("root").count(Count.PUBLISHED)).isZero();
        assertThat(byName.get("root").count(Count.RECEIVED)).isEqualTo(2 * 10 * 40);
        assertThat(byName.get("root").pubToSubFrom).containsOnlyKeys("c0", "c1");
        assertThat(summary.delivery.expected).isEqualTo(2 * 10 * 40);
        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.NO_LOSS);
    }
}
