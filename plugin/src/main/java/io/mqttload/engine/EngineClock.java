package io.mqttload.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.Errors;
import io.mqttload.client.MqttConnector;
import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.ClockSync;

/**
 * The engine's clock measurement for one run ({@link ClockSync}): started with the first rendezvous client, through
 * the same broker, since that is the channel every engine of a run shares; measured around the start of production
 * and at the end of the run. It never fails or delays the run beyond its bounded waits: what it could not measure,
 * its figures say why.
 */
final class EngineClock {
    private static final Logger log = LoggerFactory.getLogger(EngineClock.class);

    private final RunConfig config;
    private final MqttConnector connector;
    private ClockSync sync;
    private String notStarted = "not measured: the plan has no MQTT Rendezvous Timer (the clock exchange runs through"
            + " the rendezvous's broker)";

    EngineClock(RunConfig config, MqttConnector connector) {
        this.config = config;
        this.connector = connector;
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
        } catch (IllegalStateException e) {
            notStarted = "not measured: " + Errors.describe(e);
            log.warn("MQTT clock offsets {}", notStarted);
        }
    }

    synchronized void productionStarted() {
        if (sync != null) {
            sync.productionStarted();
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
