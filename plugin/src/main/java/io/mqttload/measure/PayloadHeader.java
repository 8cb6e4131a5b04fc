package io.mqttload.measure;

import java.nio.ByteBuffer;

/**
 * The 16-byte measurement header at the start of every measured payload, big-endian:
 * <pre>
 *   bytes 0..7   bits 63..12: send time, microseconds since the epoch (52 bits: until the year 2112)
 *                bits 11..0:  schedule lag, the send time minus the intended send time, coded with 8 significant
 *                             bits (see {@link #lagCode}); 4095: the message had no intended send time
 *   bytes 8..11  stream id (one publishing client on one topic, unique across engines)
 *   bytes 12..15 bits 31..26: the publisher's broker node + 1 (0: not known)
 *                bits 25..0:  sequence number in that stream, from 1 (a stream ends at {@link #MAX_SEQUENCE})
 * </pre>
 * 16 bytes is the smallest payload of the seed benchmarks (EMQ's suite), so every scenario carries both latencies:
 * the send time exactly, and the intended time as the send time minus the lag. The lag's coding error (at most
 * 1/256 of the lag) therefore touches only the latency from the intended time, never the one from the send.
 */
public final class PayloadHeader {
    public static final int SIZE = 16;
    /**
     * The layout's version, among an engine's facts: 2 since the schedule lag (1 had a 58-bit send time and a 32-bit
     * sequence). Engines of different layouts misread each other's messages, so the merged report refuses to judge
     * them together.
     */
    public static final int LAYOUT = 2;
    /** The engine fact that carries {@link #LAYOUT}; an engine without it wrote layout 1. */
    public static final String LAYOUT_FACT = "measurementHeader";
    /** The last sequence number of a stream; the publisher goes on in a new stream. */
    public static final int MAX_SEQUENCE = (1 << 26) - 1;
    /** The lag code of a message with no intended send time (an unpaced publisher). */
    public static final int NO_INTENDED_TIME = 0xFFF;
    /** The largest lag the code carries (about 76 hours); longer lags are carried as this. */
    public static final long MAX_LAG_MICROS = lag(NO_INTENDED_TIME - 1);

    /** The stream id's top bits that name the publishing engine ({@code mqttload.engineNumber}). */
    public static final int ENGINE_BITS = 12;

    private static final int LAG_BITS = 12;
    private static final int LAG_MASK = (1 << LAG_BITS) - 1;
    private static final int MANTISSA_BITS = 7;
    private static final int NODE_SHIFT = 26;
    private static final int SEQUENCE_MASK = MAX_SEQUENCE;

    /** A send time further than this from the receive time is not ours: the bytes are not a header. */
    private static final long PLAUSIBLE_SKEW_MICROS = 24L * 3600 * 1_000_000;

    private PayloadHeader() {
    }

    public static void write(byte[] payload, long sendMicros, int streamId, int sequence) {
        write(payload, sendMicros, streamId, sequence, -1);
    }

    /** With the publisher's broker node (0..62; -1: not known), so receivers can tell latency per node pair. */
    public static void write(byte[] payload, long sendMicros, int streamId, int sequence, int node) {
        write(payload, sendMicros, -1, streamId, sequence, node);
    }

    /**
     * The full header: {@code lagMicros} is the send time minus the intended send time (negative: no intended
     * time); {@code sequence} runs from 1 to {@link #MAX_SEQUENCE}.
     */
    public static void write(byte[] payload, long sendMicros, long lagMicros, int streamId, int sequence, int node) {
        putLong(payload, 0, (sendMicros << LAG_BITS) | lagCode(lagMicros));
        putInt(payload, 8, streamId);
        putInt(payload, 12, ((node + 1) << NODE_SHIFT) | (sequence & SEQUENCE_MASK));
    }

    /**
     * The 12-bit code of a lag: below 128 µs the lag itself; above, 8 significant bits (an exponent of 5 bits and 7
     * mantissa bits under an implicit leading one), rounded to the nearest, so the error is at most 1/256 of the lag.
     */
    public static int lagCode(long lagMicros) {
        if (lagMicros < 0) {
            return NO_INTENDED_TIME;
        }
        long v = Math.min(lagMicros, MAX_LAG_MICROS);
        if (v < (1 << MANTISSA_BITS)) {
            return (int) v;
        }
        int shift = 63 - Long.numberOfLeadingZeros(v) - MANTISSA_BITS;
        long mantissa = shift == 0 ? v : (v + (1L << (shift - 1))) >> shift;
        if (mantissa == 1L << (MANTISSA_BITS + 1)) {
            mantissa >>= 1;
            shift++;
        }
        int code = ((shift + 1) << MANTISSA_BITS) | (int) (mantissa - (1 << MANTISSA_BITS));
        return Math.min(code, NO_INTENDED_TIME - 1);
    }

    /** The lag a code stands for, in µs; -1 for {@link #NO_INTENDED_TIME}. */
    public static long lag(int code) {
        if (code == NO_INTENDED_TIME) {
            return -1;
        }
        int exponent = code >>> MANTISSA_BITS;
        int mantissa = code & ((1 << MANTISSA_BITS) - 1);
        return exponent == 0 ? mantissa : (long) ((1 << MANTISSA_BITS) | mantissa) << (exponent - 1);
    }

    public static long sendMicros(byte[] payload) {
        return getLong(payload, 0) >>> LAG_BITS;
    }

    /** The schedule lag the publisher wrote (µs, within 1/256), or -1 when the message had no intended send time. */
    public static long lagMicros(byte[] payload) {
        return lag((int) getLong(payload, 0) & LAG_MASK);
    }

    /** The publisher's broker node, or -1 when the header does not say. */
    public static int node(byte[] payload) {
        return (getInt(payload, 12) >>> NODE_SHIFT) - 1;
    }

    public static int streamId(byte[] payload) {
        return getInt(payload, 8);
    }

    public static int sequence(byte[] payload) {
        return getInt(payload, 12) & SEQUENCE_MASK;
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
        return payload.getLong(payload.position()) >>> LAG_BITS;
    }

    public static long lagMicros(ByteBuffer payload) {
        return lag((int) payload.getLong(payload.position()) & LAG_MASK);
    }

    public static int node(ByteBuffer payload) {
        return (payload.getInt(payload.position() + 12) >>> NODE_SHIFT) - 1;
    }

    public static int streamId(ByteBuffer payload) {
        return payload.getInt(payload.position() + 8);
    }

    /** The number of the engine that published a stream: the stream id's top {@link #ENGINE_BITS} bits. */
    public static int publishingEngine(int streamId) {
        return streamId >>> (Integer.SIZE - ENGINE_BITS);
    }

    public static int sequence(ByteBuffer payload) {
        return payload.getInt(payload.position() + 12) & SEQUENCE_MASK;
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
