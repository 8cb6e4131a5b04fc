package io.mqttload.testsupport;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder on 127.0.0.1 in front of a broker that delivers at most R PUBLISH packets per second to its clients,
 * all connections together: a bottleneck of known capacity, so that a test of a capacity search can check that the
 * search finds R.
 *
 * <p>Client to broker, bytes pass untouched. Broker to client, the proxy reads one MQTT control packet at a time and
 * gives each PUBLISH a slot on one schedule shared by every connection, {@code slot(n) = max(arrival, slot(n-1) + 1/R)}
 * in nanoseconds, with arrival the moment the packet is read: no burst allowance. Any other packet goes at once, but
 * after the packets read before it on its connection, so order per connection is kept.
 *
 * <p>Each connection's broker side has a reader, which takes a PUBLISH's slot as it reads it, and a writer, which
 * writes it at its slot, with a queue of one packet between them: the proxy reads at most two packets ahead of what it
 * forwards, so the backlog builds in the broker and the socket buffers, as a real bottleneck's would. The reader being
 * ahead is what keeps the rate exact on busy cores: a writer that wakes late does not move the next slots (one
 * read-wait-write loop took its next arrival after the late write, and lost up to 14 % of R when the machine was
 * loaded); the gap after a late write is shorter by as much. Below R a PUBLISH waits for nothing; it is delayed only by
 * being read whole before it is written.
 *
 * <pre>{@code
 * try (RateLimitedProxy proxy = RateLimitedProxy.to(broker.host(), broker.tcpPort(), 200)) {
 *     subscribeThrough(proxy.port());
 * }
 * }</pre>
 */
public final class RateLimitedProxy implements AutoCloseable {
    private static final int BUFFER_BYTES = 16 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final long ACCEPTOR_JOIN_MILLIS = 5_000;
    private static final int PUBLISH = 3;
    /** The remaining length is a variable byte integer of 1 to 4 bytes (MQTT 3.1.1 2.2.3, MQTT 5 1.5.5). */
    private static final int MAX_LENGTH_BYTES = 4;
    private static final double NANOS_PER_SECOND = 1e9;
    /** Put after a connection's last packet from the broker, so that its writer ends once the rest is written. */
    private static final Packet END = new Packet(new byte[0], false, 0);

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Schedule schedule;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> pumps = new CopyOnWriteArrayList<>();
    private final AtomicLong publishesForwarded = new AtomicLong();
    private final Thread acceptor;
    private volatile boolean closed;

