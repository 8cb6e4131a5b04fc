package io.mqttload.measure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A latency distribution that may go below 0, in microseconds: a latency measured across two clocks (the subscriber's
 * behind the publisher's) or corrected by an estimated clock difference. HdrHistogram records non-negative values
 * only, and a bias large enough for any negative value would cost the precision near 0 (3 significant digits of the
 * bias), so it is two histograms: the values at or above 0, and the magnitudes of those below. Percentiles are
 * exact over both, by rank, with HdrHistogram's own rank rule; histograms merge by adding both halves.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class SignedLatencyStats {
    private final Histogram atOrAbove0;
    private final Histogram below0;
    public final long count;
    /** How many values were below 0. */
    public final long negative;
    public final double mean;
    public final long min;
    public final long max;
    @JsonIgnore
    public final long[] percentiles;

    public SignedLatencyStats(Histogram atOrAbove0, Histogram below0) {
        this.atOrAbove0 = atOrAbove0;
        this.below0 = below0;
        this.negative = below0.getTotalCount();
        this.count = atOrAbove0.getTotalCount() + negative;
        double sum = (atOrAbove0.getTotalCount() == 0 ? 0 : atOrAbove0.getMean() * atOrAbove0.getTotalCount())
                - (negative == 0 ? 0 : below0.getMean() * negative);
        this.mean = count == 0 ? 0 : sum / count;
        this.min = count == 0 ? 0 : negative > 0 ? -below0.getMaxValue() : atOrAbove0.getMinValue();
        this.max = count == 0 ? 0 : atOrAbove0.getTotalCount() > 0 ? atOrAbove0.getMaxValue() : -below0.getMinValue();
        this.percentiles = new long[LatencyStats.PERCENTILES.size()];
        for (int i = 0; i < percentiles.length; i++) {
            percentiles[i] = percentile(LatencyStats.PERCENTILES.get(i));
        }
    }

    /** Empty. */
    public static SignedLatencyStats empty() {
        return new SignedLatencyStats(LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram());
    }

    @JsonCreator
    static SignedLatencyStats fromJson(@JsonProperty("hdrHistogram") String atOrAbove0,
            @JsonProperty("hdrHistogramBelow0") String below0) {
        return new SignedLatencyStats(LatencyStats.decode(atOrAbove0 == null ? "" : atOrAbove0),
                LatencyStats.decode(below0 == null ? "" : below0));
    }

    /**
     * The value at percentile {@code p}: the value of rank {@code ceil(p / 100 × count)} (at least 1) in ascending
     * order, as HdrHistogram ranks, and like it the highest value of its bucket (for a value below 0: the one nearest
     * 0, the same end of the bucket in signed order).
     */
    public long percentile(double p) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(Math.min(100.0, Math.max(0.0, p)) / 100.0 * count));
        if (rank <= negative) {
            // The rank-th smallest signed value is the (negative - rank + 1)-th smallest magnitude.
            long magnitude = atRank(below0, negative - rank + 1);
            return -below0.lowestEquivalentValue(magnitude);
        }
        return atOrAbove0.highestEquivalentValue(atRank(atOrAbove0, rank - negative));
    }

    private static long atRank(Histogram h, long rank) {
        long seen = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            seen += v.getCountAtValueIteratedTo();
            if (seen >= rank) {
                return v.getValueIteratedTo();
            }
        }
        return h.getMaxValue();
    }

    /**
     * How wide the recording's bucket is at {@code value}: a value read from this distribution is known to this
     * (HdrHistogram's 3 significant digits of the value's magnitude), whatever its source's own precision.
     */
    public long resolutionAt(long value) {
        return atOrAbove0.sizeOfEquivalentValueRange(Math.abs(value));
    }

    /** The values at or above 0; a copy. */
    public Histogram atOrAbove0() {
        return atOrAbove0.copy();
    }

    /** The magnitudes of the values below 0; a copy. */
    public Histogram below0() {
        return below0.copy();
    }

    /** Both distributions added up. */
    public SignedLatencyStats plus(SignedLatencyStats other) {
        Histogram up = atOrAbove0.copy();
        up.add(other.atOrAbove0);
        Histogram down = below0.copy();
        down.add(other.below0);
        return new SignedLatencyStats(up, down);
    }

    /** The percentiles as JSON fields: p50 ... p99.9, as {@link LatencyStats} writes them. */
    @JsonAnyGetter
    Map<String, Long> percentileFields() {
        Map<String, Long> fields = new LinkedHashMap<>();
        for (int i = 0; i < percentiles.length; i++) {
            fields.put(LatencyStats.percentileName(i), percentiles[i]);
        }
        return fields;
    }

    @JsonProperty("hdrHistogram")
    String encodedAtOrAbove0() {
        return LatencyStats.encode(atOrAbove0);
    }

    @JsonProperty("hdrHistogramBelow0")
    String encodedBelow0() {
        return LatencyStats.encode(below0);
    }

    /** One row of a plain-text latency table in milliseconds, as {@link LatencyStats#appendTextRow} writes one. */
    public void appendTextRow(StringBuilder t, String name) {
        LatencyStats.textRow(t, name, count, mean, percentiles, max);
    }

    /** The same row as a Markdown table row. */
    public void appendMarkdownRow(StringBuilder m, String name) {
        LatencyStats.markdownRow(m, name, count, mean, percentiles, max);
    }
}
