package io.mqttload.testsupport;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;

import io.mqttload.measure.PayloadHeader;

/**
 * A TCP proxy that reads the MQTT packets it forwards (3.1.1 and 5, QoS 0 and 1), to count what the broker did
 * independently of the suite's ledger: which measured messages it acknowledged (PUBACK) to publishers and which it
 * delivered (PUBLISH) to each subscribing client id, identified by the suite's payload header (stream, sequence).
 * It can also cut chosen clients' connections and refuse their new ones for a while, then accept them again: clients
 * taken offline with no DISCONNECT, whose broker keeps their sessions, while the others go on.
 */
public final class MqttTap implements AutoCloseable {
    private static final int PUBLISH = 3;
    private static final int PUBACK = 4;
    private static final int CONNECT = 1;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private final AtomicInteger refused = new AtomicInteger();
    private volatile Predicate<String> refusing = id -> false;
    private final AtomicInteger connects = new AtomicInteger();
    /** The reason code the tap answers a CONNECT with itself, by its number (1 for the first it saw); 0: passed on. */
    private volatile IntUnaryOperator answered = n -> 0;
    /** Messages (stream << 32 | sequence) the broker acknowledged to a publisher through this tap. */
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    /** Per client id, how many times the broker delivered each message to it through this tap. */
    private final Map<String, Map<Long, Integer>> delivered = new ConcurrentHashMap<>();

