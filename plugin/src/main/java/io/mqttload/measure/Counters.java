package io.mqttload.measure;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One level's live counters (the engine's, a sampler's or a broker node's), indexed by {@link Count#ordinal()}: an
 * adder for each counter and gauge the level keeps, a maximum for each peak, nothing for the counts it does not keep.
 * Written at message rate from any thread: an update is an array read and one adder operation, with no map and no
 * allocation.
 */
final class Counters {
    private final Count.Level level;
    private final LongAdder[] adders;
    private final AtomicLong[] peaks;

    Counters(Count.Level level) {
        this.level = level;
        Count[] all = Count.values();
        adders = new LongAdder[all.length];
        peaks = new AtomicLong[all.length];
        for (Count c : Count.counted(level)) {
            if (c.source() == Count.Source.PEAK) {
                peaks[c.ordinal()] = new AtomicLong();
            } else {
                adders[c.ordinal()] = new LongAdder();
            }
        }
    }

    /**
     * Adds {@code n} when this level keeps {@code c}: callers name the event, each level takes what it keeps. A count
     * that no level counts as it happens (one computed at the end of the run, a peak) is refused, not dropped.
     */
    void add(Count c, long n) {
        LongAdder adder = adders[c.ordinal()];
        if (adder != null) {
            adder.add(n);
        } else if (!c.counted() || c.source() == Count.Source.PEAK) {
            throw new IllegalArgumentException(c.key() + " is not a count that events add to");
        }
    }

    /** Adds {@code n} to a count this level must keep; one it does not keep is refused, not dropped. */
    void addKept(Count c, long n) {
        LongAdder adder = adders[c.ordinal()];
        if (adder == null) {
            throw new IllegalArgumentException(c.key() + " is not counted per " + name());
        }
        adder.add(n);
    }

    /** Raises the peak {@code c} to {@code value} when it is higher. */
    void peak(Count c, long value) {
        AtomicLong peak = peaks[c.ordinal()];
        if (peak == null) {
            throw new IllegalArgumentException(c.key() + " is not a peak kept per " + name());
        }
        peak.accumulateAndGet(value, Math::max);
    }

    /** The count so far; a count this level does not keep is refused rather than read as 0. */
    long sum(Count c) {
        LongAdder adder = adders[c.ordinal()];
        if (adder != null) {
            return adder.sum();
        }
        AtomicLong peak = peaks[c.ordinal()];
        if (peak != null) {
            return peak.get();
        }
        throw new IllegalArgumentException(c.key() + " is not counted per " + name());
    }

    /** The error counts this level keeps, added up. */
    long errors() {
        long n = 0;
        for (Count c : Count.ERRORS) {
            LongAdder adder = adders[c.ordinal()];
            n += adder == null ? 0 : adder.sum();
        }
        return n;
    }

    private String name() {
        return level.name().toLowerCase(Locale.ROOT);
    }
}
