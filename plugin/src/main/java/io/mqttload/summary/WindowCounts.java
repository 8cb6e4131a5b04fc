package io.mqttload.summary;

/**
 * What an engine counted over its measured window alone (its start, where the warm-up ends, to the end of production,
 * before the drain), and what it received after that window: a rate from these cannot count a backlog the broker
 * delivered after production as sustained.
 */
public final class WindowCounts {
    /** A run that measured no window: every count 0. */
    public static final WindowCounts NONE = new WindowCounts(0, 0, 0, 0, 0);

    public final long acknowledged;
    public final long received;
    public final long inFlightAtStart;
    public final long inFlightAtEnd;
    public final long scheduled;
    /** Received after the window (from the run end's start), until the clients closed. */
    public final long receivedInDrain;
    /** From the window's end until the clients closed. */
    public final long drainMillis;

    /** A window with nothing received after it (no drain measured). */
    public WindowCounts(long acknowledged, long received, long inFlightAtStart, long inFlightAtEnd, long scheduled) {
        this(acknowledged, received, inFlightAtStart, inFlightAtEnd, scheduled, 0, 0);
    }

    public WindowCounts(long acknowledged, long received, long inFlightAtStart, long inFlightAtEnd, long scheduled,
            long receivedInDrain, long drainMillis) {
        this.acknowledged = acknowledged;
        this.received = received;
        this.inFlightAtStart = inFlightAtStart;
        this.inFlightAtEnd = inFlightAtEnd;
        this.scheduled = scheduled;
        this.receivedInDrain = receivedInDrain;
        this.drainMillis = drainMillis;
    }
}
