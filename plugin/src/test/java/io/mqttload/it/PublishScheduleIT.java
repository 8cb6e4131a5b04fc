package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.jmeter.EngineLifecycle;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;

/**
 * A Publish sampler paced by a Constant Throughput Timer: the engine says when it published behind the schedule the
 * timer sets (the broker then saw less load than the plan asks), and says nothing when it kept up.
 */
class PublishScheduleIT {
    private static final int THREADS = 2;
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

    @Test
    void scheduleOutOfReach_secondsBehindCountedAndInTheVerdictLine() throws Exception {
        // 100,000 synchronous QoS 1 publishes per second per thread: no machine acknowledges that many one by one.
        RunSummary summary = run("schedule-out-of-reach", pacedAt(6_000_000, 0));

        assertThat(summary.count(Count.SCHEDULED_PUBLISH_RATE)).as(summary.toTable()).isEqualTo(THREADS * 100_000L);
        assertThat(summary.count(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).as(summary.toTable()).isPositive();
        assertThat(summary.verdictLine()).contains("publishing behind schedule " + summary.count(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)
                + " s").contains("the broker saw less load than the plan asks");
    }

    @Test
    void scheduleWithinReach_nothingBehind() throws Exception {
        // 10 samples per second per thread, and the same 20 per second shared over all active threads.
        for (ConstantThroughputTimer pace : new ConstantThroughputTimer[] {pacedAt(600, 0), pacedAt(1200, 1)}) {
            RunSummary summary = run("schedule-within-reach", pace);

            assertThat(summary.count(Count.PUBLISHED)).as(summary.toTable()).isGreaterThan(THREADS * 50L);
            assertThat(summary.count(Count.SCHEDULED_PUBLISH_RATE)).as(summary.toTable()).isEqualTo(20);
            assertThat(summary.count(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).as(summary.toTable()).isZero();
            assertThat(summary.verdictLine()).doesNotContain("behind schedule");
        }
    }

    private static ConstantThroughputTimer pacedAt(double samplesPerMinute, int calcMode) {
        ConstantThroughputTimer pace = PlanBuilder.testBean(new ConstantThroughputTimer(), "pace");
        pace.setProperty("calcMode", calcMode);
        pace.setProperty("throughput", Double.toString(samplesPerMinute));
        return pace;
    }

    private RunSummary run(String name, ConstantThroughputTimer pace) throws Exception {
        HashTree plan = PlanBuilder.testPlan(name)
                .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                .threadGroup("t", THREADS, PlanBuilder.FOREVER)
                .duration(Duration.ofSeconds(9))
                .add(onceOnly(), connect("pub", 1, "{engine}-p{thread}"))
                .add(publish("pub", "schedule/{thread}", 1, 1, "SYNC"), pace)
                .build();
        JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir", results.toString(),
                "mqttload.progressSeconds", "0", "mqttload.warmupSeconds", "1"));
        return EngineLifecycle.lastSummary();
    }
}
