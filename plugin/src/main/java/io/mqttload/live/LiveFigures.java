package io.mqttload.live;

import java.util.ArrayList;
import java.util.List;

import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;

/**
 * What a running engine shows of itself once a second: the figures of its progress line and more, taken from the
 * same counters, histograms, failure tally and delivery ledger the end-of-run summary is made of. Public fields:
 * a value to show, not to change.
 */
public final class LiveFigures {
    /** How many points of {@link #history} are kept: the last ten minutes at one a second. */
    public static final int HISTORY_POINTS = 600;
    public static final int TOP_ERRORS = 5;

    public String engineId;
    public double elapsedSeconds;
    /** "warm-up", "steady" or "ending" (disconnecting, draining). */
    public String phase;
    public long activeConnections;
    public long connectsOk;
    public long connectsFailed;
    public long connectionsLost;
    public long published;
    public long received;
    /** Messages per second over the last interval. */
    public double publishRate;
    public double receiveRate;
    /** Pub-to-sub latency of the last interval, and of the steady phase so far (the report's figure, once it ends). */
    public LatencyStats pubToSubLastSecond;
    public LatencyStats pubToSubSteady;
    public long errors;
    public List<FailureTally.Row> topErrors = new ArrayList<>();
    /** The delivery ledger so far: messages owed to this engine's subscribers, and how many of them arrived. */
    public long expected;
    public long receivedOfExpected;
    public List<SamplerRow> samplers = new ArrayList<>();
    /** One point a second, oldest first. */
    public List<Point> history = new ArrayList<>();

    /** One sampler's share. */
    public static final class SamplerRow {
        public String label;
        public long published;
        public long received;
        public double publishRate;
        public double receiveRate;
        /** Pub-to-sub p99 of the last interval (ms); 0 when nothing arrived in it. */
        public double pubToSubP99Millis;
        public long errors;
    }

    /** One second of the run, for the chart. */
    public static final class Point {
        public double elapsedSeconds;
        public double publishRate;
        public double receiveRate;
        public double pubToSubP99Millis;
    }
}
