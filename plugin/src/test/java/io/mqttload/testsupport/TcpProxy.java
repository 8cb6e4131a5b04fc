package io.mqttload.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * A TCP forwarder on 127.0.0.1 in front of a broker, so that a test can end a client's connection the way a network
 * failure does: {@link #cut()} resets both sides at once, with no DISCONNECT from the client. The broker then sees a
 * connection lost, which is what a will message is for.
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

    private TcpProxy(ServerSocket server, InetSocketAddress target, IntPredicate unanswered) {
        this.server = server;
        this.target = target;
        this.unanswered = unanswered;
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on a free loopback port and forwards every connection to {@code host:port}. */
    public static TcpProxy to(String host, int port) {
        return new TcpProxy(ProxySockets.listen(), new InetSocketAddress(host, port), n -> false);
    }

    /**
     * As {@link #to}, but the connections whose number {@code unanswered} takes (1 for the first accepted) are
     * accepted and read, and never forwarded nor answered: a broker too busy to answer them, as under a storm of
     * connects. The client's own timeout ends them.
     */
    public static TcpProxy answeringNot(String host, int port, IntPredicate unanswered) {
        return new TcpProxy(ProxySockets.listen(), new InetSocketAddress(host, port), unanswered);
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
                pump(broker, client);
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

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> ProxySockets.copy(from, to), "tcp-proxy-pump-" + from.getLocalPort());
        t.setDaemon(true);
        t.start();
    }
}
