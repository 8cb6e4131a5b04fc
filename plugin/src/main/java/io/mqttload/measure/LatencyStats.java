package io.mqttload.measure;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Summary statistics of one latency histogram, in microseconds, plus the histogram itself for merging. In JSON the
 * figures are for people and tools; reading one back keeps only the histogram and derives the figures from it, so
 * a summary can never carry figures that disagree with its histogram.
 *
 * <p>A figure that may go below 0 ({@link #signed}: the merged report's pub-to-sub across engines' clocks) carries its
 * {@link SignedLatencyStats} and writes the magnitudes below 0 beside the histogram ({@code negative},
 * {@code hdrHistogramBelow0}), so that every output reading a {@code LatencyStats} shows it as measured, and a reader
 * of the JSON reads it back signed.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class LatencyStats {
    public static final List<Double> PERCENTILES = List.of(50.0, 75.0, 90.0, 95.0, 99.0, 99.9);
    /** Width of a plain-text table's name column: the longest latency title fits. */
    public static final int NAME_WIDTH = 26;

    public final long count;
    public final double mean;
    public final long min;
    public final long max;
    /** Values at {@link #PERCENTILES}, same order. */
    @JsonIgnore
    public final long[] percentiles;
    private final Histogram histogram;
    /** Null unless the figure may go below 0: then its percentiles and extremes are this one's. */
    private final SignedLatencyStats signed;

    public LatencyStats(Histogram h) {
        this.histogram = h;
        this.signed = null;
        this.count = h.getTotalCount();
        this.mean = count == 0 ? 0 : h.getMean();
        this.min = count == 0 ? 0 : h.getMinValue();
        this.max = count == 0 ? 0 : h.getMaxValue();
        this.percentiles = new long[PERCENTILES.size()];
        for (int i = 0; i < PERCENTILES.size(); i++) {
            percentiles[i] = count == 0 ? 0 : h.getValueAtPercentile(PERCENTILES.get(i));
        }
    }

    private LatencyStats(SignedLatencyStats s) {
        this.histogram = s.atOrAbove0();
        this.signed = s;
        this.count = s.count;
        this.mean = s.mean;
        this.min = s.min;
        this.max = s.max;
        this.percentiles = s.percentiles.clone();
    }

    /** A figure that may go below 0, its values below 0 kept as they are (see {@link SignedLatencyStats}). */
    public static LatencyStats signed(SignedLatencyStats s) {
        return new LatencyStats(s);
    }

    @JsonCreator
    static LatencyStats fromJson(@JsonProperty("hdrHistogram") String encoded,
            @JsonProperty("hdrHistogramBelow0") String below0) {
        Histogram atOrAbove0 = decode(encoded == null ? "" : encoded);
        return below0 == null ? new LatencyStats(atOrAbove0)
                : new LatencyStats(new SignedLatencyStats(atOrAbove0, decode(below0)));
    }

    /** Whether this figure may go below 0 (see {@link #signed}); a histogram of it holds only the values at or above 0. */
    public boolean mayBeNegative() {
        return signed != null;
    }

    /** How many values were below 0; 0 unless {@link #mayBeNegative}. */
    public long negativeCount() {
        return signed == null ? 0 : signed.negative;
    }

    /** The count below 0, written only for a figure that may go below 0. */
    @JsonProperty("negative")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    Long negativeField() {
        return signed == null ? null : signed.negative;
    }

    /** The magnitudes of the values below 0, encoded as {@link #encoded}; written only for a signed figure. */
    @JsonProperty("hdrHistogramBelow0")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    String encodedBelow0() {
        return signed == null ? null : encode(signed.below0());
    }

    /** The percentiles as JSON fields: p50, p75, p90, p95, p99, p99.9. */
    @JsonAnyGetter
    Map<String, Long> percentileFields() {
        Map<String, Long> fields = new LinkedHashMap<>();
        for (int i = 0; i < PERCENTILES.size(); i++) {
            fields.put(percentileName(i), percentiles[i]);
        }
        return fields;
    }

    /** Field name of percentile {@code i}: p50, p75, p90, p95, p99, p99.9. */
    public static String percentileName(int i) {
        double p = PERCENTILES.get(i);
        return "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p));
    }

    /** The header of a plain-text latency table, the columns {@link #appendTextRow} fills. */
    public static void appendTextHeader(StringBuilder t) {
        t.append(String.format(Locale.ROOT, "%-" + NAME_WIDTH + "s %9s %9s", "latency (ms)", "count", "avg"));
        for (int i = 0; i < PERCENTILES.size(); i++) {
            t.append(String.format(Locale.ROOT, " %9s", percentileName(i)));
        }
        t.append(String.format(Locale.ROOT, " %9s%n", "max"));
    }

    /** One row of a plain-text latency table in milliseconds: name, count, avg, the percentiles, max. */
    public void appendTextRow(StringBuilder t, String name) {
        textRow(t, name, count, mean, percentiles, max);
    }

    /** The same row as a Markdown table row. */
    public void appendMarkdownRow(StringBuilder m, String name) {
        markdownRow(m, name, count, mean, percentiles, max);
    }

    /** A plain-text row of any latency figures (µs), signed ones too. */
    static void textRow(StringBuilder t, String name, long count, double mean, long[] percentiles, long max) {
        t.append(String.format(Locale.ROOT, "%-" + NAME_WIDTH + "s %9d %9.3f", name, count, mean / 1000.0));
        for (long p : percentiles) {
            t.append(String.format(Locale.ROOT, " %9.3f", p / 1000.0));
        }
        t.append(String.format(Locale.ROOT, " %9.3f%n", max / 1000.0));
    }

    /** A Markdown row of any latency figures (µs), signed ones too. */
    static void markdownRow(StringBuilder m, String name, long count, double mean, long[] percentiles, long max) {
        m.append(String.format(Locale.ROOT, "| %s | %d | %.3f", name, count, mean / 1000.0));
        for (long p : percentiles) {
            m.append(String.format(Locale.ROOT, " | %.3f", p / 1000.0));
        }
        m.append(String.format(Locale.ROOT, " | %.3f |%n", max / 1000.0));
    }

    public long percentile(double p) {
        for (int i = 0; i < PERCENTILES.size(); i++) {
            if (PERCENTILES.get(i) == p) {
                return percentiles[i];
            }
        }
        if (signed != null) {
            return signed.percentile(p);
        }
        return count == 0 ? 0 : histogram.getValueAtPercentile(p);
    }

    /** The histogram: every value, or of a figure that {@link #mayBeNegative} those at or above 0. */
    public Histogram histogram() {
        return histogram;
    }

    /** HdrHistogram's compressed encoding in Base64: decodes with {@link #decode(String)}. */
    @JsonProperty("hdrHistogram")
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
