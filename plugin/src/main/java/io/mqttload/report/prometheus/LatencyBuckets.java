package io.mqttload.report.prometheus;

import java.util.Arrays;
import java.util.stream.DoubleStream;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One latency series as Prometheus' classic histogram: cumulative counts per bucket since the run started, fed with
 * the engine's interval HdrHistograms (µs). The buckets are the Renard R10 series, ten per decade from 100 µs to 100 s
 * (each upper bound 1.25-1.27 times the one below it), so {@code histogram_quantile} over any engines and any time
 * range lies in the bucket that holds the true percentile: within 27 % of it at worst, usually much closer, as it
 * interpolates linearly inside the bucket. Fixed bounds, the same on every engine, are what lets Prometheus add
 * engines' buckets, as the report merges their histograms.
 */
final class LatencyBuckets {
    private static final double[] MANTISSAS = {1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0};
    /** Upper bounds in µs, 100 µs to 100 s; Prometheus adds +Inf. */
    static final long[] UPPER_BOUNDS_MICROS = bounds(100, 6);
    /** The same in seconds, Prometheus' unit, and +Inf last. */
    static final double[] UPPER_BOUNDS_SECONDS = DoubleStream.concat(Arrays.stream(UPPER_BOUNDS_MICROS)
            .mapToDouble(b -> b / 1e6), DoubleStream.of(Double.POSITIVE_INFINITY)).toArray();

    /** Count per bucket, the last one +Inf. */
    private final long[] counts = new long[UPPER_BOUNDS_MICROS.length + 1];
    private double sumSeconds;

    private static long[] bounds(long fromMicros, int decades) {
        long[] b = new long[decades * MANTISSAS.length + 1];
        long decade = fromMicros;
        for (int d = 0; d < decades; d++, decade *= 10) {
            for (int m = 0; m < MANTISSAS.length; m++) {
                b[d * MANTISSAS.length + m] = Math.round(decade * MANTISSAS[m]);
            }
        }
        b[b.length - 1] = decade;
        return b;
    }

    /** Adds an interval's latencies. A recorded value goes into the first bucket whose bound is not below it. */
    synchronized void add(Histogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return;
        }
        int bucket = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            // HdrHistogram keeps 3 significant digits: a value within 0.1 % of a bound may fall on either side of it.
            long value = h.lowestEquivalentValue(v.getValueIteratedTo());
            while (bucket < UPPER_BOUNDS_MICROS.length && value > UPPER_BOUNDS_MICROS[bucket]) {
                bucket++;
            }
            counts[bucket] += v.getCountAtValueIteratedTo();
        }
        sumSeconds += h.getMean() * h.getTotalCount() / 1e6;
    }

    /** The counts per bucket (not cumulative: Prometheus' writer adds them up), the last above every bound, and the sum. */
    synchronized Snapshot snapshot() {
        return new Snapshot(counts.clone(), sumSeconds);
    }

    /** One scrape's view of a series. */
    static final class Snapshot {
        final long[] counts;
        final double sumSeconds;

        Snapshot(long[] counts, double sumSeconds) {
            this.counts = counts;
            this.sumSeconds = sumSeconds;
        }
    }
}
