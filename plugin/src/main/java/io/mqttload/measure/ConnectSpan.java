package io.mqttload.measure;

import java.util.concurrent.atomic.LongAccumulator;

/**
 * When an engine's connects ran: the first CONNECT sent and the last CONNACK read ({@link MicroClock} µs), for the
 * achieved connect rate. Only the connects of Connect samplers count, as {@link Count#CONNECTS_OK} counts them: an
 * automatic reconnect is no part of a fleet's connect phase.
 */
public final class ConnectSpan {
    private final LongAccumulator first = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator last = new LongAccumulator(Math::max, Long.MIN_VALUE);

    /** One connect the broker accepted: sent at {@code startMicros}, its CONNACK read at {@code connackMicros}. */
    public void add(long startMicros, long connackMicros) {
        first.accumulate(startMicros);
        last.accumulate(connackMicros);
    }

    /** {@code [first CONNECT sent, last CONNACK read]} µs, or null when no connect succeeded. */
    public long[] get() {
        long f = first.get();
        return f == Long.MAX_VALUE ? null : new long[] {f, last.get()};
    }
}
