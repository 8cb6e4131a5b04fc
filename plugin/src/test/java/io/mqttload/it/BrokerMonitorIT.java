package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ch.qos.logback.classic.Level;

import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttBrokerMonitor;
import io.mqttload.jmeter.MqttMetricsConfig;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.LogCapture;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * The MQTT Broker Monitor against a real Mosquitto started by the test: its CPU rises under load and
 * falls back, memory, descriptors and threads are plausible, $SYS reports the connected clients; a
 * missing process or a broker without $SYS is a single warning and the run goes on.
 */
class BrokerMonitorIT {
    @TempDir
    Path results;

    private static MqttBrokerMonitor monitor(String name) {
        MqttBrokerMonitor m = PlanBuilder.testBean(new MqttBrokerMonitor(), "broker monitor");
        m.setProperty("brokerName", name);
        return m;
    }

    private RunResult run(HashTree plan) {
        return JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.sysGraceSeconds", "2"));
    }

    @Test
    void mosquittoUnderLoad_cpuRisesMemoryAndDescriptorsArePlausible_andSysCountsTheClients() throws Exception {
        MosquittoBroker.requireInstalled();
        InfluxDbServer.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("sys_interval 1")
                .withSetting("max_queued_messages 0").start(); InfluxDbServer influx = InfluxDbServer.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqttload")).doesNotContain("error");
            MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
            metrics.setProperty("influxUrl", influx.url());
            MqttBrokerMonitor m = monitor("mosquitto-it");
            m.setProperty("pid", Long.toString(broker.pid()));
            m.setProperty("sysHost", "127.0.0.1");
            m.setProperty("sysPort", Integer.toString(broker.tcpPort()));
            int clients = 20;
            HashTree plan = PlanBuilder.testPlan("broker-monitor")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_3_1_1")).config(m).config(metrics)
                    .config(runReport())
                    .threadGroup("load", 1, 1)
                    .add(connect("sub", 1, "{engine}-bm-s"))
                    .add(subscribe("sub", "bm/#", 0))
                    .add(connect("pub", clients, "{engine}-bm-{client}"))
                    // Idle with every connection open, so the monitor sees a quiet broker first.
                    .add(idle(Duration.ofSeconds(3)))
                    .add(loop(4000), publish("pub", "bm/{client}", 0, 100, "ASYNC"))
                    .add(idle(Duration.ofSeconds(3)))
                    .build();

            RunResult run = run(plan);

            RunSummary summary = JvmRun.lastSummary();
            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(summary.count(Count.RECEIVED)).isEqualTo(400_000);
            assertThat(summary.broker).hasSize(1);
            var stats = summary.broker.get(0);
            assertThat(stats.broker).isEqualTo("mosquitto-it");
            assertThat(stats.samples).isGreaterThanOrEqualTo(5);
            // 400,000 messages in and out within seconds keep Mosquitto busy; idle it uses next to nothing.
            assertThat(stats.cpuMax).as("CPU under load, %% of one core").isGreaterThan(20.0);
            assertThat(stats.cpuAvg).isLessThan(stats.cpuMax);
            assertThat(stats.rssMax).isBetween(1L << 20, 1L << 30);
            assertThat(summary.toTable()).contains("broker mosquitto-it").contains("CPU avg");
            MergedReport report = MqttRunReport.lastReport();
            assertThat(report.brokers).singleElement().satisfies(b -> {
                assertThat(b.cpuMax).isEqualTo(stats.cpuMax, within(0.001));
                assertThat(b.rssMax).isEqualTo(stats.rssMax);
            });
            assertThat(ReportText.markdown(report)).contains("| mosquitto-it |");

            // Sample by sample, as Grafana sees them: a quiet broker before and after, a busy one in between.
            String where = " FROM mqtt_broker WHERE \"run\" = '" + summary.runId + "' AND \"broker\" = 'mosquitto-it'";
            String cpu = influx.query("mqttload", "SELECT min(\"cpuPercentOfCore\"), max(\"cpuPercentOfCore\")" + where
                    + " AND \"source\" = 'proc'");
            Matcher mm = Pattern.compile(",([0-9.e-]+),([0-9.e-]+)\\]").matcher(cpu);
            assertThat(mm.find()).as(cpu).isTrue();
            assertThat(Double.parseDouble(mm.group(1))).as("idle CPU, %% of one core").isLessThan(5.0);
            assertThat(Double.parseDouble(mm.group(2))).as("CPU under load").isGreaterThan(20.0);
            // Descriptors: at least one per client connection (21) besides the listener; threads: Mosquitto has one.
            String fds = influx.query("mqttload", "SELECT max(\"sockets\"), max(\"openFds\"), max(\"threads\")" + where);
            Matcher fm = Pattern.compile(",(\\d+),(\\d+),(\\d+)\\]").matcher(fds);
            assertThat(fm.find()).as(fds).isTrue();
            assertThat(Long.parseLong(fm.group(1))).isGreaterThan(clients + 1);
            assertThat(Long.parseLong(fm.group(2))).isGreaterThanOrEqualTo(Long.parseLong(fm.group(1)));
            assertThat(Long.parseLong(fm.group(3))).isBetween(1L, 64L);
            // $SYS: the broker itself counted the connections (ours, the subscriber and the monitor's client).
            String sys = influx.query("mqttload", "SELECT max(\"clientsConnected\")" + where + " AND \"source\" = 'sys'");
            Matcher sm = Pattern.compile(",([0-9.]+)\\]").matcher(sys);
            assertThat(sm.find()).as(sys).isTrue();
            assertThat(Double.parseDouble(sm.group(1))).isGreaterThanOrEqualTo(clients + 2);
        }
    }

    private static org.apache.jmeter.testelement.TestElement idle(Duration d) {
        org.apache.jmeter.sampler.TestAction pause = PlanBuilder.element(new org.apache.jmeter.sampler.TestAction(),
                "idle", "org.apache.jmeter.sampler.gui.TestActionGui");
        pause.setAction(org.apache.jmeter.sampler.TestAction.PAUSE);
        pause.setDuration(Long.toString(d.toMillis()));
        return pause;
    }

    @Test
    void aRemoteBroker_cpuAndMemoryFromTheAgentRunningNextToIt() throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            // The agent as a user starts it next to the broker: the plugin jar alone, in a JVM of its own.
            Path jar = Path.of(System.getProperty("plugin.jar"));
            Process agentProcess = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", jar.toString(), "io.mqttload.broker.BrokerAgent", "--pid", Long.toString(broker.pid()),
                    "--name", "remote-node", "--mqtt-host", "127.0.0.1", "--mqtt-port", Integer.toString(broker.tcpPort()))
                    .redirectErrorStream(true).redirectOutput(results.resolve("agent.log").toFile()).start();
            try {
                MqttBrokerMonitor m = monitor("remote-node");
                m.setProperty("sysHost", "127.0.0.1");
                m.setProperty("sysPort", Integer.toString(broker.tcpPort()));
                m.setProperty("sysTopics", "false");
                m.setProperty("agent", "true");
                HashTree plan = PlanBuilder.testPlan("broker-agent")
                        .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_3_1_1")).config(m)
                        .threadGroup("t", 1, 1)
                        .add(connect("pub", 5, "{engine}-ba-{client}"))
                        .add(idle(Duration.ofSeconds(4)))
                        .add(publish("pub", "ba/{client}", 1, 50, "SYNC"))
                        .build();
                // The agent's JVM starts and connects in its own time, seconds on a busy machine (the run's idle 4 s
                // once passed before its first sample): the run starts once it samples.
                Path agentLog = results.resolve("agent.log");
                await("the agent connected to the broker").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                        .until(() -> Files.readString(agentLog).contains("broker agent: sampling process"));

                RunResult run = run(plan);

                assertThat(run.failures()).as(run.describe()).isEmpty();
                RunSummary summary = JvmRun.lastSummary();
                assertThat(summary.broker).as("agent log: " + Files.readString(results.resolve("agent.log")))
                        .singleElement().satisfies(b -> {
                            assertThat(b.broker).isEqualTo("remote-node");
                            assertThat(b.samples).isGreaterThanOrEqualTo(2);
                            assertThat(b.rssMax).isBetween(1L << 20, 1L << 30);
                            assertThat(b.cpuAvg).isBetween(0.0, 100.0 * Runtime.getRuntime().availableProcessors());
                        });
            } finally {
                agentProcess.destroy();
                assertThat(agentProcess.waitFor(10, TimeUnit.SECONDS)).as("the agent stops on SIGTERM").isTrue();
            }
        }
    }

    @Test
    void aProcessThatDoesNotExist_andABrokerWithoutSys_areOneWarningEach_andTheRunGoesOn() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start()) {
            MqttBrokerMonitor m = monitor("absent");
            m.setProperty("processName", "no-such-broker-process");
            // HiveMQ CE publishes no $SYS topics.
            m.setProperty("sysHost", "127.0.0.1");
            m.setProperty("sysPort", Integer.toString(broker.tcpPort()));
            HashTree plan = PlanBuilder.testPlan("broker-monitor-absent")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5")).config(m)
                    .threadGroup("t", 1, 1)
                    .add(connect("pub", 1, "{engine}-bma"))
                    .add(idle(Duration.ofSeconds(4)))
                    .add(publish("pub", "bma/1", 1, 10, "SYNC"))
                    .build();
            RunResult run;
            List<String> warnings;
            try (LogCapture log = LogCapture.start()) {
                run = run(plan);
                warnings = log.messagesAtLeast(Level.WARN);
            }

            assertThat(run.failures()).as(run.describe()).isEmpty();
            assertThat(JvmRun.lastSummary().count(Count.ACKNOWLEDGED)).isEqualTo(10);
            assertThat(JvmRun.lastSummary().broker).isEmpty();
            assertThat(warnings).filteredOn(w -> w.contains("no local process named 'no-such-broker-process'"))
                    .hasSize(1);
            assertThat(warnings).filteredOn(w -> w.contains("publishes no $SYS statistics")).hasSize(1);
        }
    }
}
