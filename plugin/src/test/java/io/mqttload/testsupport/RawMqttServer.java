package io.mqttload.testsupport;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A broker that answers every CONNECT with the same bytes, whatever they are, or each connection's by its number: the
 * faults no real broker of the CI makes on demand (Moquette's MQTT 5 CONNACK carrying a 3.1.1 return code, Artemis's
 * DISCONNECT before CONNACK, a CONNACK refusing "later" a number of times before one that accepts). It
 * reads one CONNECT per connection, writes its answer, and keeps the socket open until the client closes it, so that
 * what the client makes of the answer is the client's own doing. Listens on its own loopback port; {@link #close()}
 * stops it.
 */
public final class RawMqttServer implements AutoCloseable {
    /** An MQTT 5 CONNACK with reason code 0x01, which MQTT 5 does not define (3.1.1's "unacceptable protocol version"). */
    public static final byte[] MQTT5_CONNACK_REASON_1 = {0x20, 0x03, 0x00, 0x01, 0x00};
    /** An MQTT 5 DISCONNECT (Server busy, 0x89) where a CONNACK is due. */
    public static final byte[] MQTT5_DISCONNECT_SERVER_BUSY = {(byte) 0xE0, 0x02, (byte) 0x89, 0x00};

    /** An MQTT 5 CONNACK refusing with Server busy (0x89): "later". */
    public static final byte[] MQTT5_CONNACK_SERVER_BUSY = {0x20, 0x03, 0x00, (byte) 0x89, 0x00};
    /** An MQTT 5 CONNACK refusing with Not authorized (0x87): final. */
    public static final byte[] MQTT5_CONNACK_NOT_AUTHORIZED = {0x20, 0x03, 0x00, (byte) 0x87, 0x00};
    /** An MQTT 5 CONNACK accepting the connect, no session present, no properties. */
    public static final byte[] MQTT5_CONNACK_SUCCESS = {0x20, 0x03, 0x00, 0x00, 0x00};

    private final ServerSocket server;
    private final IntFunction<byte[]> answers;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public RawMqttServer(byte[] answer) throws IOException {
        this(n -> answer);
    }

    /** Answers the {@code n}th connection (from 1) with {@code answers.apply(n)}. */
    public RawMqttServer(IntFunction<byte[]> answers) throws IOException {
        this.answers = answers;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "raw-mqtt-server-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                byte[] answer = answers.apply(accepted.incrementAndGet()).clone();
                Thread t = new Thread(() -> answer(s, answer), "raw-mqtt-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                // Closed by close(): the loop ends.
                return;
            }
        }
    }

    private static void answer(Socket s, byte[] answer) {
        try (s) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            in.readUnsignedByte();
            in.readFully(new byte[remainingLength(in)]);
            s.getOutputStream().write(answer);
            s.getOutputStream().flush();
            // Until the client closes (or close() does): the client decides what the answer is worth.
            while (in.read() >= 0) {
                continue;
            }
        } catch (IOException e) {
            // The client closed the socket, or close() did: nothing is owed to anyone.
            return;
        }
    }

    private static int remainingLength(InputStream in) throws IOException {
        int value = 0;
        for (int shift = 0; shift < 28; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in the fixed header");
            }
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("malformed remaining length");
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
