package io.mqttload.measure;

import org.HdrHistogram.Histogram;

/**
 * A connect's latency by phase: TCP (from the connect call to the TCP connection established), TLS (to the handshake
 * done, only over TLS) and CONNACK (from the transport ready, when the client writes its CONNECT, to the CONNACK). The
 * phases of one connect are differences of the same microsecond instants as its whole connect latency, so they add up
 * to it exactly (docs/measurement.md).
 */
public final class ConnectPhaseRecorders {
    public final LatencyRecorder tcp = new LatencyRecorder();
    public final LatencyRecorder tls = new LatencyRecorder();
    public final LatencyRecorder connack = new LatencyRecorder();

    /**
     * Records one connect's phases from its instants in {@link MicroClock} microseconds.
     *
     * @param tlsDone the handshake's end, or a negative value without TLS
     */
    void record(long start, long tcpConnected, long tlsDone, long connack) {
        tcp.record(tcpConnected - start);
        long ready = tcpConnected;
        if (tlsDone >= 0) {
            tls.record(tlsDone - tcpConnected);
            ready = tlsDone;
        }
        this.connack.record(connack - ready);
    }

    /** One interval of each phase; connects always count in the run's totals (they come before any warm-up ends). */
    public Histogram[] takeInterval(boolean countInTotal) {
        return new Histogram[] {tcp.takeInterval(countInTotal), tls.takeInterval(countInTotal),
            connack.takeInterval(countInTotal)};
    }
}