    private MqttTap(String host, int port) {
        this.server = ProxySockets.listen();
        this.target = new InetSocketAddress(host, port);
        this.acceptor = new Thread(this::acceptLoop, "mqtt-tap-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on a free loopback port and forwards every connection to {@code host:port}, reading its packets. */
    public static MqttTap to(String host, int port) {
        return new MqttTap(host, port);
    }

    public int port() {
        return server.getLocalPort();
    }

    /**
     * Cuts the connections of the client ids {@code clientIds} takes, and resets their new ones at their CONNECT, until
     * {@link #accept()}: the broker's side is reset (linger
     * 0, no DISCONNECT: it keeps the session), the client's closed after what was already passed on to it, so that what
     * the tap counted delivered is what the client got.
     */
    public void cutAndRefuse(Predicate<String> clientIds) {
        refusing = clientIds;
        for (Connection c : connections) {
            if (clientIds.test(c.clientId)) {
                c.cut = true;
                reset(c.broker);
                try {
                    c.client.shutdownOutput();
                } catch (IOException e) {
                    // Already closed: nothing is left in flight to it.
                }
            }
        }
    }

    /** Forwards every new connection again after {@link #cutAndRefuse}. */
    public void accept() {
        refusing = id -> false;
    }

    /**
     * Answers CONNECTs itself, with an MQTT 5 CONNACK of the reason code {@code reasonByNumber} gives a CONNECT's number
     * (1 for the first; 0x89 server busy, 0x9F connection rate exceeded; 0: passed on to the broker), and closes them:
     * a broker that refuses for now, in front of one (Mosquitto 2.0.11 at max_connections closes without a CONNACK).
     */
    public void answerConnects(IntUnaryOperator reasonByNumber) {
        answered = reasonByNumber;
    }

    /** Connections reset at their CONNECT while refusing. */
    public int refused() {
        return refused.get();
    }

    /** Distinct measured messages the broker acknowledged to publishers. */
    public Set<Long> acknowledged() {
        return Set.copyOf(acknowledged);
    }

    /** Client ids the broker delivered measured messages to. */
    public Set<String> receivers() {
        return Set.copyOf(delivered.keySet());
    }

    /** Copies of messages {@code clientId} got beyond the first of each. */
    public long duplicates(String clientId) {
        return delivered.getOrDefault(clientId, Map.of()).values().stream().mapToLong(n -> n - 1).sum();
    }

    /** Messages acknowledged to a publisher (through {@code publishers}) that {@code clientId} never got here. */
    public long acknowledgedNotDelivered(MqttTap publishers, String clientId) {
        Map<Long, Integer> got = delivered.getOrDefault(clientId, Map.of());
        return publishers.acknowledged.stream().filter(m -> !got.containsKey(m)).count();
    }

    /** The stream and sequence of a message as the tap keys it. */
    public static long key(int streamId, int sequence) {
        return ((long) streamId << 32) | (sequence & 0xFFFFFFFFL);
    }

    @Override
    public void close() {
        ProxySockets.closeQuietly(server);
        for (Connection c : connections) {
            reset(c.broker);
            reset(c.client);
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (SocketException e) {
            // Already closed by its peer: nothing left to reset.
        }
        ProxySockets.closeQuietly(s);
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
                Connection c = new Connection(client, broker);
                connections.add(c);
                start(() -> pump(client, broker, c, true), "mqtt-tap-up-" + client.getPort());
                start(() -> pump(broker, client, c, false), "mqtt-tap-down-" + client.getPort());
            } catch (IOException e) {
                // The broker is down: the client sees its connection closed, as it would without the tap.
                reset(client);
            }
        }
    }

    private static void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    /** What one connection said about itself: its client id, its version, its QoS 1 publishes not yet acknowledged. */
    private static final class Connection {
        final Socket client;
        final Socket broker;
        volatile String clientId = "";
        volatile boolean cut;
        volatile int level = 4;
        final Map<Integer, Long> unacknowledged = new ConcurrentHashMap<>();

        Connection(Socket client, Socket broker) {
            this.client = client;
            this.broker = broker;
        }
    }

    /** Forwards whole packets from {@code from} to {@code to}, each read before it is passed on. */
    private void pump(Socket from, Socket to, Connection c, boolean upstream) {
        try (DataInputStream in = new DataInputStream(from.getInputStream()); OutputStream out = to.getOutputStream()) {
            while (true) {
                int first = in.read();
                if (first < 0) {
                    return;
                }
                int length = 0;
                int shift = 0;
                int b;
                byte[] lengthBytes = new byte[4];
                int lengthCount = 0;
                do {
                    b = in.readUnsignedByte();
                    lengthBytes[lengthCount++] = (byte) b;
                    length |= (b & 0x7F) << shift;
                    shift += 7;
                } while ((b & 0x80) != 0);
                byte[] body = new byte[length];
                in.readFully(body);
                if (upstream) {
                    // Read before it is passed on: the broker's answer may come back before this thread's next step.
                    read(first, body, c, true);
                    int reason = (first >>> 4) == CONNECT ? answered.applyAsInt(connects.incrementAndGet()) : 0;
                    if (reason != 0) {
                        c.cut = true;
                        OutputStream toClient = c.client.getOutputStream();
                        toClient.write(new byte[] {0x20, 3, 0, (byte) reason, 0});
                        toClient.flush();
                        reset(c.broker);
                        ProxySockets.closeQuietly(c.client);
                        return;
                    }
                    if ((first >>> 4) == CONNECT && refusing.test(c.clientId)) {
                        refused.incrementAndGet();
                        c.cut = true;
                        reset(c.client);
                        return;
                    }
                }
                if (c.cut) {
                    // Cut: nothing more passes, so nothing more is counted.
                    return;
                }
                if (!upstream) {
                    // Read before it is passed on, so that the count is there when the client acts on it; a delivery
                    // that could not be passed on (a cut) is taken back below.
                    read(first, body, c, false);
                }
                try {
                    out.write(first);
                    out.write(lengthBytes, 0, lengthCount);
                    out.write(body);
                    out.flush();
                } catch (IOException e) {
                    if (!upstream && (first >>> 4) == PUBLISH) {
                        undeliver(first, body, c);
                    }
                    throw e;
                }
            }
        } catch (IOException e) {
            // Either side closed, or a cut reset it: both sockets go below.
        } finally {
            ProxySockets.closeQuietly(from);
            ProxySockets.closeQuietly(to);
        }
    }

    private void read(int first, byte[] body, Connection c, boolean upstream) {
        int type = first >>> 4;
        ByteBuffer buf = ByteBuffer.wrap(body);
        if (type == CONNECT && upstream) {
            skipString(buf);
            c.level = buf.get() & 0xFF;
            buf.position(buf.position() + 3);
            skipProperties(buf, c);
            c.clientId = string(buf);
        } else if (type == PUBLISH) {
            int qos = (first >>> 1) & 3;
            skipString(buf);
            int packetId = qos > 0 ? buf.getShort() & 0xFFFF : -1;
            skipProperties(buf, c);
            if (buf.remaining() < PayloadHeader.SIZE) {
                return;
            }
            long key = key(PayloadHeader.streamId(buf), PayloadHeader.sequence(buf));
            if (upstream) {
                if (packetId >= 0) {
                    c.unacknowledged.put(packetId, key);
                }
            } else {
                delivered.computeIfAbsent(c.clientId, id -> new ConcurrentHashMap<>()).merge(key, 1, Integer::sum);
            }
        } else if (type == PUBACK && !upstream) {
            Long key = c.unacknowledged.remove(buf.getShort() & 0xFFFF);
            // A PUBACK with a reason code of 0x80 or more (MQTT 5) refused the message.
            boolean accepted = c.level < 5 || buf.remaining() == 0 || (buf.get() & 0xFF) < 0x80;
            if (key != null && accepted) {
                acknowledged.add(key);
            }
        }
    }

    private void undeliver(int first, byte[] body, Connection c) {
        ByteBuffer buf = ByteBuffer.wrap(body);
        skipString(buf);
        if (((first >>> 1) & 3) > 0) {
            buf.getShort();
        }
        skipProperties(buf, c);
        if (buf.remaining() >= PayloadHeader.SIZE) {
            delivered.get(c.clientId).computeIfPresent(key(PayloadHeader.streamId(buf), PayloadHeader.sequence(buf)),
                    (k, n) -> n == 1 ? null : n - 1);
        }
    }

    private static void skipString(ByteBuffer buf) {
        int n = buf.getShort() & 0xFFFF;
        buf.position(buf.position() + n);
    }

    private static String string(ByteBuffer buf) {
        int n = buf.getShort() & 0xFFFF;
        return new String(body(buf, n), StandardCharsets.UTF_8);
    }

    private static byte[] body(ByteBuffer buf, int n) {
        byte[] b = new byte[n];
        buf.get(b);
        return b;
    }

    private static void skipProperties(ByteBuffer buf, Connection c) {
        if (c.level < 5) {
            return;
        }
        int length = 0;
        int shift = 0;
        int b;
        do {
            b = buf.get() & 0xFF;
            length |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        buf.position(buf.position() + length);
    }
}
