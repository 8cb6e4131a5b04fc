package io.mqttload.clock;

/**
 * One engine's clock against the run's reference clock, before and after production, as it travels in the engine's
 * summary: offsets are this engine's clock minus the reference's, in µs (positive: this engine's clock is ahead).
 */
public final class ClockFigures {
    /** The engine whose clock the offsets are measured against; null when no reference was found. */
    public String referenceEngine;
    /** Its engine number, -1 when none was found. */
    public int referenceNumber = -1;
    /** True on the reference itself: its offset is 0 by definition, and nothing was exchanged. */
    public boolean reference;
    /** Around the start of production (the first rendezvous); null when not measured. */
    public OffsetEstimator.Estimate before;
    /** At the end of the run, before the drain; null when not measured. */
    public OffsetEstimator.Estimate after;
    /** Why {@link #before} or {@link #after} is missing (one line each), or null. */
    public String notMeasured;

    /** Figures with nothing measured, and why. */
    public static ClockFigures notMeasured(String why) {
        ClockFigures f = new ClockFigures();
        f.notMeasured = why;
        return f;
    }

    /** Adds a reason to {@link #notMeasured}. */
    void addReason(String why) {
        notMeasured = notMeasured == null ? why : notMeasured + "; " + why;
    }
}
