package io.mqttload.summary;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** One barrier passage across engines. */
public final class BarrierRow {
    public final String name;
    public final int generation;
    public final int groupSize;
    /** Threads that waited at it, summed over the engines whose summaries arrived. */
    public int threads;
    /**
     * Threads that arrived, as the engines counted them (the most any engine counted: at its release, or at its
     * timeout): an engine whose summary is missing had its threads there all the same.
     */
    int arrivedAsCounted;
    /** Engines whose threads announced themselves at it, as the engines heard them. */
    final Set<String> enginesSeen = new TreeSet<>();
    /** Engines whose summaries carry this passage. */
    public int engines;
    public int enginesReleased;
    long firstWakeMicros = Long.MAX_VALUE;
    long lastWakeMicros = Long.MIN_VALUE;

    BarrierRow(String name, int generation, int groupSize) {
        this.name = name;
        this.generation = generation;
        this.groupSize = groupSize;
    }

    public boolean releasedEverywhere() {
        return enginesReleased == engines;
    }

    /** From the first to the last thread released, over every engine (engine clocks, µs precision). */
    public double spreadMillis() {
        return releasedEverywhere() ? (lastWakeMicros - firstWakeMicros) / 1000.0 : Double.NaN;
    }

    /**
     * Threads that arrived: what the engines' summaries say, or the threads of the summaries when they hold more (each
     * engine counted only its own barrier's arrivals: see {@link #describe}).
     */
    public int arrived() {
        return Math.max(arrivedAsCounted, threads);
    }

    /** Engines whose threads arrived: those the engines heard, those whose summaries arrived among them. */
    public int enginesArrived() {
        return Math.max(enginesSeen.size(), engines);
    }

    public String describe() {
        if (!releasedEverywhere()) {
            return String.format(Locale.ROOT, "'%s' #%d: TIMED OUT on %d of %d engine(s); %d of %d threads arrived",
                    name, generation, engines - enginesReleased, engines, arrived(), groupSize);
        }
        String released = String.format(Locale.ROOT, "'%s' #%d: %d of %d threads on %d engine(s) released, spread %.3f ms",
                name, generation, arrived(), groupSize, enginesArrived(), spreadMillis());
        // One passage holds at most groupSize threads over all engines: more means each engine's threads filled a
        // barrier of their own, so the engines were not held in step (the group size counted one engine's threads).
        return threads <= groupSize ? released : released + String.format(Locale.ROOT, "; NOT TOGETHER: %d threads"
                + " passed a barrier of %d, each engine was released on its own (is mqttload.engines the number of"
                + " engines on every engine?)", threads, groupSize);
    }
}
