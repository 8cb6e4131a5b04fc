package io.mqttload.clock;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The offsets before production of every engine of a run, as the engines publish them to each other through the clock
 * exchange's broker (retained, one topic per engine), by engine number: {offset, bound} in µs against the reference.
 * A receiving engine needs the publishing engine's offset as well as its own to correct a message's latency as it
 * arrives; the first offset of an engine is the one that holds.
 */
final class SharedOffsets {
    static final int BYTES = 16;

    private final Map<Integer, long[]> offsets = new TreeMap<>();
    private BiConsumer<Integer, long[]> listener;

    static byte[] encode(long offsetMicros, long boundMicros) {
        return ByteBuffer.allocate(BYTES).putLong(offsetMicros).putLong(boundMicros).array();
    }

    /** An engine's offset from its message; a payload of another size (an engine clearing its topic) is ignored. */
    void received(int engineNumber, byte[] payload) {
        if (payload.length == BYTES) {
            ByteBuffer b = ByteBuffer.wrap(payload);
            known(engineNumber, b.getLong(), b.getLong());
        }
    }

    synchronized void known(int engineNumber, long offsetMicros, long boundMicros) {
        long[] value = {offsetMicros, boundMicros};
        if (offsets.putIfAbsent(engineNumber, value) == null && listener != null) {
            listener.accept(engineNumber, value);
        }
    }

    /** Tells {@code to} every offset as it becomes known, those known already at once; one listener. */
    synchronized void listen(BiConsumer<Integer, long[]> to) {
        listener = to;
        offsets.forEach(to);
    }
}