    private RateLimitedProxy(ServerSocket server, InetSocketAddress target, long intervalNanos) {
        this.server = server;
        this.target = target;
        this.schedule = new Schedule(intervalNanos);
        this.acceptor = new Thread(this::acceptLoop, "rate-limited-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Listens on a free loopback port and forwards every connection to {@code host:port}, delivering at most
     * {@code publishesPerSecond} PUBLISH packets per second to all its clients together.
     */
    public static RateLimitedProxy to(String host, int port, double publishesPerSecond) {
        if (!(publishesPerSecond > 0) || Double.isInfinite(publishesPerSecond)) {
            throw new IllegalArgumentException("publishesPerSecond must be positive and finite: " + publishesPerSecond);
        }
        long intervalNanos = Math.max(1, Math.round(NANOS_PER_SECOND / publishesPerSecond));
        return new RateLimitedProxy(ProxySockets.listen(), new InetSocketAddress(host, port), intervalNanos);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** PUBLISH packets written to clients so far, all connections together. */
    public long publishesForwarded() {
        return publishesForwarded.get();
    }

    /**
     * From now on, {@link #firstSlotSinceMark()} is the slot of the first PUBLISH read from the broker from here on:
     * the start of the schedule a test's burst is forwarded on, in {@link System#nanoTime()} terms. No message is
     * written before its slot, so a test that reads its arrivals in this JVM can check the cap against it exactly,
     * however late its own callbacks run.
     */
    public void markScheduleStart() {
        schedule.mark();
    }

    /** The slot of the first PUBLISH read since {@link #markScheduleStart()}; empty if none came. */
    public OptionalLong firstSlotSinceMark() {
        return schedule.firstSlotSinceMark();
    }

    /**
     * Stops accepting and closes every connection. Pumps parked on a slot are interrupted, so nothing waits for the
     * schedule; the acceptor is joined for a bounded time only.
     */
    @Override
    public void close() {
        closed = true;
        ProxySockets.closeQuietly(server);
        for (Socket s : sockets) {
            ProxySockets.closeQuietly(s);
        }
        for (Thread t : pumps) {
            t.interrupt();
        }
        try {
            acceptor.join(ACCEPTOR_JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            Socket broker = new Socket();
            try {
                sockets.add(client);
                sockets.add(broker);
                broker.connect(target, CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                broker.setTcpNoDelay(true);
                BlockingQueue<Packet> queue = new ArrayBlockingQueue<>(1);
                String name = "rate-limited-proxy-" + client.getPort();
                start(() -> ProxySockets.copy(client, broker), name + "-up");
                Thread reader = start(() -> readPackets(broker, queue), name + "-down-read");
                start(() -> writePackets(client, broker, queue, reader), name + "-down-write");
            } catch (IOException e) {
                ProxySockets.closeQuietly(client);
                ProxySockets.closeQuietly(broker);
            }
            if (closed) {
                // close() may have run between accept() and sockets.add(): these two would otherwise stay open.
                ProxySockets.closeQuietly(client);
                ProxySockets.closeQuietly(broker);
            }
        }
    }

    private Thread start(Runnable pump, String name) {
        Thread t = new Thread(pump, name);
        t.setDaemon(true);
        pumps.add(t);
        t.start();
        return t;
    }

    /**
     * Broker to client, reading side: each packet is read whole and a PUBLISH takes its slot as it is read, then
     * waits in the queue. The queue holds one packet, so this reads at most two packets ahead of the writer.
     */
    private void readPackets(Socket from, BlockingQueue<Packet> queue) {
        try (InputStream in = new BufferedInputStream(from.getInputStream(), BUFFER_BYTES)) {
            for (byte[] bytes = readPacket(in); bytes != null; bytes = readPacket(in)) {
                boolean publish = (bytes[0] & 0xFF) >>> 4 == PUBLISH;
                queue.put(new Packet(bytes, publish, publish ? schedule.slot(System.nanoTime()) : 0));
            }
        } catch (IOException e) {
            // The other direction's close, close() or a malformed packet ended this one.
        } catch (InterruptedException e) {
            // The writer ended (it closed both sockets) or close() ran: nothing more is forwarded.
            Thread.currentThread().interrupt();
            return;
        }
        try {
            queue.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Broker to client, writing side: packets in the order read, each PUBLISH no earlier than its slot. */
    private void writePackets(Socket to, Socket from, BlockingQueue<Packet> queue, Thread reader) {
        try (OutputStream out = to.getOutputStream()) {
            for (Packet p = queue.take(); p != END; p = queue.take()) {
                if (p.publish && !waitUntil(p.slot)) {
                    return;
                }
                out.write(p.bytes);
                out.flush();
                if (p.publish) {
                    publishesForwarded.incrementAndGet();
                }
            }
        } catch (IOException | InterruptedException e) {
            // The client went, or close() ran: both sockets go below.
        } finally {
            ProxySockets.closeQuietly(from);
            ProxySockets.closeQuietly(to);
            reader.interrupt();
        }
    }

    /** One MQTT control packet, fixed header included; null at the end of the stream between packets. */
    private static byte[] readPacket(InputStream in) throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        byte[] header = new byte[1 + MAX_LENGTH_BYTES];
        header[0] = (byte) first;
        int length = 1;
        int remaining = 0;
        int digit;
        do {
            if (length > MAX_LENGTH_BYTES) {
                throw new IOException("a remaining length longer than " + MAX_LENGTH_BYTES + " bytes");
            }
            digit = readByte(in);
            header[length] = (byte) digit;
            remaining |= (digit & 0x7F) << (7 * (length - 1));
            length++;
        } while ((digit & 0x80) != 0);
        byte[] packet = Arrays.copyOf(header, length + remaining);
        readFully(in, packet, length, remaining);
        return packet;
    }

    /** Parks until {@code deadline} (a {@link System#nanoTime()} value); false when close() interrupted the wait. */
    private boolean waitUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(this, left);
            if (closed || Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }

    private static int readByte(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the broker closed the connection inside a packet");
        }
        return b;
    }

    private static void readFully(InputStream in, byte[] into, int offset, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int n = in.read(into, offset + done, length - done);
            if (n < 0) {
                throw new EOFException("the broker closed the connection inside a packet");
            }
            done += n;
        }
    }

    /** A packet read from the broker, with the slot it took if it is a PUBLISH. */
    private static final class Packet {
        final byte[] bytes;
        final boolean publish;
        final long slot;

        Packet(byte[] bytes, boolean publish, long slot) {
            this.bytes = bytes;
            this.publish = publish;
            this.slot = slot;
        }
    }

    /**
     * The slots of every connection's PUBLISH packets: one a fixed interval after the other, never before arrival. Its
     * own class, so that a test can give it arrival instants and check the slots exactly, with no thread involved.
     */
    static final class Schedule {
        private final long intervalNanos;
        private boolean started;
        private long last;
        private boolean marked;
        private OptionalLong firstSinceMark = OptionalLong.empty();

        Schedule(long intervalNanos) {
            this.intervalNanos = intervalNanos;
        }

        /** The slot of a PUBLISH that arrived at {@code arrival}, taken from the schedule. */
        synchronized long slot(long arrival) {
            // nanoTime values are compared by difference: they may wrap.
            long next = last + intervalNanos;
            long slot = !started || arrival - next > 0 ? arrival : next;
            started = true;
            last = slot;
            if (marked && firstSinceMark.isEmpty()) {
                firstSinceMark = OptionalLong.of(slot);
            }
            return slot;
        }

        synchronized void mark() {
            marked = true;
            firstSinceMark = OptionalLong.empty();
        }

        synchronized OptionalLong firstSlotSinceMark() {
            return firstSinceMark;
        }
    }
}
