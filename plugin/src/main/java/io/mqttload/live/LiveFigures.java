package io.mqttload.live;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

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
    /** How a jmeter-server engine hands its figures to a controller: compact JSON, unknown fields skipped. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    public String engineId;
    public double elapsedSeconds;
    /** "warm-up", "steady" or "ending" (disconnecting, draining). */
    public String phase;
    public long activeConnections;
    public long connectsOk;
    public long connectsFailed;
    public long connectionsLost;
    /** Outages the plan declared so far; with them, the clients they took offline, those back, reconnect attempts. */
    public long outagesDeclared;
    public long outageClients;
    public long outageClientsBack;
    public long reconnectAttempts;
    public long published;
    public long received;
    /** Messages per second over the last interval. */
    public double publishRate;
    public double receiveRate;
    /**
     * Every latency kind the engine keeps, by {@link io.mqttload.measure.Latency#key()}: its figure of the last
     * interval, and of the intervals the report counts since the feed was attached (the report's figure when the feed
     * ran from the start of the run); empty from an engine of an earlier version ({@link LiveLatency}).
     */
    public Map<String, LatencyStats> lastSecond = new LinkedHashMap<>();
    public Map<String, LatencyStats> steady = new LinkedHashMap<>();
    public long errors;
    public List<FailureTally.Row> topErrors = new ArrayList<>();
    /** The delivery ledger so far: messages owed to this engine's subscribers, and how many of them arrived. */
    public long expected;
    public long receivedOfExpected;
    public List<SamplerRow> samplers = new ArrayList<>();
    /** One point a second, oldest first. */
    public List<Point> history = new ArrayList<>();

    public String toJson() {
        try {
            return MAPPER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("live figures could not be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads {@link #toJson()}; a text that is not such JSON raises an {@link IllegalArgumentException} saying why. */
    public static LiveFigures fromJson(String json) {
        try {
            return MAPPER.readValue(json, LiveFigures.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not live figures: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Several engines' histories as one, aligned on their last points (the engines tick each second, not in step):
     * rates add up, the p99 is the highest engine's (a bound, not the merged p99, which needs the histograms).
     */
    public static List<Point> combinedHistory(List<LiveFigures> engines) {
        int length = engines.stream().mapToInt(f -> f.history.size()).max().orElse(0);
        List<Point> combined = new ArrayList<>();
        for (int back = length; back >= 1; back--) {
            Point sum = new Point();
            for (LiveFigures f : engines) {
                int i = f.history.size() - back;
                if (i >= 0) {
                    Point p = f.history.get(i);
                    sum.elapsedSeconds = Math.max(sum.elapsedSeconds, p.elapsedSeconds);
                    sum.publishRate += p.publishRate;
                    sum.receiveRate += p.receiveRate;
                    sum.pubToSubP99Millis = Math.max(sum.pubToSubP99Millis, p.pubToSubP99Millis);
                    sum.pubToSubIntendedP99Millis = Math.max(sum.pubToSubIntendedP99Millis, p.pubToSubIntendedP99Millis);
                }
            }
            combined.add(sum);
        }
        return combined;
    }

    /** One sampler's share; {@link #samplers} lists them in plan order. */
    public static final class SamplerRow {
        public String label;
        public long published;
        public long received;
        public double publishRate;
        public double receiveRate;
        /** Pub-to-sub p99 of the last interval (ms); 0 when nothing arrived in it. */
        public double pubToSubP99Millis;
        /** Publish acknowledgement p99 of the last interval (ms); 0 when no publish was acknowledged in it. */
        public double publishAckP99Millis;
        public long errors;
    }

    /** One second of the run, for the chart. */
    public static final class Point {
        public double elapsedSeconds;
        public double publishRate;
        public double receiveRate;
        public double pubToSubP99Millis;
        /** From the intended send time; 0 when no message of the second had one. */
        public double pubToSubIntendedP99Millis;
    }
}
