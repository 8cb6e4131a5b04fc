package io.mqttload.common;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Bounded polling of cheap conditions that have no completion signal of their own (counters, ledgers). */
public final class Waits {
    private Waits() {
    }

    /** Polls every {@code periodMillis} until the condition holds, the deadline passes or the thread is interrupted. */
    public static boolean until(BooleanSupplier condition, long deadlineNanos, long periodMillis) {
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() >= deadlineNanos || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(periodMillis));
        }
        return true;
    }
}
