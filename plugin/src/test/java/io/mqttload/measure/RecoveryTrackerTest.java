package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The recovery figures from known instants: shares of the affected clients back, attempts, sessions. */
class RecoveryTrackerTest {
    private static final long START = 1_000_000;

    /** 100 clients dropped at START + 500, client i back (i + 1) * 10 ms later after i % 3 + 1 attempts. */
    private static RecoveryTracker hundredDropped(int back) {
        RecoveryTracker t = new RecoveryTracker();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add("c" + i);
        }
        t.planned(ids, 2_000);
        for (String id : ids) {
            t.lost(id, START + 500);
        }
        for (int i = 0; i < back; i++) {
            for (int a = 0; a <= i % 3; a++) {
                t.attempt("c" + i);
            }
            t.back("c" + i, START + 500 + (i + 1) * 10L, i % 4 == 0);
        }
        return t;
    }

    @Test
    void hundredClientsBackTenMillisecondsApart_give50_90_99_100PercentAtTheirRanks() {
        Map<Count, Long> f = hundredDropped(100).figures(START);

        assertThat(f.get(Count.OUTAGE_CLIENTS)).isEqualTo(100);
        assertThat(f.get(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(100);
        assertThat(f.get(Count.OUTAGE_START_MILLIS)).isEqualTo(500);
        assertThat(f.get(Count.OUTAGE_END_MILLIS)).isEqualTo(1_500);
        assertThat(f.get(Count.RECOVERY_P50_MILLIS)).isEqualTo(500);
        assertThat(f.get(Count.RECOVERY_P90_MILLIS)).isEqualTo(900);
        assertThat(f.get(Count.RECOVERY_P99_MILLIS)).isEqualTo(990);
        assertThat(f.get(Count.RECOVERY_P100_MILLIS)).isEqualTo(1_000);
        assertThat(f.get(Count.RECOVERY_BOUND_MILLIS)).isEqualTo(2_000);
        // Attempts 1, 2, 3, 1, 2, 3, ...: 34 ones, 33 twos, 33 threes.
        assertThat(f.get(Count.RECOVERY_ATTEMPTS_MEDIAN)).isEqualTo(2);
        assertThat(f.get(Count.RECOVERY_ATTEMPTS_MAX)).isEqualTo(3);
        assertThat(f.get(Count.OUTAGE_SESSIONS_KEPT)).isEqualTo(25);
        assertThat(f.get(Count.OUTAGE_SESSIONS_LOST)).isEqualTo(75);
    }

    @Test
    void sharesNotReached_areZero_andTheEndIsTheLastReturn() {
        Map<Count, Long> f = hundredDropped(95).figures(START);

        assertThat(f.get(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(95);
        assertThat(f.get(Count.RECOVERY_P90_MILLIS)).isEqualTo(900);
        assertThat(f.get(Count.RECOVERY_P99_MILLIS)).isZero();
        assertThat(f.get(Count.RECOVERY_P100_MILLIS)).isZero();
        assertThat(f.get(Count.OUTAGE_END_MILLIS)).isEqualTo(1_450);
    }

    @Test
    void theBacklog_isWhatArrivedAfterTheReturnAndWasSentBeforeIt() {
        RecoveryTracker t = new RecoveryTracker();
        t.planned(List.of("a", "b"), 1_000);
        t.lost("a", START + 100);
        t.lost("b", START + 100);
        t.back("a", START + 200, true);
        t.back("b", START + 300, true);
        // Sent before the loss, while away, and (not backlog) after the return; micros.
        t.received("a", (START + 50) * 1000, (START + 210) * 1000);
        t.received("a", (START + 150) * 1000, (START + 260) * 1000);
        t.received("a", (START + 205) * 1000, (START + 270) * 1000);
        t.received("b", (START + 150) * 1000, (START + 320) * 1000);

        Map<Count, Long> f = t.figures(START);
        assertThat(f.get(Count.BACKLOG_RECEIVED)).isEqualTo(3);
        assertThat(f.get(Count.BACKLOG_DRAIN_MILLIS)).isEqualTo(60);
    }

    @Test
    void aClientTakenOfflineTwice_countsInEachWindow_andTheSharesAreTheSlowerWindows() {
        RecoveryTracker t = new RecoveryTracker();
        t.planned(List.of("a", "b"), 1_000);
        t.lost("a", START + 100);
        t.lost("b", START + 100);
        t.back("a", START + 150, false);
        t.back("b", START + 200, false);
        t.planned(List.of("a"), 1_000);
        t.lost("a", START + 1_000);
        t.lost("a", START + 1_001);
        t.attempt("a");
        t.back("a", START + 1_300, true);

        Map<Count, Long> f = t.figures(START);
        assertThat(f.get(Count.OUTAGE_CLIENTS)).isEqualTo(3);
        assertThat(f.get(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(3);
        // First window: 50 and 100 ms; second: 300 ms.
        assertThat(f.get(Count.RECOVERY_P50_MILLIS)).isEqualTo(300);
        assertThat(f.get(Count.RECOVERY_P100_MILLIS)).isEqualTo(300);
        assertThat(f.get(Count.OUTAGE_END_MILLIS)).isEqualTo(1_300);
        assertThat(f.get(Count.OUTAGE_SESSIONS_KEPT)).isEqualTo(1);
        assertThat(f.get(Count.RECOVERY_ATTEMPTS_MAX)).isEqualTo(1);
    }

    @Test
    void withoutADeclaration_lossesAreNotAnOutage() {
        RecoveryTracker t = new RecoveryTracker();
        t.lost("c", START + 1);
        t.back("c", START + 2, false);

        assertThat(t.declared()).isFalse();
        assertThat(t.figures(START).get(Count.OUTAGE_CLIENTS)).isZero();
        assertThat(t.figures(START).get(Count.RECOVERY_BOUND_MILLIS)).isZero();
    }

    @Test
    void anExpectedBrokerRestart_takesEveryClientLostAfterIt_notBefore() {
        RecoveryTracker t = new RecoveryTracker();
        t.planned(List.of(), 5_000);
        t.lost("before", START + 10);
        t.brokerRestartExpected(START + 100, 3_000, 0);
        t.lost("a", START + 200);
        t.lost("b", START + 210);
        t.back("a", START + 300, true);
        t.back("b", START + 400, true);

        Map<Count, Long> f = t.figures(START);
        assertThat(f.get(Count.OUTAGE_CLIENTS)).isEqualTo(2);
        assertThat(f.get(Count.RECOVERY_P50_MILLIS)).isEqualTo(100);
        assertThat(f.get(Count.RECOVERY_P100_MILLIS)).isEqualTo(200);
        assertThat(f.get(Count.RECOVERY_BOUND_MILLIS)).isEqualTo(3_000);
        assertThat(f.get(Count.OUTAGE_SESSIONS_KEPT)).isEqualTo(2);
    }

    @Test
    void anExpectedBrokerRestartWithAWindow_takesOnlyTheLossesInsideIt() {
        RecoveryTracker t = new RecoveryTracker();
        t.brokerRestartExpected(START + 100, 3_000, 500);
        t.lost("inside", START + 600);
        t.lost("after", START + 601);
        t.back("inside", START + 700, false);

        Map<Count, Long> f = t.figures(START);
        assertThat(f.get(Count.OUTAGE_CLIENTS)).isEqualTo(1);
        assertThat(f.get(Count.OUTAGE_CLIENTS_BACK)).isEqualTo(1);
    }

    @Test
    void aClientIsAway_whileAPlannedOutageHoldsIt_orNotConnectedWithARestartExpected() {
        RecoveryTracker t = new RecoveryTracker();
        assertThat(t.away("c", false)).as("nothing declared").isFalse();
        t.planned(List.of("c"), 5_000);
        assertThat(t.away("c", true)).as("about to be dropped").isTrue();
        t.lost("c", START + 10);
        assertThat(t.away("c", false)).isTrue();
        t.back("c", START + 20, false);
        assertThat(t.away("c", true)).as("back").isFalse();
        assertThat(t.away("other", false)).as("not the plan's").isFalse();

        long now = System.currentTimeMillis();
        t.brokerRestartExpected(now - 1_000, 5_000, 0);
        assertThat(t.away("other", false)).as("a restart expected, not connected").isTrue();
        assertThat(t.away("other", true)).isFalse();
        RecoveryTracker over = new RecoveryTracker();
        over.brokerRestartExpected(now - 1_000, 5_000, 500);
        assertThat(over.away("other", false)).as("its window over").isFalse();
    }
}
