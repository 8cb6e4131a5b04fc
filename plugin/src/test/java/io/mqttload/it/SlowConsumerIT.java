package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * JoramMQ's slow consumer against a real Mosquitto at QoS 0: one subscriber takes a millisecond per
 * message, another keeps up. The fast one loses nothing; whatever is lost is the slow one's, and the
 * summary and the report say whose it is, per Subscribe sampler.
 */
class SlowConsumerIT {
    @TempDir
    Path results;

    @Test
    void qos0WithASlowConsumer_lossIsConfinedToTheSlowConsumerAndReportedAsItsOwn() {
        MosquittoBroker.requireInstalled();
        // Mosquitto's default queue limits: what a broker does to a slow QoS 0 reader is what is measured.
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            int messages = 50 * 200;
            HashTree plan = PlanBuilder.testPlan("slow-consumer")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_3_1_1")).config(runReport())
                    .threadGroup("t", 1, 1)
                    .add(connect("fast", 1, "{engine}-fast"))
                    .add(subscribe("fast", "slow/#", 0))
                    .add(with(connect("slow", 1, "{engine}-slow"), "consumeDelayMs", "1"))
                    .add(subscribe("slow", "slow/#", 0))
                    .add(connect("pub", 1, "{engine}-pub"))
                    .add(loop(50), publish("pub", "slow/1", 0, 200, "ASYNC"))
                    .build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0", "mqttload.drainTimeoutMs", "15000"));

            assertThat(run.failures()).as(run.describe()).isEmpty();
            RunSummary summary = JvmRun.lastSummary();
            assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(messages);
            long[] fast = summary.delivery.bySampler.get("subscribe fast");
            long[] slow = summary.delivery.bySampler.get("subscribe slow");
            // [expected, received, duplicates, reordered]: the subscriber that keeps up got each message once, in order.
            assertThat(fast).as("the subscriber that keeps up").containsExactly(messages, messages, 0L, 0L);
            assertThat(slow[0]).isEqualTo(messages);
            assertThat(summary.delivery.lost()).as("all loss is the slow consumer's").isEqualTo(slow[0] - slow[1]);

            MergedReport report = MqttRunReport.lastReport();
            assertThat(report.lossBySampler.get("subscribe fast")).containsExactly(messages, messages, 0L, 0L);
            assertThat(java.util.Arrays.copyOf(report.lossBySampler.get("subscribe slow"), 2)).containsExactly(slow[0], slow[1]);
            assertThat(ReportText.table(report)).contains("delivery to subscribe slow").contains("delivery to subscribe fast");
        }
    }
}
