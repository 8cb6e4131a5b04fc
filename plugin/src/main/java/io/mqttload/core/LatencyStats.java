package io.mqttload.core;

import java.nio.ByteBuffer;
import java.util.Base64;

import org.HdrHistogram.Histogram;

/** Summary statistics of one latency histogram, in microseconds, plus the histogram itself for merging. */
public final class LatencyStats {
    public static final double[] PERCENTILES = {50, 75, 90, 95, 99, 99.9};

    public final long count;
    public final double mean;
    public final long min;
    public final long max;
    /** Values at {@link #PERCENTILES}, same order. */
    public final long[] percentiles;
    private final Histogram histogram;

    public LatencyStats(Histogram h) {
        this.histogram = h;
        this.count = h.getTotalCount();
        this.mean = count == 0 ? 0 : h.getMean();
        this.min = count == 0 ? 0 : h.getMinValue();
        this.max = count == 0 ? 0 : h.getMaxValue();
        this.percentiles = new long[PERCENTILES.length];
        for (int i = 0; i < PERCENTILES.length; i++) {
            percentiles[i] = count == 0 ? 0 : h.getValueAtPercentile(PERCENTILES[i]);
        }
    }

    /** Field name of percentile {@code i}: p50, p75, p90, p95, p99, p99.9. */
    public static String percentileName(int i) {
        double p = PERCENTILES[i];
        return "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p));
    }

    public long percentile(double p) {
        for (int i = 0; i < PERCENTILES.length; i++) {
            if (PERCENTILES[i] == p) {
                return percentiles[i];
            }
        }
        return count == 0 ? 0 : histogram.getValueAtPercentile(p);
    }

    public Histogram histogram() {
        return histogram;
    }

    /** HdrHistogram's compressed encoding in Base64: decodes with {@code Histogram.decodeFromCompressedByteBuffer}. */
    public String encoded() {
        ByteBuffer buf = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[length];
        buf.flip();
        buf.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
