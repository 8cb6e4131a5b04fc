package io.mqttload.testsupport.memory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.mqttload.client.ClientLoop;

/**
 * The in-memory connections' event loop: one daemon thread for all of them, so that an asynchronous scheduled publisher
 * sends from a loop here as it does from Netty's over TCP.
 */
final class MemoryClientLoop implements ClientLoop {
    static final MemoryClientLoop SHARED = new MemoryClientLoop();

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "memory-client-loop");
        t.setDaemon(true);
        return t;
    });

    private MemoryClientLoop() {
    }

    @Override
    public void execute(Runnable task) {
        thread.execute(task);
    }

    @Override
    public void schedule(Runnable task, long delay, TimeUnit unit) {
        thread.schedule(task, delay, unit);
    }
}
