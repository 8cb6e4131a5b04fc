package io.mqttload.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.IntervalListener;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;
import io.mqttload.measure.SamplerMetrics;

/**
 * Turns a running engine's intervals into {@link LiveFigures}, once a second on the metrics ticker; a viewer reads
 * {@link #latest()} from any thread. Attached only in the GUI (the Run Report panel) or when a controller's GUI asks
 * an engine: the delivery ledger is walked once per interval for the expected-versus-received figure, which a
 * headless run need not pay.
 */
public final class LiveFeed implements IntervalListener {
    /** The engine's ticker ends its first interval a second into the run. */
    private static final long FIRST_TICK_MILLIS = 1000;
    private final EngineRuntime runtime;
    private final ArrayDeque<LiveFigures.Point> history = new ArrayDeque<>();
    private final LiveLatency latency = new LiveLatency();
    private final Map<SamplerMetrics, long[]> samplerCountsAtLastTick = new HashMap<>();
    private long publishedAtLastTick;
    private long receivedAtLastTick;
    private long lastTickMillis = System.currentTimeMillis();
    /**
     * The first interval after attaching may have begun long before it: it gives counts, not rates or a point. Unless
     * the feed was attached before the run's first tick: that interval began with the run, so do its rates and chart.
     */
    private boolean firstInterval;
    private final boolean fromRunStart;
    private volatile LiveFigures latest;

    /**
     * Counts from the moment of attaching: a feed attached mid-run starts its rates there, not at the run's start; one
     * attached within the run's first second counts from the start (every counter was 0 then).
     */
    private LiveFeed(EngineRuntime runtime) {
        this.runtime = runtime;
        long elapsed = runtime.elapsedMillis();
        fromRunStart = elapsed < FIRST_TICK_MILLIS;
        firstInterval = !fromRunStart;
        if (fromRunStart) {
            lastTickMillis -= elapsed;
        } else {
            publishedAtLastTick = runtime.context().metrics().sum(Count.PUBLISHED);
            receivedAtLastTick = runtime.context().metrics().sum(Count.RECEIVED);
        }
    }

    /** A feed on {@code runtime}'s intervals from now on. */
    public static LiveFeed attach(EngineRuntime runtime) {
        LiveFeed feed = new LiveFeed(runtime);
        runtime.addIntervalListener(feed);
        return feed;
    }

    /** The figures of the last interval, or null before the first. */
    public LiveFigures latest() {
        return latest;
    }

    public boolean follows(EngineRuntime other) {
        return runtime == other;
    }

    @Override
    public void onInterval(Interval interval) {
        EngineMetrics m = runtime.context().metrics();
        double seconds = Math.max(0.001, (interval.endMillis - lastTickMillis) / 1000.0);
        lastTickMillis = interval.endMillis;
        LiveFigures f = new LiveFigures();
        f.engineId = runtime.config().engineId();
        f.elapsedSeconds = runtime.elapsedMillis() / 1000.0;
        f.phase = runtime.phase();
        f.activeConnections = m.sum(Count.ACTIVE_CONNECTIONS);
        f.connectsOk = m.sum(Count.CONNECTS_OK);
        f.connectsFailed = m.sum(Count.CONNECTS_FAILED);
        f.connectionsLost = m.sum(Count.CONNECTIONS_LOST);
        f.outagesDeclared = m.sum(Count.OUTAGES_DECLARED);
        if (f.outagesDeclared > 0) {
            long[] outage = m.recovery.soFar();
            f.outageClients = outage[0];
            f.outageClientsBack = outage[1];
            f.reconnectAttempts = m.sum(Count.RECONNECT_ATTEMPTS_MADE);
        }
        f.published = m.sum(Count.PUBLISHED);
        f.received = m.sum(Count.RECEIVED);
        f.publishRate = firstInterval ? 0 : (f.published - publishedAtLastTick) / seconds;
        f.receiveRate = firstInterval ? 0 : (f.received - receivedAtLastTick) / seconds;
        publishedAtLastTick = f.published;
        receivedAtLastTick = f.received;
        latency.add(interval, f);
        f.errors = m.errors();
        List<FailureTally.Row> rows = m.failures.rows();
        f.topErrors = new ArrayList<>(rows.subList(0, Math.min(LiveFigures.TOP_ERRORS, rows.size())));
        DeliveryLedger.Delivery delivery = runtime.context().ledger().delivery();
        f.expected = delivery.expected;
        f.receivedOfExpected = delivery.receivedOfExpected;
        List<Interval.OfSampler> inPlanOrder = new ArrayList<>(interval.bySampler);
        inPlanOrder.sort(Comparator.comparingInt((Interval.OfSampler s) -> s.sampler.planPosition)
                .thenComparing(s -> s.sampler.label));
        for (Interval.OfSampler s : inPlanOrder) {
            f.samplers.add(samplerRow(s, seconds));
        }
        LiveFigures.Point point = new LiveFigures.Point();
        point.elapsedSeconds = f.elapsedSeconds;
        point.publishRate = f.publishRate;
        point.receiveRate = f.receiveRate;
        point.pubToSubP99Millis = p99Millis(interval.of(Latency.PUB_TO_SUB));
        point.pubToSubIntendedP99Millis = p99Millis(interval.of(Latency.PUB_TO_SUB_INTENDED));
        if (!firstInterval) {
            history.addLast(point);
        }
        if (history.size() > LiveFigures.HISTORY_POINTS) {
            history.removeFirst();
        }
        firstInterval = false;
        f.history = new ArrayList<>(history);
        latest = f;
    }

    private LiveFigures.SamplerRow samplerRow(Interval.OfSampler s, double seconds) {
        SamplerMetrics sm = s.sampler;
        LiveFigures.SamplerRow row = new LiveFigures.SamplerRow();
        row.label = sm.label;
        row.published = sm.sum(Count.PUBLISHED);
        row.received = sm.sum(Count.RECEIVED);
        long[] before = samplerCountsAtLastTick.getOrDefault(sm, fromRunStart ? new long[2] : null);
        // A sampler first seen now has no earlier count here (unless the feed counts from the run's start): its rate
        // starts at the next tick.
        row.publishRate = before == null ? 0 : (row.published - before[0]) / seconds;
        row.receiveRate = before == null ? 0 : (row.received - before[1]) / seconds;
        samplerCountsAtLastTick.put(sm, new long[] {row.published, row.received});
        row.pubToSubP99Millis = p99Millis(s.of(Latency.PUB_TO_SUB));
        row.publishAckP99Millis = p99Millis(s.of(Latency.PUBLISH));
        row.errors = sm.errors();
        return row;
    }

    private static double p99Millis(Histogram h) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1000.0;
    }
}
