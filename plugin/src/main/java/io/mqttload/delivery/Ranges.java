package io.mqttload.delivery;

import java.util.Arrays;

/**
 * Sets of sequence numbers as flat arrays of sorted, disjoint, inclusive {@code [from, to]} pairs: the
 * gaps a receiver still misses and the messages a publisher failed to send stay a few words each.
 */
final class Ranges {
    private Ranges() {
    }

    static long count(long[] ranges) {
        long n = 0;
        for (int i = 0; i + 1 < ranges.length; i += 2) {
            n += ranges[i + 1] - ranges[i] + 1;
        }
        return n;
    }

    /** Members that are at most {@code limit}. */
    static long countUpTo(long[] ranges, long limit) {
        long n = 0;
        for (int i = 0; i + 1 < ranges.length && ranges[i] <= limit; i += 2) {
            n += Math.min(ranges[i + 1], limit) - ranges[i] + 1;
        }
        return n;
    }

    /** Members of both sets. */
    static long overlap(long[] a, long[] b) {
        long n = 0;
        int i = 0;
        int j = 0;
        while (i + 1 < a.length && j + 1 < b.length) {
            long from = Math.max(a[i], b[j]);
            long to = Math.min(a[i + 1], b[j + 1]);
            if (from <= to) {
                n += to - from + 1;
            }
            if (a[i + 1] < b[j + 1]) {
                i += 2;
            } else {
                j += 2;
            }
        }
        return n;
    }

    /** Sorts pairs that may arrive out of order and joins those that touch or overlap. */
    static long[] normalise(long[] pairs, int length) {
        int n = length / 2;
        long[][] sorted = new long[n][];
        for (int i = 0; i < n; i++) {
            sorted[i] = new long[] {pairs[2 * i], pairs[2 * i + 1]};
        }
        Arrays.sort(sorted, (x, y) -> Long.compare(x[0], y[0]));
        long[] out = new long[length];
        int k = 0;
        for (long[] r : sorted) {
            if (k > 0 && r[0] <= out[k - 1] + 1) {
                out[k - 1] = Math.max(out[k - 1], r[1]);
            } else {
                out[k++] = r[0];
                out[k++] = r[1];
            }
        }
        return Arrays.copyOf(out, k);
    }
}
