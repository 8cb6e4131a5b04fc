package io.mqttload.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** What {@link TcpProxy} and {@link RateLimitedProxy} do alike: listen on loopback, copy bytes, close quietly. */
final class ProxySockets {
    private static final int BUFFER_BYTES = 16 * 1024;
    private static final int BACKLOG = 50;

    private ProxySockets() {
    }

    /** A server socket on a loopback port the kernel picks: bound here and kept, it is never found free and then lost. */
    static ServerSocket listen() {
        try {
            return new ServerSocket(0, BACKLOG, InetAddress.getByName(FreePorts.LOOPBACK));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a proxy port", e);
        }
    }

    /** Copies until either side ends, then closes both: one direction's end is the connection's. */
    static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // The other direction's close or the proxy's own ended this one; both sockets go below.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // Closing what is already closed or reset: nothing to report.
        }
    }
}
