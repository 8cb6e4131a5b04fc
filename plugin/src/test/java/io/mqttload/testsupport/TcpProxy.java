package io.mqttload.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * A TCP forwarder on 127.0.0.1 in front of a broker, so that a test can end a client's connection the way a network
 * failure does: {@link #cut()} resets both sides at once, with no DISCONNECT from the client. The broker then sees a
 * connection lost, which is what a will message is for. {@link #delaying} makes it a broker slower by a known delay.
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.to(broker.host(), broker.tcpPort())) {
 *     connectTo(proxy.port());
 *     proxy.cut();
 * }
 * }</pre>
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private final AtomicInteger accepted = new AtomicInteger();
    private final IntPredicate unanswered;
    /** What the broker sends is held this long before the client gets it; 0: passed on at once. */
    private final long delayNanos;
    private final LongAccumulator shortestHold = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator longestHold = new LongAccumulator(Math::max, 0);

    private TcpProxy(ServerSocket server, InetSocketAddress target, IntPredicate unanswered, Duration delay) {
        this.server = server;
        this.target = target;
        this.unanswered = unanswered;
        this.delayNanos = delay.toNanos();
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on a free loopback port and forwards every connection to {@code host:port}. */
    public static TcpProxy to(String host, int port) {
        return new TcpProxy(ProxySockets.listen(), new InetSocketAddress(host, port), n -> false, Duration.ZERO);
    }

    /**
     * As {@link #to}, but every byte the broker sends (deliveries, acknowledgements, CONNACK) reaches the client
     * {@code delay} after the proxy read it: a broker, or a network, slower by a known amount. Bytes keep their order;
     * what a client sends passes at once.
     */
    public static TcpProxy delaying(String host, int port, Duration delay) {
        return new TcpProxy(ProxySockets.listen(), new InetSocketAddress(host, port), n -> false, delay);
    }

    /** The shortest and the longest time a chunk from the broker was held, in ms: the delay the proxy really added. */
    public double shortestHoldMillis() {
        return shortestHold.get() / 1e6;
    }

    public double longestHoldMillis() {
        return longestHold.get() / 1e6;
    }

    /**
     * As {@link #to}, but the connections whose number {@code unanswered} takes (1 for the first accepted) are
     * accepted and read, and never forwarded nor answered: a broker too busy to answer them, as under a storm of
     * connects. The client's own timeout ends them.
     */
    public static TcpProxy answeringNot(String host, int port, IntPredicate unanswered) {
        return new TcpProxy(ProxySockets.listen(), new InetSocketAddress(host, port), unanswered, Duration.ZERO);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far, cut ones included. */
    public int accepted() {
        return accepted.get();
    }

    /**
     * Stops accepting (a reconnect is then refused) and resets every forwarded connection on both sides: linger 0
     * makes close() send RST, as a crashed client or a pulled cable would leave the broker with no DISCONNECT.
     */
    public void cut() {
        ProxySockets.closeQuietly(server);
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0);
            } catch (SocketException e) {
                // Already closed by its peer: nothing left to reset.
            }
            ProxySockets.closeQuietly(s);
        }
    }

    @Override
    public void close() {
        cut();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (unanswered.test(accepted.incrementAndGet())) {
                sockets.add(client);
                Thread t = new Thread(() -> discard(client), "tcp-proxy-unanswered-" + client.getPort());
                t.setDaemon(true);
                t.start();
                continue;
            }
            try {
                Socket broker = new Socket();
                broker.connect(target, 5_000);
                client.setTcpNoDelay(true);
                broker.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(broker);
                pump(client, broker);
                if (delayNanos > 0) {
                    delayedPump(broker, client);
                } else {
                    pump(broker, client);
                }
            } catch (IOException e) {
                ProxySockets.closeQuietly(client);
            }
        }
    }

    /** Reads what the client sends until it closes, and answers nothing. */
    private static void discard(Socket client) {
        byte[] buffer = new byte[1024];
        try (InputStream in = client.getInputStream()) {
            while (in.read(buffer) >= 0) {
                continue;
            }
        } catch (IOException e) {
            // The client gave up or cut() reset it: that is the end this connection waits for.
        } finally {
            ProxySockets.closeQuietly(client);
        }
    }

    /**
     * Copies {@code from} to {@code to}, each chunk written once {@code delayNanos} have passed since it was read: a
     * reader queues chunks with their due time, a writer waits for each one's (the hold is the product here, not a
     * synchronisation). The end of the stream is queued too, so that the writer closes after the last chunk.
     */
    private void delayedPump(Socket from, Socket to) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    queue.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime()));
                }
            } catch (IOException e) {
                // Closed by the other direction or by cut(): the end is queued below.
            } finally {
                queue.add(Chunk.END);
            }
        }, "tcp-proxy-delay-read-" + from.getLocalPort());
        Thread writer = new Thread(() -> {
            try (OutputStream out = to.getOutputStream()) {
                for (Chunk c = queue.take(); c != Chunk.END; c = queue.take()) {
                    long due = c.readAt + delayNanos;
                    for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
                        LockSupport.parkNanos(left);
                    }
                    out.write(c.bytes);
                    out.flush();
                    long held = System.nanoTime() - c.readAt;
                    shortestHold.accumulate(held);
                    longestHold.accumulate(held);
                }
            } catch (IOException e) {
                // The client went away: nothing left to deliver to.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ProxySockets.closeQuietly(from);
                ProxySockets.closeQuietly(to);
            }
        }, "tcp-proxy-delay-write-" + to.getLocalPort());
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private static final class Chunk {
        static final Chunk END = new Chunk(new byte[0], 0);
        final byte[] bytes;
        final long readAt;

        Chunk(byte[] bytes, long readAt) {
            this.bytes = bytes;
            this.readAt = readAt;
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> ProxySockets.copy(from, to), "tcp-proxy-pump-" + from.getLocalPort());
        t.setDaemon(true);
        t.start();
    }
}
