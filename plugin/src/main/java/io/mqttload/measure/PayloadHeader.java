package io.mqttload.measure;

import java.nio.ByteBuffer;

/**
 * The 16-byte measurement header at the start of every measured payload, big-endian:
 * <pre>
 *   bytes 0..7   bits 63..58: the publisher's broker node + 1 (0: not known), bits 57..0: send time, microseconds
 *                since the epoch (58 bits last until the year 11100)
 *   bytes 8..11  stream id (one publishing client on one topic, unique across engines)
 *   bytes 12..15 sequence number in that stream, from 1
 * </pre>
 * 16 bytes is the smallest payload of the seed benchmarks (EMQ's suite), so every scenario can
 * carry it.
 */
public final class PayloadHeader {
    public static final int SIZE = 16;
    private static final int NODE_SHIFT = 58;
    private static final long TIME_MASK = (1L << NODE_SHIFT) - 1;

    /** A send time further than this from the receive time is not ours: the bytes are not a header. */
    private static final long PLAUSIBLE_SKEW_MICROS = 24L * 3600 * 1_000_000;

    private PayloadHeader() {
    }

    public static void write(byte[] payload, long sendMicros, int streamId, int sequence) {
        write(payload, sendMicros, streamId, sequence, -1);
    }

    /** With the publisher's broker node (0..62; -1: not known), so receivers can tell latency per node pair. */
    public static void write(byte[] payload, long sendMicros, int streamId, int sequence, int node) {
        putLong(payload, 0, (sendMicros & TIME_MASK) | ((long) (node + 1) << NODE_SHIFT));
        putInt(payload, 8, streamId);
        putInt(payload, 12, sequence);
    }

    public static long sendMicros(byte[] payload) {
        return getLong(payload, 0) & TIME_MASK;
    }

    /** The publisher's broker node, or -1 when the header does not say. */
    public static int node(byte[] payload) {
        return (int) (getLong(payload, 0) >>> NODE_SHIFT) - 1;
    }

    public static int streamId(byte[] payload) {
        return getInt(payload, 8);
    }

    public static int sequence(byte[] payload) {
        return getInt(payload, 12);
    }

    /** Whether the payload can be read as a header received at {@code receiveMicros}. */
    public static boolean isPlausible(byte[] payload, long receiveMicros) {
        if (payload.length < SIZE) {
            return false;
        }
        long delta = receiveMicros - sendMicros(payload);
        return delta > -PLAUSIBLE_SKEW_MICROS && delta < PLAUSIBLE_SKEW_MICROS && sequence(payload) > 0;
    }

    /** Reads the header of a received payload without copying it; buffer positions are left alone. */
    public static boolean isPlausible(ByteBuffer payload, long receiveMicros) {
        if (payload.remaining() < SIZE) {
            return false;
        }
        long delta = receiveMicros - sendMicros(payload);
        return delta > -PLAUSIBLE_SKEW_MICROS && delta < PLAUSIBLE_SKEW_MICROS && sequence(payload) > 0;
    }

    public static long sendMicros(ByteBuffer payload) {
        return payload.getLong(payload.position()) & TIME_MASK;
    }

    public static int node(ByteBuffer payload) {
        return (int) (payload.getLong(payload.position()) >>> NODE_SHIFT) - 1;
    }

    public static int streamId(ByteBuffer payload) {
        return payload.getInt(payload.position() + 8);
    }

    public static int sequence(ByteBuffer payload) {
        return payload.getInt(payload.position() + 12);
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    private static int getInt(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }
}
