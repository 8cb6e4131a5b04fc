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
    /** The same instants on the reference engine's clock: each engine's wake times less its measured clock offset. */
    private long correctedFirstMicros = Long.MAX_VALUE;
    private long correctedLastMicros = Long.MIN_VALUE;
    /** The bounds of the offsets of the engines whose threads woke first and last (corrected), added. */
    private long firstBoundMicros;
    private long lastBoundMicros;
    /** Whether any engine's wake times were moved by a non-zero offset. */
    private boolean offsetApplied;
    /** The first engine whose clock offset is unknown, with why: no corrected spread then. */
    private String notCorrected;

    BarrierRow(String name, int generation, int groupSize) {
        this.name = name;
        this.generation = generation;
        this.groupSize = groupSize;
    }

    /**
     * One engine's released passage, with its clock's offset to the reference (engine minus reference) and bound, or
     * null offset when not measured ({@code why}).
     */
    void addClock(String engineId, long firstWake, long lastWake, Long offsetMicros, Long boundMicros, String why) {
        if (offsetMicros == null) {
            notCorrected = notCorrected != null ? notCorrected : engineId + "'s clock offset was not measured"
                    + (why == null ? "" : " (" + why + ")");
            return;
        }
        offsetApplied |= offsetMicros != 0;
        if (firstWake - offsetMicros < correctedFirstMicros) {
            correctedFirstMicros = firstWake - offsetMicros;
            firstBoundMicros = boundMicros;
        }
        if (lastWake - offsetMicros > correctedLastMicros) {
            correctedLastMicros = lastWake - offsetMicros;
            lastBoundMicros = boundMicros;
        }
    }

    /**
     * The spread with each engine's clock offset taken out (ms, on the reference's clock); null when an engine's offset
     * is unknown, when no offset moved anything, or when the barrier did not release everywhere.
     */
    public Double correctedSpreadMillis() {
        return releasedEverywhere() && notCorrected == null && offsetApplied && correctedLastMicros >= correctedFirstMicros
                ? (correctedLastMicros - correctedFirstMicros) / 1000.0 : null;
    }

    /** How far {@link #correctedSpreadMillis} may be off: the two offsets' bounds it rests on, added (ms). */
    public double correctedSpreadBoundMillis() {
        return (firstBoundMicros + lastBoundMicros) / 1000.0;
    }

    /** Why there is no corrected spread while offsets were applied elsewhere, or null. */
    public String notCorrected() {
        return notCorrected;
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

    /**
     * What the clocks make of the spread: the spread on the reference's clock, and, when the offsets explain more of the
     * measured spread than their bounds, that this part is the clocks', not the engines' release.
     */
    String clocksText() {
        Double corrected = correctedSpreadMillis();
        if (corrected == null) {
            return notCorrected == null || engines < 2 ? "" : " (engine clocks; not corrected: " + notCorrected + ")";
        }
        double bound = correctedSpreadBoundMillis();
        double clocks = spreadMillis() - corrected;
        return String.format(Locale.ROOT, " as the engines' clocks read it; %.3f ms ± %.3f ms with their measured offsets"
                + " taken out%s", corrected, bound, Math.abs(clocks) > bound ? String.format(Locale.ROOT, ": %.3f ms of the"
                + " measured spread is the clocks' offset, not the release", clocks) : "");
    }

    public String describe() {
        if (!releasedEverywhere()) {
            return String.format(Locale.ROOT, "'%s' #%d: TIMED OUT on %d of %d engine(s); %d of %d threads arrived",
                    name, generation, engines - enginesReleased, engines, arrived(), groupSize);
        }
        String released = String.format(Locale.ROOT, "'%s' #%d: %d of %d threads on %d engine(s) released, spread %.3f ms",
                name, generation, arrived(), groupSize, enginesArrived(), spreadMillis()) + clocksText();
        // One passage holds at most groupSize threads over all engines: more means each engine's threads filled a
        // barrier of their own, so the engines were not held in step (the group size counted one engine's threads).
        return threads <= groupSize ? released : released + String.format(Locale.ROOT, "; NOT TOGETHER: %d threads"
                + " passed a barrier of %d, each engine was released on its own (is mqttload.engines the number of"
                + " engines on every engine?)", threads, groupSize);
    }
}
