package io.mqttload.measure;

/**
 * The pub-to-sub latencies of the messages one scope received (a Subscribe sampler's clients on one broker node, from
 * publishers on one node): from the actual send, and, for messages that had one, from the intended send time. One
 * object per scope, so that a receiving client looks it up once for both.
 */
public final class PubToSubRecorder {
    final LatencyRecorder fromSend = LatencyRecorder.intervalsOnly();
    final LatencyRecorder fromIntended = LatencyRecorder.intervalsOnly();

    /**
     * One message: {@code micros} from its send to its receipt, and {@code lagMicros} from its intended send time to
     * its send (negative: it had no intended time, and counts in the first figure only).
     */
    public void record(long micros, long lagMicros) {
        fromSend.record(micros);
        if (lagMicros >= 0) {
            fromIntended.record(micros + lagMicros);
        }
    }
}
