package io.mqttload.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;

import org.junit.jupiter.api.Test;

import io.mqttload.client.ReconnectPolicy.Kind;
import io.mqttload.common.InvalidSettingException;

/**
 * The policies' delays against the definitions of the AWS Architecture Blog's "Exponential Backoff And Jitter" (2015),
 * with a seeded random source, so that each bound and tolerance holds for every run.
 */
class ReconnectPolicyTest {
    private static final long BASE = 100;
    private static final long CAP = 5_000;
    private static final int DRAWS = 100_000;

    private static ReconnectPolicy policy(Kind kind, int attempts) {
        return new ReconnectPolicy(kind, attempts, BASE, CAP, 0, 0, false);
    }

    /** {@code min(cap, base * 2^n)}, computed apart from the policy. */
    private static long exponential(int n) {
        return n >= 62 ? CAP : Math.min(CAP, BASE * (1L << Math.min(n, 40)));
    }

    @Test
    void immediate_isZero_andFixed_isTheBase_atEveryAttempt() {
        Random random = new Random(1);
        for (int n = 0; n < 50; n++) {
            assertThat(policy(Kind.IMMEDIATE, 50).delayMillis(n, BASE, random)).isZero();
            assertThat(policy(Kind.FIXED, 50).delayMillis(n, BASE, random)).isEqualTo(BASE);
        }
    }

    @Test
    void exponential_isTheBaseDoubledPerAttempt_upToTheCap_withoutOverflow() {
        ReconnectPolicy p = policy(Kind.EXPONENTIAL, 1000);
        for (int n = 0; n < 1000; n++) {
            assertThat(p.delayMillis(n, BASE, null)).as("attempt %d", n).isEqualTo(exponential(n));
        }
        assertThat(p.delayMillis(0, BASE, null)).isEqualTo(100);
        assertThat(p.delayMillis(5, BASE, null)).isEqualTo(3_200);
        assertThat(p.delayMillis(6, BASE, null)).isEqualTo(CAP);
    }

    @Test
    void todaysSettings_giveTodaysDoublingDelays() {
        // reconnectAttempts 3, reconnectDelayMs 1000, reconnectMaxDelayMs 10000: the defaults before the policy existed.
        ReconnectPolicy p = new ReconnectPolicy(3, 1_000, 10_000);
        assertThat(p.kind()).isEqualTo(Kind.EXPONENTIAL);
        assertThat(p.retriesFirstConnect()).isFalse();
        assertThat(new long[] {p.delayMillis(0, 0, null), p.delayMillis(1, 0, null), p.delayMillis(2, 0, null),
            p.delayMillis(3, 0, null), p.delayMillis(4, 0, null)}).containsExactly(1_000, 2_000, 4_000, 8_000, 10_000);
        assertThat(p.worstCaseMillis(500)).isEqualTo(1_000 + 2_000 + 4_000 + 3 * 500);
    }

