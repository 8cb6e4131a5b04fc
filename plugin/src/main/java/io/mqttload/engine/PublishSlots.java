package io.mqttload.engine;

import java.util.concurrent.TimeUnit;

/**
 * One thread's publishing schedule of its own (the Publish sampler's {@code rate}), wrk2-style: every message of each of
 * the thread's clients has its slot, in microseconds from the thread's anchor, and the slot is its intended send time
 * however late it goes out. Each client keeps its own slots; their phases are spread evenly over the client's interval
 * (and offset per thread), so a thread's clients never publish in one burst. A sender held up (acknowledgements that do
 * not come, a busy generator) finds the slots it owes due at once and sends them as fast as its in-flight bound allows,
 * then is on time again: lag is never carried forward. Slot times are computed from the slot's number, never by adding
 * rounded intervals, so any rate is kept over a run to within a microsecond per slot.
 *
 * <p>Used by one JMeter thread (its samples take and send the slots); the metrics ticker reads the rate and the slots
 * owed, which are volatile.
 */
public final class PublishSlots implements PacedThread {
    /** The golden ratio's fraction: consecutive threads' phase offsets land far apart for any number of threads. */
    private static final double GOLDEN = 0.6180339887498949;
    private static final double MICROS_PER_SECOND = TimeUnit.SECONDS.toMicros(1);

    private final long anchorMicros;
    private final double clientRate;
    private final double totalRate;
    private final double[] phase;
    private final long[] next;
    /** Slots before this instant were all due in samples that ran; up to here the thread owes nothing more. */
    private volatile long coveredUntilMicros;
    private volatile boolean inSample;

    /**
     * @param rate      messages per second, of each client ({@code perClient}) or of the thread as a whole (shared evenly
     *                  by its clients)
     * @param clients   the thread's clients, at least 1
     * @param seed      the thread's number: spreads the threads' phases from one another
     * @param anchorMicros the schedule's start (wall clock, µs)
     */
    public PublishSlots(double rate, boolean perClient, int clients, int seed, long anchorMicros) {
        if (!(rate > 0) || clients < 1) {
            throw new IllegalArgumentException("rate " + rate + " for " + clients + " clients");
        }
        this.anchorMicros = anchorMicros;
        this.clientRate = perClient ? rate : rate / clients;
        this.totalRate = clientRate * clients;
        this.phase = new double[clients];
        this.next = new long[clients];
        double offset = (seed * GOLDEN) % 1.0;
        for (int c = 0; c < clients; c++) {
            phase[c] = (c + offset) / clients;
        }
        this.coveredUntilMicros = anchorMicros;
    }

    public int clients() {
        return phase.length;
    }

    /** The wall-clock time (µs) of client {@code client}'s slot number {@code k} (from 0). */
    public long slotMicros(int client, long k) {
        return anchorMicros + (long) Math.floor((k + phase[client]) * MICROS_PER_SECOND / clientRate);
    }

    /** The client whose next slot comes first. */
    public int earliestClient() {
        int best = 0;
        long bestAt = slotMicros(0, next[0]);
        for (int c = 1; c < next.length; c++) {
            long at = slotMicros(c, next[c]);
            if (at < bestAt) {
                best = c;
                bestAt = at;
            }
        }
        return best;
    }

    /** Client {@code client}'s next slot (µs), not yet taken. */
    public long nextSlotMicros(int client) {
        return slotMicros(client, next[client]);
    }

    /** Takes client {@code client}'s next slot: returns its time (µs), the message's intended send time. */
    public long take(int client) {
        return slotMicros(client, next[client]++);
    }

    /** Slots taken so far, of all clients. */
    public long taken() {
        long sum = 0;
        for (long n : next) {
            sum += n;
        }
        return sum;
    }

    /** The number of client {@code client}'s slots before {@code endMicros}. */
    long slotsBefore(int client, long endMicros) {
        if (endMicros <= anchorMicros) {
            return 0;
        }
        long k = (long) Math.ceil((endMicros - anchorMicros) * clientRate / MICROS_PER_SECOND - phase[client]);
        k = Math.max(0, k);
        // The estimate is exact up to the floor in slotMicros: step to the boundary.
        while (k > 0 && slotMicros(client, k - 1) >= endMicros) {
            k--;
        }
        while (slotMicros(client, k) < endMicros) {
            k++;
        }
        return k;
    }

    /** The slots of all clients in [{@code fromMicros}, {@code endMicros}). */
    public long slotsIn(long fromMicros, long endMicros) {
        long n = 0;
        for (int c = 0; c < phase.length; c++) {
            n += Math.max(0, slotsBefore(c, endMicros) - slotsBefore(c, fromMicros));
        }
        return n;
    }

    /** A sample of the thread begins. */
    public void sampleStarted() {
        inSample = true;
    }

    /** The sample that began ended, having had every slot before {@code untilMicros} due. */
    public void sampleEnded(long untilMicros) {
        coveredUntilMicros = Math.max(coveredUntilMicros, untilMicros);
        inSample = false;
    }

    /**
     * The end of what the thread offered by {@code endMicros}: all of it while a sample runs (a thread held up in one owes
     * the slots that pass), the end of its last sample's period otherwise (a thread out of samples offers nothing more;
     * its samples sent every slot before that end and lasted until it, so the run's production end, kept in whole
     * milliseconds, does not cut it).
     */
    long offeredUntil(long endMicros) {
        return inSample ? endMicros : coveredUntilMicros;
    }

    @Override
    public double getAsDouble() {
        return totalRate;
    }

    /** Not used for a schedule of slots: {@link PublishSchedule} counts its slots in the window itself. */
    @Override
    public long owedMessages(long endMicros) {
        return 0;
    }
}
