package io.mqttload.rendezvous;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * Barriers across engines, each engine a {@link Rendezvous} of its own on one in-memory broker: released together when
 * the group is complete, broken by the timeout naming who came, stopped at once by another run id, and a broker that
 * refuses or does not answer fails the client within its bound (RendezvousIT does the same through real brokers).
 */
class RendezvousTest {
    private static final ConnectionSettings SETTINGS = MemoryEngine.settings().connectTimeoutMs(300).build();

    private final InMemoryBroker broker = new InMemoryBroker();
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
        broker.close();
    }

    private Rendezvous engine(String runId, boolean given, int number) {
        Rendezvous r = new Rendezvous(broker, SETTINGS, runId, given, given ? "property mqttload.runId"
                : "made up by the engine itself", "engine-" + number, number, 0);
        engines.add(r);
        return r;
    }

    private Future<Rendezvous.Passage> arrive(Rendezvous engine, int groupSize, long timeoutMillis) {
        return threads.submit(() -> engine.await("start", 1, groupSize, timeoutMillis, true));
    }

    @Test
    void aCompleteGroup_releasesEveryEngineTogether() throws Exception {
        List<Future<Rendezvous.Passage>> passages = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            passages.add(arrive(engine("run-1", true, n), 3, 5_000));
        }

        long firstWake = Long.MAX_VALUE;
        long lastWake = Long.MIN_VALUE;
        for (Future<Rendezvous.Passage> f : passages) {
            Rendezvous.Passage p = f.get(5, TimeUnit.SECONDS);
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

    @Test
    void anIncompleteGroup_timesOut_andTheBarrierNamesWhoCame() throws Exception {
        Future<Rendezvous.Passage> one = arrive(engine("run-2", true, 1), 3, 300);
        Future<Rendezvous.Passage> two = arrive(engine("run-2", true, 2), 3, 300);

        Rendezvous.Passage a = one.get(3, TimeUnit.SECONDS);
        Rendezvous.Passage b = two.get(3, TimeUnit.SECONDS);

        assertThat(a.released).isFalse();
        assertThat(b.released).isFalse();
        assertThat(a.brokeIt).as("each engine's own barrier is broken by its own thread").isTrue();
        assertThat(b.brokeIt).isTrue();
        assertThat(a.barrier.arrived()).isEqualTo(2);
        assertThat(a.barrier.enginesSeen()).containsExactly("engine-1", "engine-2");
        assertThat(a.barrier.isBroken()).isTrue();
    }

    @Test
    void enginesUnderAnotherRunId_stopTheBarrierAtOnce_namingBothIds() throws Exception {
        Future<Rendezvous.Passage> mine = arrive(engine("run-mine", false, 1), 2, 10_000);
        Future<Rendezvous.Passage> other = arrive(engine("run-other", false, 2), 2, 10_000);

        Rendezvous.Passage p = mine.get(3, TimeUnit.SECONDS);
        Rendezvous.Passage q = other.get(3, TimeUnit.SECONDS);

        assertThat(p.released).isFalse();
        assertThat(q.released).isFalse();
        assertThat(p.barrier.mismatch()).contains("engine engine-2 arrived under run id run-other")
                .contains("this engine engine-1 under run id run-mine");
        assertThat(q.barrier.mismatch()).contains("engine engine-1 arrived under run id run-mine");
        assertThat(p.barrier.otherRuns()).containsExactly("engine-2 (run run-other)");
    }

    @Test
    void twoRunsWithIdsGivenOnPurpose_shareTheBrokerWithoutStoppingEachOther() throws Exception {
        Future<Rendezvous.Passage> a1 = arrive(engine("run-a", true, 1), 2, 5_000);
        Future<Rendezvous.Passage> b1 = arrive(engine("run-b", true, 3), 1, 5_000);
        Future<Rendezvous.Passage> a2 = arrive(engine("run-a", true, 2), 2, 5_000);

        assertThat(a1.get(5, TimeUnit.SECONDS).released).isTrue();
        assertThat(a2.get(5, TimeUnit.SECONDS).released).isTrue();
        assertThat(b1.get(5, TimeUnit.SECONDS).released).isTrue();
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
