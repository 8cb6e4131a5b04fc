package io.mqttload.measure;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

import io.mqttload.common.Json;

/** Summary statistics of one latency histogram, in microseconds, plus the histogram itself for merging. */
public final class LatencyStats {
    public static final List<Double> PERCENTILES = List.of(50.0, 75.0, 90.0, 95.0, 99.0, 99.9);

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
        this.percentiles = new long[PERCENTILES.size()];
        for (int i = 0; i < PERCENTILES.size(); i++) {
            percentiles[i] = count == 0 ? 0 : h.getValueAtPercentile(PERCENTILES.get(i));
        }
    }

    /** Field name of percentile {@code i}: p50, p75, p90, p95, p99, p99.9. */
    public static String percentileName(int i) {
        double p = PERCENTILES.get(i);
        return "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p));
    }

    /** One row of a plain-text latency table in milliseconds: name, count, avg, the percentiles, max. */
    public void appendTextRow(StringBuilder t, String name) {
        t.append(String.format(Locale.ROOT, "%-16s %9d %9.3f", name, count, mean / 1000.0));
        for (long p : percentiles) {
            t.append(String.format(Locale.ROOT, " %9.3f", p / 1000.0));
        }
        t.append(String.format(Locale.ROOT, " %9.3f%n", max / 1000.0));
    }

    /** The same row as a Markdown table row. */
    public void appendMarkdownRow(StringBuilder m, String name) {
        m.append(String.format(Locale.ROOT, "| %s | %d | %.3f", name, count, mean / 1000.0));
        for (long p : percentiles) {
            m.append(String.format(Locale.ROOT, " | %.3f", p / 1000.0));
        }
        m.append(String.format(Locale.ROOT, " | %.3f |%n", max / 1000.0));
    }

    /** Writes these statistics as the JSON object {@code name}, with the histogram for exact merging. */
    public void writeJson(Json j, String name) {
        j.key(name).open();
        j.field("count", count).field("mean", mean).field("min", min).field("max", max);
        for (int i = 0; i < PERCENTILES.size(); i++) {
            j.field(percentileName(i), percentiles[i]);
        }
        j.field("hdrHistogram", encoded());
        j.close();
    }

    public long percentile(double p) {
        for (int i = 0; i < PERCENTILES.size(); i++) {
            if (PERCENTILES.get(i) == p) {
                return percentiles[i];
            }
        }
        return count == 0 ? 0 : histogram.getValueAtPercentile(p);
    }

    public Histogram histogram() {
        return histogram;
    }

    /** HdrHistogram's compressed encoding in Base64: decodes with {@link #decode(String)}. */
    public String encoded() {
        return encode(histogram);
    }

    /** The form histograms travel in (summaries, InfluxDB points, the per-second timeline): compressed, Base64. */
    public static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[length];
        buf.flip();
        buf.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The histogram {@link #encode} wrote; an empty text is an empty histogram. */
    public static Histogram decode(String base64) {
        if (base64.isEmpty()) {
            return new Histogram(3);
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("an unreadable latency histogram: " + e.getMessage(), e);
        }
    }
}
