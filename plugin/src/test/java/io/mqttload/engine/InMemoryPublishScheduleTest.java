package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.MicroClock;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryClientLoop;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * A Publish sampler's own schedule through the engine on the in-memory broker: one sample sends every slot of its
 * period, those a stall of the sender left due at once, the rest at their times; the offered count is the slots.
 */
class InMemoryPublishScheduleTest {
    private static final int CLIENTS = 4;
    private static final double RATE = 100;
    private static final long STALL_MICROS = 300_000;

    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    /** A subscriber on {@code filter}, then {@code publishers} publishing clients in thread 1's group "pub". */
    private MemoryEngine subscribedAndConnected(String filter, int publishers, String idTemplate, ReconnectPolicy policy) {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        assertThat(engine.connect("connect sub", "sub", 1, MemoryEngine.settings().build(), 1, "{engine}-s",
                ReconnectPolicy.none()).ok).isTrue();
        assertThat(engine.subscribe("subscribe", "sub", 1, filter, 1).ok).isTrue();
        assertThat(engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), publishers, idTemplate, policy)
                .ok).isTrue();
        return engine;
    }

    @Test
    void aDisconnectedDevice_holdsUpToItsBuffer_dropsTheRest_andSendsWhatItHeldOnceBack() {
        MemoryEngine engine = subscribedAndConnected("dev/#", 1, "dev",
                new ReconnectPolicy(ReconnectPolicy.Kind.FIXED, 5, 300, 300, 0, 0, false));
        PublishOperation device = MemoryEngine.bufferingPublisher("dev/{msg}", 1, 3);

        assertThat(engine.publish("publish", "pub", 1, device).ok).isTrue();
        broker.disconnect("dev");
        engine.awaitCount(Count.CONNECTIONS_LOST, 1);
        for (int i = 0; i < 5; i++) {
            assertThat(engine.publish("publish", "pub", 1, device).ok).as("held or dropped, not failed").isTrue();
        }
        engine.awaitCount(Count.RECONNECTS, 1);
        assertThat(engine.publish("publish", "pub", 1, device).ok).isTrue();
        engine.disconnect("disconnect pub", "pub", 1);
        engine.disconnect("disconnect sub", "sub", 1);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.PUBLISH_BUFFERED)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.count(Count.PUBLISH_BUFFER_DROPPED)).isEqualTo(2);
        assertThat(summary.count(Count.PUBLISHED_FROM_BUFFER)).isEqualTo(3);
        assertThat(summary.count(Count.PUBLISH_NOT_SENT)).isZero();
        assertThat(summary.count(Count.PUBLISHED)).isEqualTo(1 + 3 + 1);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(5);
        assertThat(summary.delivery.lost()).as("the dropped were never published: owed to nobody").isZero();
    }

    @Test
    void withoutABuffer_aPublishWhileDisconnected_failsAsBefore() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        assertThat(engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "dev", ReconnectPolicy.none())
                .ok).isTrue();
        broker.disconnect("dev");
        engine.awaitCount(Count.CONNECTIONS_LOST, 1);

        OperationResult r = engine.publish("publish", "pub", 1, MemoryEngine.bufferingPublisher("dev/{msg}", 1, 0));
        RunSummary summary = engine.shutdown();

        assertThat(r.ok).isFalse();
        assertThat(r.message).contains(PublishOperation.NOT_CONNECTED);
        assertThat(summary.count(Count.PUBLISH_NOT_SENT)).isEqualTo(1);
        assertThat(summary.count(Count.PUBLISH_BUFFERED)).isZero();
    }

    @Test
    void aSenderStartedAStallLate_sendsEverySlot_catchesUp_andIsOnTimeAgain() {
        MemoryEngine engine = subscribedAndConnected("sched/#", CLIENTS, "{engine}-p-{client}", ReconnectPolicy.none());
        // The schedule began a stall ago: the sender owes that stall's slots when its first sample starts.
        long anchor = MicroClock.nowMicros() - STALL_MICROS;
        PublishSlots slots = new PublishSlots(RATE, true, CLIENTS, 1, anchor);
        long until = anchor + 1_000_000;

        OperationResult r = engine.publishScheduled("publish", "pub", 1, "sched/{client}", 1, slots, until);
        long ended = MicroClock.nowMicros();
        engine.disconnect("disconnect pub", "pub", 1);
        engine.disconnect("disconnect sub", "sub", 1);
        RunSummary summary = engine.shutdown();

        long expected = slots.slotsIn(anchor, until);
        assertThat(expected).isEqualTo(400);
        assertThat(r.ok).as(r.message).isTrue();
        assertThat(ended).as("the sample kept the slots after the stall at their times").isGreaterThanOrEqualTo(
                slots.slotMicros(0, 0) + (long) ((expected / CLIENTS - 1) * 1e6 / RATE));
        assertThat(summary.count(Count.PUBLISHED)).as(summary.toTable()).isEqualTo(expected);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(expected);
        assertThat(summary.count(Count.SCHEDULED_IN_WINDOW)).as("offered: the slots").isEqualTo(expected);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        LatencyStats lag = summary.latencyOf(Latency.SCHEDULE_LAG);
        assertThat(lag.count).isEqualTo(expected);
        assertThat(lag.max).as("the first slot went out a stall late").isGreaterThanOrEqualTo(STALL_MICROS - 20_000);
        assertThat(lag.percentiles[0]).as("p50: most slots came after the catch-up, on time; the stall is not carried")
                .isLessThan(STALL_MICROS / 2);
    }

    @Test
    void aStoppedThread_endsItsSampleAtOnce_sendsNoMoreSlots_andLeavesNoTimerOnTheLoop() throws Exception {
        MemoryEngine engine = subscribedAndConnected("stop/#", CLIENTS, "{engine}-q-{client}", ReconnectPolicy.none());
        // One slot per client every 10 s, the first due at once: each client's chain then waits on a timer.
        long anchor = MicroClock.nowMicros() - 10_000_000;
        PublishSlots slots = new PublishSlots(0.1, true, CLIENTS, 1, anchor);
        ExecutorService jmeterThread = Executors.newSingleThreadExecutor();
        Future<OperationResult> sample = jmeterThread.submit(() -> engine.publishScheduled("publish", "pub", 1,
                "stop/{client}", 1, slots, anchor + 60_000_000));
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> broker.count(InMemoryBroker.Count.PUBLISHES_RECEIVED) == CLIENTS);

        jmeterThread.shutdownNow();
        OperationResult r = sample.get(5, TimeUnit.SECONDS);
        int pending = MemoryClientLoop.pending();
        engine.disconnect("disconnect pub", "pub", 1);
        engine.disconnect("disconnect sub", "sub", 1);
        RunSummary summary = engine.shutdown();

        assertThat(r.ok).isFalse();
        assertThat(r.message).contains("interrupted after " + CLIENTS);
        assertThat(pending).as("the chains' timers were cancelled").isZero();
        assertThat(summary.count(Count.PUBLISHED)).as(summary.toTable()).isEqualTo(CLIENTS);
        assertThat(slots.taken()).isEqualTo(CLIENTS);
    }
}
