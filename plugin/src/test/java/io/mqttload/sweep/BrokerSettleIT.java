package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The wait before a step for the broker to finish the step before's work, against real processes read through /proc:
 * one busy for two seconds and then idle is waited for until it has been quiet for three, one busy throughout until
 * the limit, and one that is gone not at all.
 */
class BrokerSettleIT {

    private static Process shell(String script) throws Exception {
        return new ProcessBuilder("bash", "-c", script).start();
    }

    @Test
    void aBrokerBusyForAWhile_isWaitedFor_untilItHasBeenQuiet() throws Exception {
        Process p = shell("end=$((SECONDS + 2)); while [ $SECONDS -lt $end ]; do :; done; sleep 60");
        try {
            BrokerSettle.Result r = BrokerSettle.await(p.pid(), 30);

            assertThat(r.settled).isTrue();
            assertThat(r.seconds).as(r.describe()).isBetween((double) BrokerSettle.QUIET_SECONDS, 30.0);
            assertThat(r.lastPercent).isLessThan(BrokerSettle.QUIET_SHARE * 100);
            assertThat(r.describe()).startsWith("broker settled in ");
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBrokerBusyThroughout_isWaitedForUntilTheLimit_andSaidSo() throws Exception {
        Process p = shell("while :; do :; done");
        try {
            BrokerSettle.Result r = BrokerSettle.await(p.pid(), 2);

            assertThat(r.settled).isFalse();
            assertThat(r.seconds).isBetween(2.0, 10.0);
            assertThat(r.describe()).matches("broker still at \\d+ % of a core after \\d+ s: the step runs anyway, and"
                    + " may meet the step before's work");
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBrokerThatIsGone_isNotWaitedFor() throws Exception {
        Process p = shell("exit 0");
        p.waitFor(10, TimeUnit.SECONDS);

        BrokerSettle.Result r = BrokerSettle.await(p.pid(), 30);

        assertThat(r.settled).isTrue();
        assertThat(r.seconds).isLessThan(1.0);
    }
}
