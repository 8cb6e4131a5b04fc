package io.mqttload.summary;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.mqttload.measure.SignedLatencyStats;

/**
 * The pub-to-sub latency of the messages one engine's publishers sent to another engine's subscribers (or to its own),
 * as the receiving engine recorded it: measured, never floored, and corrected as each message arrived by the clock
 * difference of the two engines measured before production.
 */
public final class LatencyPair {
    public String publisher;
    public String subscriber;
    /** Receive time by the subscriber's clock minus send time by the publisher's: the true latency plus the difference. */
    public SignedLatencyStats measured;
    /** The subscriber's clock minus the publisher's, subtracted from each message; null when never known. */
    public Long clockDifferenceMicros;
    /** The bound of {@link #clockDifferenceMicros}: the two offsets' bounds added. */
    public Long boundMicros;
    /** Measured minus the clock difference, of the messages received once it was known. */
    public SignedLatencyStats corrected;
    /** The recording's resolution at the corrected p50: a corrected figure is known to the bound plus this. */
    public Long resolutionMicros;
    /** Messages measured but not corrected: received before the clock difference was known, or it never was. */
    public long notCorrected;
    /** Why the pair has no corrected figure, or null. */
    public String notCorrectedWhy;

    /** Whether publisher and subscriber are one engine: one clock, nothing to correct. */
    @JsonIgnore
    public boolean oneClock() {
        return publisher.equals(subscriber);
    }

    /** "engine-1 to engine-2", as reports name a pair. */
    @JsonIgnore
    public String name() {
        return publisher + " to " + subscriber;
    }
}
