package io.mqttload.engine;

import org.HdrHistogram.Histogram;

import io.mqttload.broker.BrokerSample;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.TimelineFigures;

/**
 * The engine's run second by second, for the run report's charts: messages acknowledged and received,
 * open connections, connects and errors per interval, the interval's length, and its pub-to-sub and publish
 * acknowledgement histograms (encoded, so the report can merge engines second by second and chart exact
 * percentiles); and the broker samples.
 * Written by the metrics ticker and the broker monitor threads; read once, at the end.
 */
final class Timeline {
    private final EngineMetrics metrics;
    private final TimelineFigures figures = new TimelineFigures();
    private long lastAcknowledged;
    private long lastReceived;
    private long lastConnects;
    private long lastErrors;
    private long lastReconnectAttempts;
    /** The end of the last interval: the first covers the time from the runtime's start. */
    private long lastTimeMillis = System.currentTimeMillis();

    Timeline(EngineMetrics metrics) {
        this.metrics = metrics;
    }

    /** Called by the ticker after each interval, with that interval's histograms. */
    synchronized void add(long timeMillis, Histogram pubToSub, Histogram publishAck) {
        long acknowledged = metrics.sum(Count.ACKNOWLEDGED);
        long received = metrics.sum(Count.RECEIVED);
        long connects = metrics.sum(Count.CONNECTS_OK);
        long errors = metrics.errors();
        long reconnectAttempts = metrics.sum(Count.RECONNECT_ATTEMPTS_MADE);
        TimelineFigures.Point p = new TimelineFigures.Point();
        p.timeMillis = timeMillis;
        p.acknowledged = acknowledged - lastAcknowledged;
        p.received = received - lastReceived;
        p.connections = metrics.sum(Count.ACTIVE_CONNECTIONS);
        p.connects = connects - lastConnects;
        p.errors = errors - lastErrors;
        p.reconnectAttempts = reconnectAttempts - lastReconnectAttempts;
        p.pubToSubHdr = pubToSub.getTotalCount() == 0 ? "" : LatencyStats.encode(pubToSub);
        p.publishAckHdr = publishAck.getTotalCount() == 0 ? "" : LatencyStats.encode(publishAck);
        p.intervalMillis = Math.max(1, timeMillis - lastTimeMillis);
        lastTimeMillis = timeMillis;
        figures.seconds.add(p);
        lastAcknowledged = acknowledged;
        lastReceived = received;
        lastConnects = connects;
        lastErrors = errors;
        lastReconnectAttempts = reconnectAttempts;
    }

    synchronized void addBroker(String broker, BrokerSample s) {
        TimelineFigures.BrokerPoint p = new TimelineFigures.BrokerPoint();
        p.timeMillis = s.timeMillis;
        p.broker = broker;
        p.cpuPercentOfCore = Double.isNaN(s.cpuPercentOfCore) ? -1 : s.cpuPercentOfCore;
        p.rssBytes = s.rssBytes;
        figures.broker.add(p);
    }

    synchronized TimelineFigures figures() {
        return figures;
    }
}
