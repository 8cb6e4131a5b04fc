package io.mqttload.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

import io.mqttload.broker.BrokerSample;
import io.mqttload.common.Json;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.LatencyStats;

/**
 * The engine's run second by second, for the run report's charts: messages acknowledged and received,
 * open connections, connects and errors per interval, and the interval's pub-to-sub histogram (encoded,
 * so the report can merge engines second by second and chart exact percentiles); and the broker samples.
 * Written by the metrics ticker and the broker monitor threads; read once, at the end.
 */
final class Timeline {
    private final EngineMetrics metrics;
    private final List<String> points = new ArrayList<>();
    private final List<String> brokerPoints = new ArrayList<>();
    private long lastAcknowledged;
    private long lastReceived;
    private long lastConnects;
    private long lastErrors;

    Timeline(EngineMetrics metrics) {
        this.metrics = metrics;
    }

    /** Called by the ticker after each interval; {@code pubToSub} is that interval's histogram. */
    synchronized void add(long timeMillis, Histogram pubToSub) {
        long acknowledged = metrics.acknowledged.sum();
        long received = metrics.received.sum();
        long connects = metrics.connectsOk.sum();
        long errors = metrics.errors();
        points.add(String.format(Locale.ROOT, "[%d, %d, %d, %d, %d, %d, \"%s\"]", timeMillis,
                acknowledged - lastAcknowledged, received - lastReceived, metrics.activeConnections.sum(),
                connects - lastConnects, errors - lastErrors, pubToSub.getTotalCount() == 0 ? "" : LatencyStats.encode(pubToSub)));
        lastAcknowledged = acknowledged;
        lastReceived = received;
        lastConnects = connects;
        lastErrors = errors;
    }

    synchronized void addBroker(String broker, BrokerSample s) {
        brokerPoints.add(String.format(Locale.ROOT, "[%d, %s, %s, %d]", s.timeMillis, Json.quote(broker),
                Json.number(Double.isNaN(s.cpuPercentOfCore) ? -1 : s.cpuPercentOfCore), s.rssBytes));
    }

    /**
     * {"columns": [...], "points": [[time, acknowledged, received, connections, connects, errors, hdr]...],
     * "broker": [[time, name, cpu % of one core, rss bytes]...]}.
     */
    synchronized String toJson() {
        return "{\"columns\": [\"timeMillis\", \"acknowledged\", \"received\", \"connections\", \"connects\", \"errors\","
                + " \"pubToSubHdr\"],\n    \"points\": [" + String.join(",\n      ", points) + "],\n    \"broker\": ["
                + String.join(",\n      ", brokerPoints) + "]}";
    }
}
