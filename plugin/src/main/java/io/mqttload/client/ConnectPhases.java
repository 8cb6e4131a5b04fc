package io.mqttload.client;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.netty.channel.AbstractEventLoop;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultithreadEventLoopGroup;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * The instants of one client's connect that the HiveMQ client does not expose: the TCP connection established
 * (Netty's {@code channelActive}) and the TLS handshake done (the {@link SslHandler}'s handshake future, which
 * completes before the client writes its CONNECT). The client takes a {@link MultithreadEventLoopGroup} given as its
 * Netty executor as it is, and registers each new channel with the group's event loop: this class gives each client a
 * group of one event loop that is the shared one, except that it first puts a handler at the head of the channel's
 * pipeline, which notes the instants and removes itself. Everything else goes to the shared loop untouched.
 *
 * <p>Instants are {@link System#nanoTime()} values, 0 until seen; written on the event loop, read when the CONNACK
 * completes the connect.
 */
public final class ConnectPhases {
    private volatile long tcpConnectedNanos;
    private volatile long tlsDoneNanos;

    /** Forgets the instants of an earlier connection: called before each connect the caller measures. */
    void reset() {
        tcpConnectedNanos = 0;
        tlsDoneNanos = 0;
    }

    /** The channel registered last: the client's current connection, for {@link #drop()}. */
    private volatile Channel channel;

    /** When the TCP connection of the last connect was established; 0: not (yet). */
    public long tcpConnectedNanos() {
        return tcpConnectedNanos;
    }

    /** When the TLS handshake of the last connect completed; 0: not (yet), or no TLS. */
    public long tlsDoneNanos() {
        return tlsDoneNanos;
    }

    /** An event-loop group for one client: {@code loop}, noting this client's instants on each channel it registers. */
    MultithreadEventLoopGroup group(EventLoop loop) {
        return new OneLoop(loop, this);
    }

    private void watch(Channel channel) {
        this.channel = channel;
        channel.pipeline().addFirst("mqttload-connect-phases", new Watch());
    }

    /**
     * Closes the client's current channel at once, without DISCONNECT: the client sees its connection closed as by the
     * network or the broker, and reconnects under its policy. The channel is the one this group registered last.
     */
    void drop() {
        Channel c = channel;
        if (c != null && c.isActive()) {
            c.close();
        }
    }

    /** Notes the instants of one channel, then leaves its pipeline. */
    private final class Watch extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            tcpConnectedNanos = System.nanoTime();
            SslHandler ssl = ctx.pipeline().get(SslHandler.class);
            if (ssl != null) {
                // The handshake future completes before the handshake event that makes the client write its CONNECT.
                ssl.handshakeFuture().addListener(done -> {
                    if (done.isSuccess()) {
                        tlsDoneNanos = System.nanoTime();
                    }
                });
            }
            ctx.fireChannelActive();
            ctx.pipeline().remove(this);
        }
    }

    /**
     * A group of one event loop: the shared {@code loop} behind a {@link Watching} front. The HiveMQ client never shuts
     * down a group it was given, and this one owns no thread.
     */
    private static final class OneLoop extends MultithreadEventLoopGroup {
        OneLoop(EventLoop loop, ConnectPhases phases) {
            super(1, (Executor) Runnable::run, loop, phases);
        }

        @Override
        protected EventLoop newChild(Executor executor, Object... args) {
            return new Watching(this, (EventLoop) args[0], (ConnectPhases) args[1]);
        }
    }

    /** The shared event loop, watching the channels registered through it. */
    private static final class Watching extends AbstractEventLoop {
        private final EventLoop loop;
        private final ConnectPhases phases;
        /** Never completes: a client's group ends with the client, the shared loop does not. */
        private final Promise<Void> termination = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);

        Watching(EventLoopGroup parent, EventLoop loop, ConnectPhases phases) {
            super(parent);
            this.loop = loop;
            this.phases = phases;
        }

        @Override
        public ChannelFuture register(Channel channel) {
            phases.watch(channel);
            return loop.register(channel);
        }

        @Override
        public ChannelFuture register(ChannelPromise promise) {
            phases.watch(promise.channel());
            return loop.register(promise);
        }

        @Override
        @Deprecated
        public ChannelFuture register(Channel channel, ChannelPromise promise) {
            phases.watch(channel);
            return loop.register(channel, promise);
        }

        @Override
        public boolean inEventLoop(Thread thread) {
            return loop.inEventLoop(thread);
        }

        @Override
        public void execute(Runnable task) {
            loop.execute(task);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            return loop.schedule(command, delay, unit);
        }

        @Override
        public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
            return loop.schedule(callable, delay, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            return loop.scheduleAtFixedRate(command, initialDelay, period, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
            return loop.scheduleWithFixedDelay(command, initialDelay, delay, unit);
        }

        @Override
        public boolean isShuttingDown() {
            return loop.isShuttingDown();
        }

        /** The shared loop is not the client's to stop. */
        @Override
        public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
            return termination;
        }

        @Override
        public Future<?> terminationFuture() {
            return termination;
        }

        @Override
        @Deprecated
        public void shutdown() {
            // The shared loop is not the client's to stop.
        }

        @Override
        public boolean isShutdown() {
            return loop.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return loop.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return loop.awaitTermination(timeout, unit);
        }
    }
}
