package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RefuseClosedTopics;
import io.mqttload.testsupport.RunResult;

/**
 * Runs that cannot do what their plan asks say FAILED with the reason the real thing gave: a broker port that refuses
 * every connection, and a broker that refuses a subscription. The counts, tallies and report forms of such runs are
 * InMemoryFailureTest's.
 */
class FailureVerdictIT {
    @TempDir
    Path results;

    private Map<String, String> properties() {
        return Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0",
                "mqttload.drainTimeoutMs", "1000", "mqttload.closeTimeoutMs", "2000");
    }

    @Test
    void brokerPortClosed_failedWithConnectionRefusedCountedAndNothingPublished() throws Exception {
        int closed = FreePorts.tcpPort();
        HashTree plan = PlanBuilder.testPlan("closed-port")
                .config(connection("127.0.0.1", closed, "MQTT_3_1_1"))
                .config(runReport())
                .threadGroup("t", 2, 5)
                .add(onceOnly(), connect("sub", 1, "{engine}-s{thread}"), subscribe("sub", "p2p/#", 1),
                        connect("pub", 2, "{engine}-p{thread}-{client}"))
                .add(publish("pub", "p2p/{thread}/{client}", 1, 10, "SYNC"))
                .build();

        JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).startsWith("FAILED: no connection succeeded: 6 connect(s) failed")
                .contains("connection refused");
        assertThat(summary.count(Count.CONNECTS_FAILED)).isEqualTo(6);
        assertThat(summary.count(Count.PUBLISHED)).as("nothing left a client without a connection").isZero();
        FailureTally.Row connects = summary.failures.stream().filter(r -> r.kind == FailureTally.Kind.CONNECT)
                .filter(r -> r.sampler.equals("connect pub")).findFirst().orElseThrow();
        assertThat(connects.count).isEqualTo(4);
        assertThat(connects.reason).startsWith("connection refused");

        // The MQTT Run Report listener wrote the refusal the operating system gave.
        assertThat(report.verdict()).isEqualTo(Verdict.FAILED);
        String json = Files.readString(results.resolve("report-" + summary.runId + ".json"), StandardCharsets.UTF_8);
        assertThat(json).contains("\"verdict\": \"FAILED\"").contains("\"reason\": \"connection refused");
    }

    @Test
    void subscriptionRefused_failedWithTheReasonCodeAndTheGrantedFilterStillChecked() {
        try (EmbeddedHiveMqBroker refusing = EmbeddedHiveMqBroker.builder().withExtension(new RefuseClosedTopics()).start()) {
            HashTree plan = PlanBuilder.testPlan("refused-subscription")
                    .config(connection("127.0.0.1", refusing.tcpPort(), "MQTT_5"))
                    .threadGroup("t", 1, 1)
                    .add(connect("sub", 2, "{engine}-s{client}"))
                    .add(subscribe("sub", "open/#, closed/#", 1))
                    .add(connect("pub", 1, "{engine}-p"))
                    .add(publish("pub", "open/a", 1, 20, "SYNC"))
                    .build();

            RunResult result = JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties());
            RunSummary summary = JvmRun.lastSummary();

            assertThat(summary.verdict()).as(result.describe() + summary.toTable()).isEqualTo(Verdict.FAILED);
            // HiveMQ's reason code and reason string reach the verdict, and it still delivers on the granted filter.
            assertThat(summary.verdictLine()).contains("2 of 2 subscriptions failed (most often: 2 x SUBACK refused:"
                    + " NOT_AUTHORIZED (0x87): closed to tests").contains("in 'subscribe sub'");
            assertThat(summary.delivery.expected).isEqualTo(40);
            assertThat(summary.delivery.receivedOfExpected).isEqualTo(40);
        }
    }
}
