package io.mqttload.clock;

import java.util.List;

/**
 * The offset of an engine's clock to a reference clock from exchanges of four timestamps, as NTP takes them (RFC
 * 5905, section 8): the engine sends at t1 (its clock), the reference receives at t2 and answers at t3 (the
 * reference's clock), the engine receives the answer at t4 (its clock).
 *
 * <p>Causality alone bounds the offset: the request arrived after it left and the answer after it was sent, so
 * {@code t1 - t2 <= offset <= t4 - t3} (offset: engine clock minus reference clock), an interval as wide as the
 * round trip minus the reference's own time, whose middle is NTP's estimate. The exchange with the smallest round
 * trip gives the narrowest interval, and half its width is a bound that holds whatever the paths' asymmetry, with no
 * assumption about the network.
 */
public final class OffsetEstimator {
    private OffsetEstimator() {
    }

    /** One exchange: t1 and t4 from the engine's clock, t2 and t3 from the reference's, in µs since the epoch. */
    public static final class Sample {
        final long t1;
        final long t2;
        final long t3;
        final long t4;

        public Sample(long t1, long t2, long t3, long t4) {
            this.t1 = t1;
            this.t2 = t2;
            this.t3 = t3;
            this.t4 = t4;
        }

        /** The round trip, less the time the reference held the request: what the network and the broker took. */
        public long roundTripMicros() {
            return (t4 - t1) - (t3 - t2);
        }

        /**
         * Engine clock minus reference clock, NTP's midpoint. Halved as a sum of two halves, so that the two large
         * differences of epoch timestamps never overflow and the rounding stays within a microsecond.
         */
        public long offsetMicros() {
            return Math.floorDiv((t1 - t2) + (t4 - t3), 2);
        }
    }

    /**
     * The estimate of the exchange with the smallest round trip among {@code samples}; null when there is none.
     * Exchanges whose round trip is negative are impossible with monotonic clocks (a clock stepped between the
     * readings) and are left out. The estimate is dated at the middle of its exchange, by the engine's clock.
     */
    public static Estimate best(List<Sample> samples) {
        Sample best = null;
        int used = 0;
        for (Sample s : samples) {
            if (s.roundTripMicros() < 0) {
                continue;
            }
            used++;
            if (best == null || s.roundTripMicros() < best.roundTripMicros()) {
                best = s;
            }
        }
        if (best == null) {
            return null;
        }
        Estimate e = new Estimate();
        e.offsetMicros = best.offsetMicros();
        // Rounded up: a bound, never narrower than the interval causality leaves.
        e.boundMicros = (best.roundTripMicros() + 1) / 2;
        e.roundTripMicros = best.roundTripMicros();
        e.samples = used;
        e.atMicros = best.t1 + (best.t4 - best.t1) / 2;
        return e;
    }

    /**
     * An engine's clock offset to the reference at one moment: engine clock minus reference clock, in µs, so that a
     * clock ahead of the reference has a positive offset. The true offset lies within {@code offsetMicros ±
     * boundMicros}.
     */
    public static final class Estimate {
        public long offsetMicros;
        /** Half the smallest round trip: the true offset is no further than this from {@link #offsetMicros}. */
        public long boundMicros;
        public long roundTripMicros;
        /** Exchanges answered (the estimate takes the one with the smallest round trip). */
        public int samples;
        /** When it was taken, by the engine's clock (µs since the epoch). */
        public long atMicros;
    }

    /**
     * Drift of the engine's clock against the reference between two estimates, in µs per second (ppm); positive when
     * the engine's clock gains on the reference.
     */
    public static double driftPpm(Estimate before, Estimate after) {
        double seconds = (after.atMicros - before.atMicros) / 1e6;
        return seconds <= 0 ? 0 : (after.offsetMicros - before.offsetMicros) / seconds;
    }

    /** How far {@link #driftPpm} may be from the true drift: both bounds over the time between the estimates. */
    public static double driftBoundPpm(Estimate before, Estimate after) {
        double seconds = (after.atMicros - before.atMicros) / 1e6;
        return seconds <= 0 ? Double.POSITIVE_INFINITY : (before.boundMicros + after.boundMicros) / seconds;
    }
}
