package io.mqttload.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

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

    private TcpProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on a free loopback port and forwards every connection to {@code host:port}. */
    public static TcpProxy to(String host, int port) {
        return new TcpProxy(ProxySockets.listen(), new InetSocketAddress(host, port));
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
            try {
                Socket broker = new Socket();
                broker.connect(target, 5_000);
                client.setTcpNoDelay(true);
                broker.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(broker);
                accepted.incrementAndGet();
                pump(client, broker);
                pump(broker, client);
            } catch (IOException e) {
                ProxySockets.closeQuietly(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> ProxySockets.copy(from, to), "tcp-proxy-pump-" + from.getLocalPort());
        t.setDaemon(true);
        t.start();
    }
}
