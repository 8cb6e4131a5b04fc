package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.async.Async;
import com.hivemq.extension.sdk.api.async.TimeoutFallback;
import com.hivemq.extension.sdk.api.auth.SubscriptionAuthorizer;
import com.hivemq.extension.sdk.api.auth.parameter.SubscriptionAuthorizerOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.EngineLifecycle;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RefuseClosedTopics;
import io.mqttload.testsupport.RunResult;

/**
 * Runs that cannot do what their plan asks say FAILED, with the reasons counted by sampler, and keep their
 * figures: a broker port that refuses every connection, and a broker that refuses a subscription.
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
        RunSummary summary = EngineLifecycle.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).startsWith("FAILED: no connection succeeded: 6 connect(s) failed")
                .contains("connection refused");
        assertThat(summary.count(Count.CONNECTS_FAILED)).isEqualTo(6);
        assertThat(summary.count(Count.PUBLISHED)).as("nothing left a client without a connection").isZero();
        // 2 threads x 5 loops x 10 messages, every one attempted without a connection.
        assertThat(summary.count(Count.PUBLISH_FAILED)).isEqualTo(100);
        assertThat(summary.count(Count.PUBLISH_NOT_SENT)).isEqualTo(summary.count(Count.PUBLISH_FAILED));
        assertThat(summary.failures).extracting(r -> r.kind).contains(FailureTally.Kind.CONNECT,
                FailureTally.Kind.PUBLISH);
        FailureTally.Row connects = summary.failures.stream().filter(r -> r.kind == FailureTally.Kind.CONNECT)
                .filter(r -> r.sampler.equals("connect pub")).findFirst().orElseThrow();
        assertThat(connects.count).isEqualTo(4);
        assertThat(connects.reason).startsWith("connection refused");
        assertThat(summary.toTable()).contains("errors by sampler").contains("connect pub").contains("connect sub");

        assertThat(report.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(report.failures).isNotEmpty();
        String json = Files.readString(results.resolve("report-" + summary.runId + ".json"), StandardCharsets.UTF_8);
        assertThat(json).contains("\"verdict\": \"FAILED\"").contains("\"kind\": \"connect\"")
                .contains("\"reason\": \"connection refused");
        assertThat(ReportPoints.of(report, 1_000)).anySatisfy(line -> assertThat(line).startsWith("mqtt_report_errors,")
                .contains("kind=connect"));
        assertThat(Files.readString(results.resolve("report-" + summary.runId + ".md"))).contains("| errors by sampler |");
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
            RunSummary summary = EngineLifecycle.lastSummary();

            assertThat(summary.verdict()).as(result.describe() + summary.toTable()).isEqualTo(Verdict.FAILED);
            assertThat(summary.verdictLine()).contains("2 of 2 subscriptions failed (most often: 2 x SUBACK refused:"
                    + " NOT_AUTHORIZED (0x87): closed to tests").contains("in 'subscribe sub'")
                    .contains("delivery: expected 40, received 40, lost 0");
            assertThat(summary.failures).singleElement().satisfies(r -> {
                assertThat(r.kind).isEqualTo(FailureTally.Kind.SUBSCRIBE);
                assertThat(r.count).isEqualTo(2);
            });
            // The granted filter still counts: both subscribers were owed and got the 20 messages on open/a.
            assertThat(summary.delivery.expected).isEqualTo(40);
            assertThat(summary.delivery.receivedOfExpected).isEqualTo(40);
        }
    }

    /** Holds every SUBSCRIBE until the test lets it through, as a broker busy setting up a subscription would. */
    private static final class SlowSubscriptions implements ExtensionMain {
        static final CountDownLatch ARRIVED = new CountDownLatch(1);
        static final CountDownLatch GRANT = new CountDownLatch(1);

        @Override
        public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
            Services.securityRegistry().setAuthorizerProvider(provider -> (SubscriptionAuthorizer) (in, out) -> {
                // Asynchronously, so the broker's extension threads stay free for the publisher's traffic.
                Async<SubscriptionAuthorizerOutput> pending = out.async(Duration.ofSeconds(30), TimeoutFallback.FAILURE);
                ARRIVED.countDown();
                Services.extensionExecutorService().submit(() -> {
                    try {
                        GRANT.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    out.authorizeSuccessfully();
                    pending.resume();
                });
            });
        }

        @Override
        public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
            GRANT.countDown();
        }
    }

    @Test
    void messagesSentWhileTheBrokerSetsASubscriptionUp_makeTheLossUncertainNotPlain() throws Exception {
        try (EmbeddedHiveMqBroker slow = EmbeddedHiveMqBroker.builder().withExtension(new SlowSubscriptions()).start()) {
            ConstantTimer afterTheSubscribe = PlanBuilder.element(new ConstantTimer(), "after the subscribe",
                    "org.apache.jmeter.timers.gui.ConstantTimerGui");
            afterTheSubscribe.setProperty("ConstantTimer.delay", "1000");
            HashTree plan = PlanBuilder.testPlan("subscription race")
                    .config(connection("127.0.0.1", slow.tcpPort(), "MQTT_5"))
                    .threadGroup("subscriber", 1, 1)
                    .add(connect("sub", 1, "{engine}-s"))
                    .add(subscribe("sub", "race/#", 1))
                    .and()
                    .threadGroup("publisher", 1, 1)
                    .add(connect("pub", 1, "{engine}-p"), afterTheSubscribe)
                    .add(publish("pub", "race/x", 1, 10, "SYNC"))
                    .build();
            CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(
                    () -> JMeterTestEngine.run(plan, Duration.ofSeconds(60), properties()));
            assertThat(SlowSubscriptions.ARRIVED.await(20, TimeUnit.SECONDS)).as("the SUBSCRIBE reached the broker").isTrue();
            // The publisher's messages go out while the subscription is still being set up: the broker owes them
            // to no one, yet the ledger, which saw the SUBSCRIBE asked for before them, would owe them.
            await("ten messages acknowledged").atMost(Duration.ofSeconds(20))
                    .until(() -> EngineLifecycle.running().map(r -> r.context().metrics().sum(Count.ACKNOWLEDGED) == 10).orElse(false));
            SlowSubscriptions.GRANT.countDown();
            RunResult result = running.get(60, TimeUnit.SECONDS);
            RunSummary summary = EngineLifecycle.lastSummary();

            assertThat(summary.delivery.expected).as(result.describe() + summary.toTable()).isEqualTo(10);
            assertThat(summary.delivery.lateSubscriptions).isEqualTo(1);
            assertThat(summary.verdict()).isEqualTo(Verdict.LOSS_UNCERTAIN);
            assertThat(summary.verdictLine()).contains("1 subscription(s) were made after matching messages had been"
                    + " published");
        }
    }
}
