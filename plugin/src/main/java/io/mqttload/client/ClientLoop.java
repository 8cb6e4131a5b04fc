package io.mqttload.client;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The one thread a connection's I/O runs on, as the engine sees it: work handed to it runs there, in order, and a
 * publish called there is written by the loop's next pass without a wake-up from another thread. Loops are equal when
 * they are the same thread, so that the engine can hand one task to each loop rather than one to each client.
 */
public interface ClientLoop {
    /** Runs {@code task} on the loop; from the loop itself it runs after the task that is running. */
    void execute(Runnable task);

    /**
     * Runs {@code task} on the loop after {@code delay}. The loop's timers fire on its next pass after that, which
     * on Netty's NIO transport waits in whole milliseconds: up to about a millisecond late. The future cancels it.
     */
    Future<?> schedule(Runnable task, long delay, TimeUnit unit);
}
