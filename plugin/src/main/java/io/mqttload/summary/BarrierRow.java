package io.mqttload.summary;

import java.util.Locale;

/** One barrier passage across engines. */
public final class BarrierRow {
    public final String name;
    public final int generation;
    public final int groupSize;
    /** Threads that waited at it, summed over engines. */
    public int threads;
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

    public String describe() {
        return releasedEverywhere()
                ? String.format(Locale.ROOT, "'%s' #%d: %d of %d threads on %d engine(s) released, spread %.3f ms",
                        name, generation, threads, groupSize, engines, spreadMillis())
                : String.format(Locale.ROOT, "'%s' #%d: TIMED OUT on %d of %d engine(s); %d of %d threads arrived",
                        name, generation, engines - enginesReleased, engines, threads, groupSize);
    }
}
