package io.mqttload.measure;

import java.util.EnumMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * The latencies of the messages one scope received (a Subscribe sampler's clients on one broker node, from publishers
 * on one node): one recorder per kind {@linkplain Latency#recordedPerReceiver() recorded per receiver}. One object per
 * scope, so that a receiving client looks it up once for all of them.
 */
public final class PubToSubRecorder {
    private final Map<Latency, LatencyRecorder> byKind = new EnumMap<>(Latency.class);

    PubToSubRecorder() {
        for (Latency kind : Latency.values()) {
            if (kind.recordedPerReceiver()) {
                byKind.put(kind, LatencyRecorder.intervalsOnly());
            }
        }
    }

    /**
     * One message: {@code micros} from its send to its receipt, and {@code lagMicros} from its intended send time to
     * its send (negative: it had no intended time, and counts in the figure from the send only).
     */
    public void record(long micros, long lagMicros) {
        record(Latency.PUB_TO_SUB, micros);
        if (lagMicros >= 0) {
            record(Latency.PUB_TO_SUB_INTENDED, micros + lagMicros);
        }
    }

    /** One latency of {@code kind}, a kind recorded per receiver; another is refused. */
    public void record(Latency kind, long micros) {
        LatencyRecorder r = byKind.get(kind);
        if (r == null) {
            throw new IllegalArgumentException(kind.key() + " is not recorded per receiver");
        }
        r.record(micros);
    }

    /** What was recorded since the last take, by kind; the scope's sums are its owners' (see {@link LatencyTotal}). */
    Map<Latency, Histogram> takeIntervals() {
        Map<Latency, Histogram> taken = new EnumMap<>(Latency.class);
        byKind.forEach((kind, r) -> taken.put(kind, r.takeInterval(false)));
        return taken;
    }

    /** Latencies of {@code kind} recorded as 0 because they were negative (clock skew between hosts), so far. */
    long negativeCount(Latency kind) {
        return byKind.get(kind).negativeCount();
    }

    /** Latencies of {@code kind} above the trackable maximum, recorded at it, so far. */
    long clampedCount(Latency kind) {
        return byKind.get(kind).clampedCount();
    }
}
