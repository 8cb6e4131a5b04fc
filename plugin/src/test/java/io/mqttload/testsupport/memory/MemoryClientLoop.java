package io.mqttload.testsupport.memory;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.mqttload.client.ClientLoop;

/**
 * The in-memory connections' event loop: one daemon thread for all of them, so that an asynchronous scheduled publisher
 * sends from a loop here as it does from Netty's over TCP.
 */
public final class MemoryClientLoop implements ClientLoop {
    static final MemoryClientLoop SHARED = new MemoryClientLoop();

    private final ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "memory-client-loop");
        t.setDaemon(true);
        return t;
    });

    private MemoryClientLoop() {
        thread.setRemoveOnCancelPolicy(true);
    }

    /** The tasks and timers waiting on the loop (a cancelled timer is removed at once). */
    public static int pending() {
        return SHARED.thread.getQueue().size();
    }

    @Override
    public void execute(Runnable task) {
        thread.execute(task);
    }

    @Override
    public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
        return thread.schedule(task, delay, unit);
    }
}
