package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.onceOnly;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.measure.Count;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * The broker goes away in the middle of a timed run and comes back: samples fail with clear
 * messages, clients reconnect within their bounded policy (or not at all, or give up, counted, once it is spent), the
 * run ends on time, and the summary is still written.
 */
class BrokerOutageIT {
    /** Reconnect attempts that all fail: the broker comes back only after every client spent them. */
    private static final int GIVE_UP_AFTER = 2;
    private static final Duration RUN = Duration.ofSeconds(8);
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    /**
     * Latest acceptable end: the duration, one publish sample still waiting for its acknowledgement when
     * the duration ends, the bounded drain and close at test end, and 3 s for JMeter and the JVM.
     */
    private static final Duration ON_TIME = RUN.plus(ACK_TIMEOUT).plus(DRAIN_TIMEOUT).plus(CLOSE_TIMEOUT)
            .plusSeconds(3);

    @TempDir
    Path results;

    @ParameterizedTest(name = "reconnect attempts {0}")
    @ValueSource(ints = {20, 0, GIVE_UP_AFTER})
    void brokerStopsAndRestarts_runEndsOnTimeWithClearFailures(int reconnectAttempts) throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            MqttConnectSampler connectPub = with(with(with(connect("pub", 2, "{engine}-p-{client}"),
                    "reconnectAttempts", Integer.toString(reconnectAttempts)), "reconnectDelayMs", "200"),
                    "reconnectMaxDelayMs", "500");
            // The subscriber comes back later than the publishers, which publish meanwhile to a topic nobody holds.
            MqttConnectSampler connectSub = with(with(with(connect("sub", 1, "{engine}-s"),
                    "reconnectAttempts", Integer.toString(reconnectAttempts)), "reconnectDelayMs", "1000"),
                    "reconnectMaxDelayMs", "1000");
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace",
                    "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "20");
            HashTree plan = PlanBuilder.testPlan("outage")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5"))
                    .threadGroup("t", 1, PlanBuilder.FOREVER)
                    .duration(RUN)
                    .add(onceOnly(), connectSub, subscribe("sub", "outage/#", 1), connectPub)
                    .add(with(publish("pub", "outage/{client}", 1, 4, "SYNC"), "ackTimeoutMs",
                            Long.toString(ACK_TIMEOUT.toMillis())), pace)
                    .build();

            long start = System.nanoTime();
            CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> JMeterTestEngine.run(plan,
                    Duration.ofSeconds(90), Map.of("mqttload.resultsDir", results.toString(),
                            "mqttload.progressSeconds", "0",
                            "mqttload.drainTimeoutMs", Long.toString(DRAIN_TIMEOUT.toMillis()),
                            "mqttload.closeTimeoutMs", Long.toString(CLOSE_TIMEOUT.toMillis()))));
            await("publishing under way").atMost(Duration.ofSeconds(20))
                    .until(() -> JvmRun.running().map(r -> r.context().metrics().sum(Count.ACKNOWLEDGED) > 50).orElse(false));
            broker.stop();
            await("connections noticed lost").atMost(Duration.ofSeconds(10))
                    .until(() -> JvmRun.running().orElseThrow().context().metrics().sum(Count.CONNECTIONS_LOST) >= 3);
            long ackedAtRestart = JvmRun.running().orElseThrow().context().metrics().sum(Count.ACKNOWLEDGED);
            long receivedAtRestart = JvmRun.running().orElseThrow().context().metrics().sum(Count.RECEIVED);
            if (reconnectAttempts == GIVE_UP_AFTER) {
                // Back only after every client spent its attempts, as a broker that restarts slowly.
                await("every client gave up").atMost(Duration.ofSeconds(20)).until(() -> JvmRun.running()
                        .orElseThrow().context().metrics().sum(Count.RECONNECTS_GIVEN_UP) == 3);
            }
            broker.start();
            RunResult result = run.get(90, TimeUnit.SECONDS);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            RunSummary summary = JvmRun.lastSummary();

            assertThat(elapsed).as("the run ends by its duration, plus bounded drain and close")
                    .isLessThan(ON_TIME);
            assertThat(result.failures()).as(result.describe()).isNotEmpty();
            for (SampleResult failure : result.failures()) {
                assertThat(failure.getSampleLabel()).as(result.describe()).isEqualTo("publish pub");
                assertThat(failure.getResponseCode()).isIn("ACK_TIMEOUT", "PUBLISH_FAILED");
                // One line that names the client and the topic, never a stack trace.
                assertThat(failure.getResponseMessage()).contains("-p-").contains("'outage/")
                        .doesNotContain("\tat ").doesNotContain("\n");
            }
            assertThat(result.failures()).as("publishes while the broker is away say why: " + result.describe())
                    .anySatisfy(f -> assertThat(f.getResponseMessage()).containsAnyOf("not connected", "no PUBACK"));
            // The real outage reached the engine as lost connections; what the verdict, its line and the tally make of
            // lost connections and of a session the broker did not keep is InMemoryFailureTest's.
            assertThat(summary.count(Count.CONNECTIONS_LOST)).isGreaterThanOrEqualTo(3);
            assertThat(summary.verdict()).as(summary.toTable()).isEqualTo(Verdict.FAILED);
            if (reconnectAttempts == GIVE_UP_AFTER) {
                assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).as(summary.toTable()).isEqualTo(3);
                assertThat(summary.count(Count.RECONNECT_ATTEMPTS_GIVEN_UP)).isEqualTo(3 * GIVE_UP_AFTER);
                assertThat(summary.count(Count.RECONNECTS)).isZero();
                assertThat(summary.count(Count.RECONNECT_GIVE_UP_FIRST_MILLIS)).isPositive()
                        .isLessThanOrEqualTo(summary.count(Count.RECONNECT_GIVE_UP_LAST_MILLIS));
                assertThat(summary.toTable()).contains("3 client(s) gave up after " + 3 * GIVE_UP_AFTER
                        + " reconnect attempt(s) in all");
                assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(ackedAtRestart);
            } else if (reconnectAttempts > 0) {
                assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).as("every client came back").isZero();
                assertThat(summary.count(Count.RECONNECTS)).as("both publishers and the subscriber came back")
                        .isGreaterThanOrEqualTo(3);
                assertThat(summary.count(Count.ACKNOWLEDGED)).as("publishing resumed after the restart")
                        .isGreaterThan(ackedAtRestart + 20);
                // Mosquitto came back without sessions (no persistence): the subscriber must have subscribed again.
                assertThat(summary.count(Count.RECEIVED)).as("delivery resumed after the restart")
                        .isGreaterThan(receivedAtRestart + 20);
                // The CONNACK said so: what was published before it subscribed again is owed to nobody, decided per
                // message from the lapse the engine recorded when it subscribed again itself, so nothing is lost.
                assertThat(summary.count(Count.SUBSCRIBER_SESSIONS_LOST)).as(summary.toTable()).isEqualTo(1);
                assertThat(summary.count(Count.SUBSCRIBER_LAPSES_RECORDED)).isEqualTo(1);
                assertThat(summary.delivery.lost()).as(summary.verdictLine()).isZero();
                assertThat(summary.delivery.publishedWhileSessionLost).as(summary.verdictLine()).isPositive();
            } else {
                assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).as("no attempt, so none given up").isZero();
                assertThat(summary.count(Count.RECONNECTS)).isZero();
                assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(ackedAtRestart);
                assertThat(summary.count(Count.RECEIVED)).isEqualTo(receivedAtRestart);
            }
        }
    }
}
