package io.mqttload.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Free TCP ports on the loopback interface. A port is only free at the moment it is returned; a broker that
 * fails to bind it should pick new ports and retry, which is what the broker helpers of this package do.
 */
public final class FreePorts {
    /** Brokers bind this literal address, so tests never depend on how "localhost" resolves. */
    public static final String LOOPBACK = "127.0.0.1";

    private static final int CONNECT_TIMEOUT_MILLIS = 500;
    private static final int LOW_RANGE_START = 15_000;
    private static final int LOW_RANGE_SIZE = 17_000;
    /** Each JVM starts at its own place in the range, so that test JVMs running side by side rarely meet. */
    private static final AtomicInteger NEXT = new AtomicInteger(ThreadLocalRandom.current().nextInt(LOW_RANGE_SIZE));

    private FreePorts() {
    }

    /** One free loopback TCP port. */
    public static int tcpPort() {
        return tcpPorts(1).get(0);
    }

    /**
     * {@code count} distinct free loopback TCP ports: all sockets stay bound until all ports are known. The ports
     * come from below the kernel's ephemeral range (32768-60999 on Linux): a port the kernel picked for a listening
     * socket could be handed to an outgoing connection (tests open thousands) before the broker or the engine that
     * was meant to have it binds it, which made a jmeter-server fail to start now and then.
     */
    public static List<Integer> tcpPorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            for (int tries = 0; sockets.size() < count; tries++) {
                if (tries > LOW_RANGE_SIZE) {
                    throw new IOException("no free port between " + LOW_RANGE_START + " and "
                            + (LOW_RANGE_START + LOW_RANGE_SIZE));
                }
                int port = LOW_RANGE_START + Math.floorMod(NEXT.getAndIncrement(), LOW_RANGE_SIZE);
                ServerSocket socket = new ServerSocket();
                try {
                    socket.bind(new InetSocketAddress(loopback(), port));
                    sockets.add(socket);
                } catch (IOException taken) {
                    closeQuietly(socket);
                }
            }
            List<Integer> ports = new ArrayList<>(count);
            for (ServerSocket socket : sockets) {
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback TCP port", e);
        } finally {
            for (ServerSocket socket : sockets) {
                closeQuietly(socket);
            }
        }
    }

    /** Whether something accepts TCP connections on the loopback {@code port} right now. */
    public static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(loopback(), port), CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName(LOOPBACK);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an IP literal always resolves", e);
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // The port was only probed; a failed close cannot leak anything the caller uses.
        }
    }
}