    @Test
    void fullJitter_staysWithinZeroAndTheExponentialDelay_andIsUniformThere() {
        ReconnectPolicy p = policy(Kind.FULL_JITTER, 100);
        Random random = new Random(42);
        for (int n : new int[] {0, 3, 10}) {
            long upper = exponential(n);
            long[] deciles = new long[10];
            double sum = 0;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < DRAWS; i++) {
                long d = p.delayMillis(n, BASE, random);
                assertThat(d).isBetween(0L, upper);
                sum += d;
                min = Math.min(min, d);
                max = Math.max(max, d);
                deciles[(int) Math.min(9, d * 10 / (upper + 1))]++;
            }
            // A uniform draw's mean is upper / 2, its standard error upper / sqrt(12 * DRAWS), 0.1 % of upper here: a
            // tolerance of 1 % is ten of them. Each tenth of the range holds 10 % of the draws, within 1 %.
            assertThat(sum / DRAWS).as("mean at attempt %d", n).isCloseTo(upper / 2.0, within(upper * 0.01));
            for (long inDecile : deciles) {
                assertThat((double) inDecile / DRAWS).isCloseTo(0.1, within(0.01));
            }
            assertThat(min).isLessThan(upper / 100 + 1);
            assertThat(max).isGreaterThan(upper - upper / 100 - 1);
        }
    }

    @Test
    void decorrelatedJitter_staysWithinTheBaseAndThreeTimesThePrevious_cappedAtTheCap() {
        ReconnectPolicy p = policy(Kind.DECORRELATED_JITTER, ReconnectPolicy.UNBOUNDED);
        Random random = new Random(7);
        long previous = p.firstPreviousMillis();
        assertThat(previous).isEqualTo(BASE);
        boolean reachedCap = false;
        double sum = 0;
        for (int n = 0; n < DRAWS; n++) {
            long d = p.delayMillis(n, previous, random);
            assertThat(d).as("attempt %d after %d", n, previous).isBetween(BASE, Math.min(CAP, previous * 3));
            reachedCap |= d == CAP;
            sum += d;
            previous = d;
        }
        assertThat(reachedCap).isTrue();
        // The series wanders between base and cap, not stuck at either end.
        assertThat(sum / DRAWS).isBetween(BASE * 2.0, CAP * 0.9);
        // From the base, the first draw is uniform in [base, 3 * base].
        double first = 0;
        for (int i = 0; i < DRAWS; i++) {
            first += p.delayMillis(0, BASE, random);
        }
        assertThat(first / DRAWS).isCloseTo(2.0 * BASE, within(BASE * 0.02));
    }

    @Test
    void theAttemptsBound_isHonoured_andUnboundedAttemptsGoOn() {
        Retries bounded = new Retries(policy(Kind.FIXED, 3), new Random(1));
        assertThat(bounded.next(false, 0, -1, true)).isEqualTo(BASE);
        assertThat(bounded.next(false, 2, -1, true)).isEqualTo(BASE);
        assertThat(bounded.next(false, 3, -1, true)).isEqualTo(Retries.NONE);

        Retries unbounded = new Retries(policy(Kind.EXPONENTIAL, ReconnectPolicy.UNBOUNDED), new Random(1));
        assertThat(unbounded.policy().isUnbounded()).isTrue();
        assertThat(unbounded.next(false, 1_000_000, -1, true)).isEqualTo(CAP);
        assertThatThrownBy(() -> unbounded.policy().worstCaseMillis(1_000)).isInstanceOf(IllegalStateException.class);

        Retries none = new Retries(policy(Kind.NONE, 5), new Random(1));
        assertThat(none.next(false, 0, -1, true)).isEqualTo(Retries.NONE);
        assertThat(none.policy().describe()).isEqualTo("none");
    }

    @Test
    void aFirstConnect_isRetriedOnlyWhenThePolicySaysSo() {
        Retries benchmark = new Retries(policy(Kind.FIXED, 3), new Random(1));
        assertThat(benchmark.next(true, 0, -1, true)).isEqualTo(Retries.NONE);
        Retries device = new Retries(new ReconnectPolicy(Kind.FIXED, 3, BASE, CAP, 0, 0, true), new Random(1));
        assertThat(device.next(true, 0, -1, true)).isEqualTo(BASE);
        assertThat(device.next(true, 3, -1, true)).isEqualTo(Retries.NONE);
        assertThat(device.policy().describe()).isEqualTo("FIXED (3 attempts, 100 ms; first connect retried)");
    }

    @Test
    void refusalsThatMeanLater_areRetried_othersAreNot() {
        Retries r = new Retries(new ReconnectPolicy(Kind.FIXED, 3, BASE, CAP, 0, 0, true), new Random(1));
        for (int later : new int[] {0x88, 0x89, 0x97, 0x9F}) {
            assertThat(r.next(true, 0, later, true)).as("0x%x", later).isEqualTo(BASE);
        }
        for (int final_ : new int[] {0x80, 0x84, 0x85, 0x86, 0x87, 0x8A, 0x8C}) {
            assertThat(r.next(true, 0, final_, true)).as("0x%x", final_).isEqualTo(Retries.NONE);
            assertThat(r.next(false, 0, final_, true)).as("0x%x", final_).isEqualTo(Retries.NONE);
        }
        // MQTT 3.1.1: only "server unavailable" (3) means later.
        assertThat(r.next(true, 0, 3, false)).isEqualTo(BASE);
        assertThat(r.next(true, 0, 4, false)).isEqualTo(Retries.NONE);
        assertThat(r.next(true, 0, 5, false)).isEqualTo(Retries.NONE);
    }

    @Test
    void theInitialWait_isDrawnBetweenItsBounds() {
        ReconnectPolicy p = new ReconnectPolicy(Kind.EXPONENTIAL, 3, BASE, CAP, 1_000, 3_000, false);
        Random random = new Random(3);
        double sum = 0;
        for (int i = 0; i < DRAWS; i++) {
            long w = p.initialWaitMillis(random);
            assertThat(w).isBetween(1_000L, 3_000L);
            sum += w;
        }
        assertThat(sum / DRAWS).isCloseTo(2_000.0, within(20.0));
        assertThat(new ReconnectPolicy(3, BASE, CAP).initialWaitMillis(random)).isZero();
        assertThat(p.describe()).isEqualTo("EXPONENTIAL (3 attempts, 100 to 5000 ms; initial wait 1000 to 3000 ms)");
    }

    @Test
    void aCapBelowTheBase_orALongestWaitBelowTheShortest_isRefused_namingFieldAndValue() {
        assertThatThrownBy(() -> new ReconnectPolicy(Kind.FULL_JITTER, 3, 1_000, 500, 0, 0, false))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("reconnectMaxDelayMs = '500': must be between 1000 (reconnectDelayMs) and 3600000");
        assertThatThrownBy(() -> new ReconnectPolicy(Kind.FIXED, 3, 0, 0, 2_000, 1_000, false))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("initialWaitMaxMs = '1000': must be between 2000 (initialWaitMinMs) and 3600000");
    }
}
