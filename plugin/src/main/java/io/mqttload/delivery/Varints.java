package io.mqttload.delivery;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Numbers as base-128 varints, signed ones zigzag-coded, so that the small differences a ledger is made of (the next
 * stream id, the same count as the last stream's) take one byte whatever their sign. Any long survives the trip.
 */
final class Varints {
    private Varints() {
    }

    /** A growing byte array written front to back. */
    static final class Out {
        private byte[] bytes = new byte[1024];
        private int length;

        void unsigned(long value) {
            long v = value;
            while ((v & ~0x7FL) != 0) {
                put((byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            put((byte) v);
        }

        void signed(long value) {
            unsigned((value << 1) ^ (value >> 63));
        }

        /** Null, or each element as its difference to the one before. */
        void longs(long[] values) {
            if (values == null) {
                unsigned(0);
                return;
            }
            unsigned(values.length + 1L);
            long previous = 0;
            for (long v : values) {
                signed(v - previous);
                previous = v;
            }
        }

        void text(String text) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            unsigned(utf8.length);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, bytes, length, utf8.length);
            length += utf8.length;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, length);
        }

        private void put(byte b) {
            ensure(1);
            bytes[length++] = b;
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }

    /** Reads what {@link Out} wrote; data that ends early or cannot be a number is refused, never guessed at. */
    static final class In {
        private final byte[] bytes;
        private int position;

        In(byte[] bytes) {
            this.bytes = bytes;
        }

        long unsigned() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (position >= bytes.length) {
                    throw new IllegalArgumentException("the ledger's data ends in the middle of a number");
                }
                byte b = bytes[position++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IllegalArgumentException("the ledger's data holds a number longer than 64 bits");
        }

        long signed() {
            long u = unsigned();
            return (u >>> 1) ^ -(u & 1);
        }

        /** A count of elements that follow, each at least one byte: more than the bytes left is corrupt data. */
        int count() {
            return checked(unsigned());
        }

        private int checked(long n) {
            if (n < 0 || n > bytes.length - position) {
                throw new IllegalArgumentException("the ledger's data announces " + n + " elements in "
                        + (bytes.length - position) + " bytes");
            }
            return (int) n;
        }

        long[] longs() {
            long lengthPlusOne = unsigned();
            if (lengthPlusOne == 0) {
                return null;
            }
            long[] values = new long[checked(lengthPlusOne - 1)];
            long previous = 0;
            for (int i = 0; i < values.length; i++) {
                previous += signed();
                values[i] = previous;
            }
            return values;
        }

        String text() {
            int n = count();
            String text = new String(bytes, position, n, StandardCharsets.UTF_8);
            position += n;
            return text;
        }

        boolean atEnd() {
            return position == bytes.length;
        }
    }
}
