package io.mqttload.measure;

/**
 * Wall-clock microseconds since the epoch, read from the monotonic nano clock anchored once to
 * {@link System#currentTimeMillis()}: cheap, monotonic within a JVM, and comparable across
 * processes as far as their clocks are synchronised.
 */
public final class MicroClock {
    private static final long ANCHOR_MICROS;
    private static final long ANCHOR_NANOS;

    static {
        long before = System.currentTimeMillis();
        long millis;
        // Wait for the millisecond to tick so the anchor sits on its boundary, not somewhere inside it.
        do {
            millis = System.currentTimeMillis();
        } while (millis == before);
        ANCHOR_NANOS = System.nanoTime();
        ANCHOR_MICROS = millis * 1000L;
    }

    private MicroClock() {
    }

    public static long nowMicros() {
        return micros(System.nanoTime());
    }

    /** This clock's reading at {@code nanoTime}, a {@link System#nanoTime()} value taken in this JVM. */
    public static long micros(long nanoTime) {
        return ANCHOR_MICROS + (nanoTime - ANCHOR_NANOS) / 1000L;
    }
}
