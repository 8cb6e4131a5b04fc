package io.mqttload.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.mqttload.common.InvalidSettingException;

/**
 * Paces events to a fixed rate shared by every thread that uses it (one engine-wide limiter per
 * configured connection rate). Each caller reserves the next free slot and parks until it.
 */
public final class RateLimiter {
    private final long intervalNanos;
    private long nextSlot = System.nanoTime();

    public RateLimiter(double perSecond) {
        if (!(perSecond > 0)) {
            throw new InvalidSettingException("connectRate", perSecond, "must be greater than 0 (or 0 for unlimited)");
        }
        this.intervalNanos = Math.max(1, (long) (TimeUnit.SECONDS.toNanos(1) / perSecond));
    }

    /** Waits for this caller's slot. Returns false if the thread was interrupted while waiting. */
    public boolean acquire() {
        long slot;
        synchronized (this) {
            long now = System.nanoTime();
            slot = Math.max(nextSlot, now);
            nextSlot = slot + intervalNanos;
        }
        long wait;
        while ((wait = slot - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }
}
