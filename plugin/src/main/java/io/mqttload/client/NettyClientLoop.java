package io.mqttload.client;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;

/** A HiveMQ client's Netty event loop as a {@link ClientLoop}. */
final class NettyClientLoop implements ClientLoop {
    private final EventLoop loop;

    NettyClientLoop(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
        return loop.schedule(task, delay, unit);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NettyClientLoop && ((NettyClientLoop) other).loop == loop;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(loop);
    }
}
