package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.ClockSync;
import io.mqttload.clock.OffsetEstimator;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;

/**
 * The clock exchange between two engines' clients through a real broker (HiveMQ CE, embedded). Both run in this JVM
 * and read the same clock, so the true offset is exactly 0 and the estimate must lie within its bound of it: the bound
 * is a causality bound, not a statistic. A reference that goes away costs a bounded wait and a reason, never a hang.
 */
class ClockSyncIT {
    private static final long TIMEOUT_MS = 2_000;
    private static EmbeddedHiveMqBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static ConnectionSettings settings() {
        return ConnectionSettings.builder().host(broker.host()).port(broker.tcpPort()).connectTimeoutMs(5_000).build();
    }

    private static ClockSync engine(String run, int number) {
        return ClockSync.start(settings(), run, "engine-" + number, number, 2, 16, TIMEOUT_MS);
    }

    @Test
    void twoEngines_theLowestNumberIsTheReference_andOneClockMeasuresZeroWithinItsBound() {
        try (ClockSync seven = engine("clock-same", 7); ClockSync three = engine("clock-same", 3)) {
            seven.productionStarted();
            three.productionStarted();
            // Production lasts: the exchange before it is over (in the background) before the run ends.
            await().atMost(Duration.ofMillis(4 * TIMEOUT_MS)).until(() -> seven.snapshot().before != null);
            seven.endOfRun();
            three.endOfRun();
            ClockFigures f = seven.finish();
            // The reference waits (bounded) for engine 7 to say it is done: it did in its finish above.
            long started = System.nanoTime();
            ClockFigures ref = three.finish();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(TIMEOUT_MS));

            assertThat(ref.reference).isTrue();
            assertThat(ref.referenceEngine).isEqualTo("engine-3");
            assertThat(f.reference).isFalse();
            assertThat(f.referenceEngine).isEqualTo("engine-3");
            assertThat(f.notMeasured).isNull();
            for (OffsetEstimator.Estimate e : new OffsetEstimator.Estimate[] {f.before, f.after}) {
                assertThat(e).isNotNull();
                assertThat(e.samples).isEqualTo(16);
                assertThat(Math.abs(e.offsetMicros)).as("offset %d µs within its bound %d µs", e.offsetMicros, e.boundMicros)
                        .isLessThanOrEqualTo(e.boundMicros);
                // Half the best round trip, whose size is this machine's: each was answered within the clock timeout.
                assertThat(e.boundMicros).isPositive().isLessThan(TimeUnit.MILLISECONDS.toMicros(TIMEOUT_MS));
            }
            assertThat(f.after.atMicros).isGreaterThan(f.before.atMicros);
        }
    }

    @Test
    void aReferenceThatEndedFirst_costsABoundedWait_andTheFiguresSayWhy() {
        try (ClockSync two = engine("clock-gone", 2)) {
            ClockFigures f;
            try (ClockSync one = engine("clock-gone", 1)) {
                one.productionStarted();
                two.productionStarted();
                // The exchange before production runs in the background.
                await().atMost(Duration.ofMillis(4 * TIMEOUT_MS)).until(() -> two.snapshot().before != null);
            }
            long started = System.nanoTime();
            two.endOfRun();
            f = two.finish();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(TIMEOUT_MS + 1_000));

            assertThat(f.before).isNotNull();
            assertThat(f.after).isNull();
            // Given up after three requests in a row went unanswered, well within the clock timeout.
            assertThat(f.notMeasured).isEqualTo("after: engine-1 answered none of 3 requests (it may have ended its run"
                    + " first)");
        }
    }
}
