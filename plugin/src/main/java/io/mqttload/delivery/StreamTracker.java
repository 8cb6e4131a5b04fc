package io.mqttload.delivery;

import java.util.Arrays;

/**
 * What one receiver scope got of one publish stream: the highest sequence number seen and the
 * still-missing ranges below it. A message below the highest either fills a gap (reordered) or is a
 * duplicate. Memory stays at a few words while messages arrive in order. Not thread-safe: callers
 * synchronise on the tracker. Public only as a handle a receiving client keeps ({@link ReceiverScope#tracker}).
 */
public final class StreamTracker {
    private long highest;
    /** Missing ranges as [from, to] pairs, sorted, disjoint; null while there is none. */
    private long[] missing;
    private int missingRanges;
    /** Messages below the highest that filled a gap, and that had arrived before: where they were, in the report. */
    private long reordered;
    private long duplicates;

    enum Outcome { IN_ORDER, GAP, REORDERED, DUPLICATE }

    /** Result detail for {@link Outcome#GAP}: how many sequence numbers were skipped. */
    private long lastGapSize;

    Outcome accept(long sequence) {
        if (sequence == highest + 1) {
            highest = sequence;
            return Outcome.IN_ORDER;
        }
        if (sequence > highest + 1) {
            addRange(highest + 1, sequence - 1);
            lastGapSize = sequence - 1 - highest;
            highest = sequence;
            return Outcome.GAP;
        }
        if (removeFromMissing(sequence)) {
            reordered++;
            return Outcome.REORDERED;
        }
        duplicates++;
        return Outcome.DUPLICATE;
    }

    long lastGapSize() {
        return lastGapSize;
    }

    long highest() {
        return highest;
    }

    /**
     * What this tracker saw, for the delivery check. Beyond {@code maxRanges} gaps the ranges are left out (a
     * heavily lossy run would otherwise carry megabytes of them to the controller); the counts stay exact.
     */
    DeliveryCheck.Seen seen(int maxRanges) {
        long missingNow = missingCount();
        long[] ranges = missingRanges <= maxRanges ? Arrays.copyOf(missing == null ? new long[0] : missing, 2 * missingRanges)
                : null;
        return new DeliveryCheck.Seen(highest - missingNow, highest, ranges, duplicates, reordered);
    }

    long missingCount() {
        long n = 0;
        for (int i = 0; i < missingRanges; i++) {
            n += missing[2 * i + 1] - missing[2 * i] + 1;
        }
        return n;
    }

    private void addRange(long from, long to) {
        if (missing == null) {
            missing = new long[4];
        } else if (2 * missingRanges + 2 > missing.length) {
            missing = Arrays.copyOf(missing, missing.length * 2);
        }
        missing[2 * missingRanges] = from;
        missing[2 * missingRanges + 1] = to;
        missingRanges++;
    }

    private boolean removeFromMissing(long seq) {
        for (int i = 0; i < missingRanges; i++) {
            long from = missing[2 * i];
            long to = missing[2 * i + 1];
            if (seq < from || seq > to) {
                continue;
            }
            if (from == to) {
                System.arraycopy(missing, 2 * i + 2, missing, 2 * i, 2 * (missingRanges - i - 1));
                missingRanges--;
            } else if (seq == from) {
                missing[2 * i] = from + 1;
            } else if (seq == to) {
                missing[2 * i + 1] = to - 1;
            } else {
                addRange(0, 0);
                System.arraycopy(missing, 2 * i + 2, missing, 2 * i + 4, 2 * (missingRanges - i - 2));
                missing[2 * i + 1] = seq - 1;
                missing[2 * i + 2] = seq + 1;
                missing[2 * i + 3] = to;
            }
            return true;
        }
        return false;
    }
}
