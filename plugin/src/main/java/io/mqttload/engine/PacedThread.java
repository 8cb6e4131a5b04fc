package io.mqttload.engine;

import java.util.function.DoubleSupplier;

/**
 * One thread's publishing schedule as the engine reads it: its rate now ({@link #getAsDouble()}, messages per second)
 * and what it owed and had not started by a given time.
 */
public interface PacedThread extends DoubleSupplier {
    /**
     * Messages of the whole intervals the schedule had passed by {@code endMicros} (wall clock, µs) without their
     * sample starting: load the plan offered that the thread, held up, never sent.
     */
    long owedMessages(long endMicros);
}
