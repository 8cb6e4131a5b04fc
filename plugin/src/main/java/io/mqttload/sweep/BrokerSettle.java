package io.mqttload.sweep;

import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.mqttload.broker.ProcessStats;

/**
 * Before a step, the broker's own work left from the step before: a step that failed far over its SLA leaves the broker
 * working off a backlog while the last engine disconnects its clients, and the next step would meet that as its own
 * load (connects timing out, subscribers without a CONNACK). Waits, bounded, until the broker's process has used under
 * {@link #QUIET_SHARE} of one core for {@link #QUIET_SECONDS} seconds in a row.
 */
final class BrokerSettle {
    static final double QUIET_SHARE = 0.2;
    static final int QUIET_SECONDS = 3;

    /** How the wait ended. */
    static final class Result {
        final boolean settled;
        final double seconds;
        /** The broker's CPU over the last second read, in % of one core. */
        final double lastPercent;

        Result(boolean settled, double seconds, double lastPercent) {
            this.settled = settled;
            this.seconds = seconds;
            this.lastPercent = lastPercent;
        }

        String describe() {
            return settled ? String.format(Locale.ROOT, "broker settled in %.0f s (under %.0f %% of a core for %d s)",
                    seconds, QUIET_SHARE * 100, QUIET_SECONDS)
                    : String.format(Locale.ROOT, "broker still at %.0f %% of a core after %.0f s: the step runs anyway,"
                            + " and may meet the step before's work", lastPercent, seconds);
        }
    }

    private BrokerSettle() {
    }

    /**
     * Waits at most {@code maxSeconds} for the process {@code pid} to be quiet; a process that is gone (or unreadable)
     * ends the wait at once as settled: the step then says what became of the broker.
     */
    static Result await(long pid, long maxSeconds) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(maxSeconds);
        int quiet = 0;
        double percent = 0;
        try {
            long ticks = ProcessStats.cpuTicksOf(pid);
            long at = System.nanoTime();
            while (quiet < QUIET_SECONDS) {
                if (System.nanoTime() >= deadline) {
                    return new Result(false, (System.nanoTime() - start) / 1e9, percent);
                }
                TimeUnit.SECONDS.sleep(1);
                long nowTicks = ProcessStats.cpuTicksOf(pid);
                long now = System.nanoTime();
                percent = ProcessStats.cpuPercentOfCore(ticks, nowTicks, (now - at) / 1e9);
                quiet = percent < QUIET_SHARE * 100 ? quiet + 1 : 0;
                ticks = nowTicks;
                at = now;
            }
        } catch (IOException gone) {
            // Nothing left to wait for: settled, as documented above.
        }
        return new Result(true, (System.nanoTime() - start) / 1e9, percent);
    }
}
