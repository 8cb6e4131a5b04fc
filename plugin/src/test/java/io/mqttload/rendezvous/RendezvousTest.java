package io.mqttload.rendezvous;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ControlConnection;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * Barriers across engines, each engine a {@link Rendezvous} of its own on one in-memory broker: released together when
 * the group is complete, broken by the timeout naming who came, stopped at once by another run id, and a broker that
 * refuses or does not answer fails the client within its bound (RendezvousIT does the same through real brokers).
 */
class RendezvousTest {
    private static final ConnectionSettings SETTINGS = MemoryEngine.settings().connectTimeoutMs(300).build();

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "rendezvous-test");
        t.setDaemon(true);
        return t;
    });
    private final List<Rendezvous> engines = new ArrayList<>();

    @AfterEach
    void close() {
        engines.forEach(Rendezvous::close);
        threads.shutdownNow();
    }

    private Rendezvous engine(String runId, boolean given, int number) {
        Rendezvous r = new Rendezvous(broker, SETTINGS, runId, given, given ? "property mqttload.runId"
                : "made up by the engine itself", "engine-" + number, number, 0);
        engines.add(r);
        return r;
    }

    /** One thread of each engine arrives at barrier "start" #1 at once; their passages, in the engines' order. */
    private List<Rendezvous.Passage> arrive(int groupSize, long timeoutMillis, Rendezvous... engines) throws Exception {
        List<Future<Rendezvous.Passage>> waits = new ArrayList<>();
        for (Rendezvous e : engines) {
            waits.add(threads.submit(() -> e.await("start", 1, groupSize, timeoutMillis, true)));
        }
        List<Rendezvous.Passage> passages = new ArrayList<>();
        for (Future<Rendezvous.Passage> w : waits) {
            passages.add(w.get(timeoutMillis + 3_000, TimeUnit.MILLISECONDS));
        }
        return passages;
    }

    @Test
    void aCompleteGroup_releasesEveryEngineTogether() throws Exception {
        List<Rendezvous.Passage> passages = arrive(3, 5_000, engine("run-1", true, 1), engine("run-1", true, 2),
                engine("run-1", true, 3));

        long firstWake = Long.MAX_VALUE;
        long lastWake = Long.MIN_VALUE;
        for (Rendezvous.Passage p : passages) {
            assertThat(p.released).isTrue();
            assertThat(p.barrier.arrivedAtRelease()).isEqualTo(3);
            assertThat(p.barrier.enginesSeen()).containsExactly("engine-1", "engine-2", "engine-3");
            firstWake = Math.min(firstWake, p.barrier.firstWakeMicros());
            lastWake = Math.max(lastWake, p.barrier.lastWakeMicros());
        }
        assertThat(lastWake - firstWake).as("µs between the first and the last engine's release").isLessThan(200_000);
        // Released engines clear their announcements: nothing is left for a later run.
        broker.awaitIdle();
        assertThat(broker.retained("mqttload/rendezvous/run-1/start/1/engine-1/1")).isNull();
    }

    /**
     * Two threads of one engine reach a barrier together while its subscription is still on its way, on a broker that
     * sends no retained message to a wildcard subscription (RabbitMQ 3.10): the second waits for the subscription
     * before it announces, so both are heard. Announcing at once, it was heard by nobody and the barrier timed out
     * (the seed comparison's RabbitMQ side, 3 of 5 runs).
     */
    @Test
    void aThreadReachingABarrierBeingSubscribedTo_announcesAfterTheSubscription() throws Exception {
        broker.noRetainedToWildcards().holdSubscriptions();
        Rendezvous engine = engine("run-race", true, 1);
        Future<Rendezvous.Passage> first = threads.submit(() -> engine.await("start", 1, 2, 3_000, false));
        await().atMost(Duration.ofSeconds(5)).until(() -> broker.count(InMemoryBroker.Count.SUBSCRIBES_HELD) > 0);
        CompletableFuture<Rendezvous.Passage> second = new CompletableFuture<>();
        Thread arriving = new Thread(() -> {
            try {
                second.complete(engine.await("start", 1, 2, 3_000, false));
            } catch (InterruptedException e) {
                second.completeExceptionally(e);
            }
        }, "rendezvous-test-second");
        arriving.setDaemon(true);
        arriving.start();
        // Either it waits for the subscription, or (the fault) it has announced already.
        await().atMost(Duration.ofSeconds(5)).until(() -> arriving.getState() == Thread.State.BLOCKED
                || broker.retained("mqttload/rendezvous/run-race/start/1/engine-1/1") != null);
        broker.releaseSubscriptions();

        assertThat(first.get(6, TimeUnit.SECONDS).released).isTrue();
        Rendezvous.Passage p = second.get(6, TimeUnit.SECONDS);
        assertThat(p.released).isTrue();
        assertThat(p.barrier.arrivedAtRelease()).isEqualTo(2);
    }

    @Test
    void anIncompleteGroup_timesOut_andTheBarrierNamesWhoCame() throws Exception {
        List<Rendezvous.Passage> passages = arrive(3, 300, engine("run-2", true, 1), engine("run-2", true, 2));

        assertThat(passages).allSatisfy(p -> {
            assertThat(p.released).isFalse();
            assertThat(p.brokeIt).as("each engine's barrier is broken by its own thread").isTrue();
            assertThat(p.barrier.isBroken()).isTrue();
            assertThat(p.barrier.arrived()).isEqualTo(2);
            assertThat(p.barrier.enginesSeen()).containsExactly("engine-1", "engine-2");
        });
    }

    @Test
    void announcementsOfAnotherRun_areNotCounted() throws Exception {
        // Leftovers of another run on the same broker, as an engine killed mid-barrier leaves them: two retained
        // announcements at the same barrier; and an engine of that run waiting there now.
        ControlConnection other = broker.controlConnection("other-run", SETTINGS, 1_000, null, (topic, payload) -> { });
        for (int i = 1; i <= 2; i++) {
            other.publish("mqttload/rendezvous/run-other/start/1/ghost/" + i, "ghost".getBytes(StandardCharsets.UTF_8),
                    1, true).get(1, TimeUnit.SECONDS);
        }
        other.close(1_000);
        Rendezvous otherRun = engine("run-other", true, 9);
        Future<Rendezvous.Passage> waiting = threads.submit(() -> otherRun.await("start", 1, 5, 5_000, true));
        // Its announcement is on the broker once it heard it back.
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> otherRun.barriers().stream().anyMatch(b -> b.arrived() >= 1));

        // With the other run's three, this run's two would fill a group of five.
        List<Rendezvous.Passage> passages = arrive(5, 300, engine("run-6", true, 1), engine("run-6", true, 2));

        assertThat(passages).allSatisfy(p -> {
            assertThat(p.released).isFalse();
            assertThat(p.barrier.arrived()).isEqualTo(2);
            assertThat(p.barrier.enginesSeen()).containsExactly("engine-1", "engine-2");
        });
        assertThat(waiting.isDone()).as("the other run still waits for its own engines").isFalse();
    }

    @Test
    void enginesUnderAnotherRunId_stopTheBarrierAtOnce_namingBothIds() throws Exception {
        long start = System.nanoTime();
        List<Rendezvous.Passage> passages = arrive(2, 10_000, engine("run-mine", false, 1),
                engine("run-other", false, 2));

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("long before the timeout")
                .isLessThan(3_000);
        assertThat(passages).noneMatch(p -> p.released);
        Rendezvous.Barrier mine = passages.get(0).barrier;
        assertThat(mine.mismatch()).contains("engine engine-2 arrived under run id run-other")
                .contains("this engine engine-1 under run id run-mine");
        assertThat(mine.otherRuns()).containsExactly("engine-2 (run run-other)");
        assertThat(passages.get(1).barrier.mismatch()).contains("engine engine-1 arrived under run id run-mine");
    }

    @Test
    void twoRunsWithIdsGivenOnPurpose_shareTheBrokerWithoutStoppingEachOther() throws Exception {
        Rendezvous runB = engine("run-b", true, 3);
        Future<Rendezvous.Passage> alone = threads.submit(() -> runB.await("start", 1, 1, 5_000, true));

        assertThat(arrive(2, 5_000, engine("run-a", true, 1), engine("run-a", true, 2))).allMatch(p -> p.released);
        assertThat(alone.get(5, TimeUnit.SECONDS).released).isTrue();
    }

    @Test
    void aBrokerRestartDuringTheWait_isSurvived_theWaitingEngineAnnouncesItselfAgain() throws Exception {
        Rendezvous first = engine("run-5", true, 1);
        Future<Rendezvous.Passage> waiting = threads.submit(() -> first.await("start", 1, 2, 5_000, true));
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> broker.retained("mqttload/rendezvous/run-5/start/1/engine-1/1") != null);

        broker.restart();
        assertThat(broker.retained("mqttload/rendezvous/run-5/start/1/engine-1/1")).as("forgotten").isNull();
        // Back within the control client's first reconnect delay: it subscribes and announces its thread again.
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> broker.retained("mqttload/rendezvous/run-5/start/1/engine-1/1") != null);
        Rendezvous.Passage second = arrive(2, 5_000, engine("run-5", true, 2)).get(0);

        assertThat(second.released).isTrue();
        assertThat(waiting.get(5, TimeUnit.SECONDS).released).isTrue();
    }

    @Test
    void aBrokerThatRefuses_failsTheClientAtOnce_namingTheReason() {
        broker.refuseConnects("NOT_AUTHORIZED");

        assertThatThrownBy(() -> engine("run-3", true, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("rendezvous client could not connect to " + SETTINGS.describe() + ": CONNACK refused:")
                .hasMessageContaining("CONNACK refused: NOT_AUTHORIZED");
    }

    @Test
    void aBrokerThatDoesNotAnswer_failsTheClientWithinItsTimeout() {
        broker.ignoreConnects();
        long start = System.nanoTime();

        assertThatThrownBy(() -> engine("run-4", true, 1)).isInstanceOf(IllegalStateException.class)
                // Its own wait or the client's CONNACK timeout, whichever ends first: both are the 300 ms.
                .hasMessageContaining("300 ms").hasMessageContaining("(1 attempt in");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
    }
}
