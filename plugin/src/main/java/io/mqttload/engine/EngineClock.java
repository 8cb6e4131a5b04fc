package io.mqttload.engine;

import java.util.HashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.Errors;
import io.mqttload.client.MqttConnector;
import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.ClockSync;
import io.mqttload.measure.PubToSubPairs;

/**
 * The engine's clock measurement for one run ({@link ClockSync}): started with the first rendezvous client, through
 * the same broker, since that is the channel every engine of a run shares; in a run of more than one engine, started
 * with the first MQTT Connect too, through the plan's broker, so that engines that share a run without a rendezvous
 * are measured as well. Measured around the start of production and at the end of the run. It never fails or delays
 * the run beyond its bounded waits: what it could not measure, its figures say why.
 */
final class EngineClock {
    private static final Logger log = LoggerFactory.getLogger(EngineClock.class);

    private final RunConfig config;
    private final MqttConnector connector;
    /** Where the engines' clock differences to this one go, to correct each message's latency as it arrives. */
    private final PubToSubPairs pairs;
    /** The offsets before production known so far, by engine number: {offset, bound} in µs. */
    private final Map<Integer, long[]> offsets = new HashMap<>();
    private ClockSync sync;
    /** Production began (a barrier released, or the first publish) before the exchange had started. */
    private boolean productionStarted;
    /** Set once the first publish told {@link #productionStarted()}: checked on every publish without the lock. */
    private volatile boolean productionKnown;
    private String notStarted = "not measured: one engine in the run and no MQTT Rendezvous Timer in the plan";

    EngineClock(RunConfig config, MqttConnector connector, PubToSubPairs pairs) {
        this.config = config;
        this.connector = connector;
        this.pairs = pairs;
        if (config.clockSamples() == 0) {
            notStarted = "not measured: " + RunConfig.CLOCK_SAMPLES + " is 0";
        }
    }

    /** Before this engine's first rendezvous announcement: every engine of a released barrier has announced itself. */
    synchronized void start(ConnectionSettings settings) {
        if (sync != null || config.clockSamples() == 0) {
            return;
        }
        try {
            sync = ClockSync.start(connector, settings, config.runId(), config.engineId(), config.engineNumber(), config.engines(),
                    config.clockSamples(), config.clockTimeoutMillis());
            sync.onOffsets(this::offsetKnown);
            if (productionStarted) {
                sync.productionStarted();
            }
        } catch (IllegalStateException e) {
            notStarted = "not measured: " + Errors.describe(e);
            log.warn("MQTT clock offsets {}", notStarted);
        }
    }

    /**
     * The first MQTT Connect of the run, to {@code settings}: in a run of more than one engine the exchange starts here,
     * on a thread of its own so that the Connect sample does not carry the control client's connect. A rendezvous that
     * comes later finds it started, through the plan's broker, which is the rendezvous's default too.
     */
    void firstConnection(ConnectionSettings settings) {
        if (config.engines() <= 1 || config.clockSamples() == 0) {
            return;
        }
        Thread t = new Thread(() -> start(settings), "mqttload-clock-start-" + config.engineId());
        t.setDaemon(true);
        t.start();
    }

    /**
     * An engine's offset before production: once this engine's own is known too, the clock difference of every pair
     * known (this engine's offset minus the publisher's, the two bounds added) goes to the recorders.
     */
    private void offsetKnown(int engineNumber, long[] offsetAndBound) {
        synchronized (offsets) {
            offsets.put(engineNumber, offsetAndBound);
            long[] own = offsets.get(config.engineNumber());
            if (own == null) {
                return;
            }
            offsets.forEach((number, other) -> pairs.clockDifference(number, own[0] - other[0], own[1] + other[1]));
        }
    }

    /**
     * Production began: a barrier released, or, in a plan without one, the first Publish sample ended. The wait for the
     * other engines of the run is bounded from here by the clock timeout.
     */
    void productionStarted() {
        if (productionKnown) {
            return;
        }
        synchronized (this) {
            productionKnown = true;
            productionStarted = true;
            if (sync != null) {
                sync.productionStarted();
            }
        }
    }

    synchronized void endOfRun() {
        if (sync != null) {
            sync.endOfRun();
        }
    }

    /** The figures (waiting, bounded, for the end-of-run measurement), then the exchange's client is closed. */
    ClockFigures finish() {
        ClockSync s;
        synchronized (this) {
            s = sync;
            if (s == null) {
                return ClockFigures.notMeasured(notStarted);
            }
        }
        try {
            return s.finish();
        } finally {
            s.close();
        }
    }
}
