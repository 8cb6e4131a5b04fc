package io.mqttload.measure;

import java.util.EnumMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * One level's latency figures (the engine's, a sampler's, a node's), one per {@link Latency} kind the level keeps,
 * created from the declaration: a kind recorded where it happens has a {@link LatencyRecorder}, a kind recorded per
 * receiver ({@link Latency#recordedPerReceiver()}) a {@link LatencyTotal} its receivers' intervals are added to.
 */
public final class LatencyRecorders {
    private final Latency.Level level;
    private final Map<Latency, LatencyRecorder> recorded = new EnumMap<>(Latency.class);
    private final Map<Latency, LatencyTotal> summed = new EnumMap<>(Latency.class);

    /**
     * @param keepsTotals whether the recorded kinds keep the run's total (the engine's); a sampler's are only read
     *                    interval by interval
     */
    LatencyRecorders(Latency.Level level, boolean keepsTotals) {
        this.level = level;
        for (Latency kind : Latency.keptBy(level)) {
            if (kind.recordedPerReceiver()) {
                summed.put(kind, new LatencyTotal());
            } else {
                recorded.put(kind, keepsTotals ? new LatencyRecorder() : LatencyRecorder.intervalsOnly());
            }
        }
    }

    /** Records one latency of {@code kind}; a kind this level does not record itself is refused. */
    public void record(Latency kind, long micros) {
        recorder(kind).record(micros);
    }

    /** What was recorded of {@code kind} since the last take (see {@link LatencyRecorder#takeInterval}). */
    public Histogram takeInterval(Latency kind, boolean countInTotal) {
        return recorder(kind).takeInterval(countInTotal);
    }

    /**
     * One interval of every kind this level records itself, added to the run's totals when {@code countInTotal} or the
     * kind {@linkplain Latency#countsDuringWarmUp() counts during the warm-up}.
     */
    public Map<Latency, Histogram> takeIntervals(boolean countInTotal) {
        Map<Latency, Histogram> taken = new EnumMap<>(Latency.class);
        recorded.forEach((kind, r) -> taken.put(kind, r.takeInterval(countInTotal || kind.countsDuringWarmUp())));
        return taken;
    }

    /** The run's histogram of {@code kind} so far; a copy. */
    public Histogram totalCopy(Latency kind) {
        LatencyTotal total = summed.get(kind);
        return total != null ? total.totalCopy() : recorder(kind).totalCopy();
    }

    /** Adds a receivers' interval to the run's total of {@code kind}, a kind recorded per receiver. */
    void addToTotal(Latency kind, Histogram interval) {
        LatencyTotal total = summed.get(kind);
        if (total == null) {
            throw new IllegalArgumentException(kind.key() + " is not summed from receivers at level " + level);
        }
        total.add(interval);
    }

    private LatencyRecorder recorder(Latency kind) {
        LatencyRecorder r = recorded.get(kind);
        if (r == null) {
            throw new IllegalArgumentException(kind.key() + " is not recorded at level " + level);
        }
        return r;
    }
}
