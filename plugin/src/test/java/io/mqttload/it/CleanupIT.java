package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * A plan that never disconnects, stopped by its thread group's duration: every client is closed at
 * test end anyway, the client threads go away, and a second run in the same JVM starts from zero.
 */
class CleanupIT {
    @TempDir
    Path results;

    @Test
    void twoRunsInARow_leaveNoClientNoThreadAndShareNoCounter() {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start()) {
            HashTree plan = PlanBuilder.testPlan("no disconnect")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .threadGroup("clients", 3, PlanBuilder.FOREVER)
                    .duration(Duration.ofSeconds(2))
                    .add(onceOnly(), connect("sub", 1, "{engine}-s-{thread}-{client}"),
                            subscribe("sub", "clean/{thread}", 1), connect("pub", 5, "{engine}-p-{thread}-{client}"))
                    .add(publish("pub", "clean/{thread}", 1, 10, "SYNC"))
                    .build();
            Map<String, String> props = Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0");

            RunSummary[] summaries = new RunSummary[2];
            for (int i = 0; i < 2; i++) {
                RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), props);
                summaries[i] = JvmRun.lastSummary();
                assertThat(run.count()).isPositive();
                assertThat(JvmRun.running()).isEmpty();
                assertThat(summaries[i].count(Count.OPEN_AT_END)).as("connections still open after the run").isZero();
                // Nothing of the MQTT clients may keep the JVM alive: a headless JMeter must exit after its run.
                // (The load clients' event loop itself may run on: after a run with durable sessions the client
                // library keeps it for the session expiry, on daemon threads.)
                await("no non-daemon MQTT client thread").atMost(Duration.ofSeconds(20))
                        .until(() -> nonDaemonClientThreads() == 0);
                assertThat(liveThreads("mqttload-metrics")).isZero();
            }

            assertThat(summaries[1]).isNotSameAs(summaries[0]);
            assertThat(summaries[1].runId).isNotNull();
            for (RunSummary s : summaries) {
                // Each run counts only its own clients and messages: nothing carried over.
                assertThat(s.count(Count.CONNECTS_OK)).isEqualTo(3 * 6);
                assertThat(s.count(Count.RECEIVED)).isEqualTo(s.count(Count.ACKNOWLEDGED)).isPositive();
                assertThat(s.verdict()).isEqualTo(Verdict.NO_LOSS);
            }
        }
    }

    /** Live non-daemon threads of MQTT clients (the client library's own, or ours). */
    private static long nonDaemonClientThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && !t.isDaemon()
                && (t.getName().startsWith("com.hivemq.client") || t.getName().startsWith("mqttload"))).count();
    }

    private static long liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
    }
}
