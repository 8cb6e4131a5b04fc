package io.mqttload.engine;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.broker.BrokerSample;
import io.mqttload.client.MqttConnector;

/**
 * The brokers this engine monitors in a run, and the end of their measured window: the first MQTT Disconnect
 * closes it with a sample, so thousands of clients disconnecting are not read as the broker's steady load.
 */
final class BrokerWatch {
    private final List<BrokerMonitor> monitors = new CopyOnWriteArrayList<>();
    /** Wall-clock end of the broker's measured window, once the first Disconnect took its sample; -1 before. */
    private final AtomicLong windowEnd = new AtomicLong(-1);
    private final MqttConnector connector;

    BrokerWatch(MqttConnector connector) {
        this.connector = connector;
    }

    void add(BrokerMonitor.Settings settings, String clientId, Consumer<BrokerSample> samples, PrintStream console) {
        monitors.add(new BrokerMonitor(connector, settings, clientId, samples, console));
    }

    /** The first Disconnect begins: one more sample ends the window (later calls change nothing). */
    void disconnecting() {
        if (windowEnd.get() >= 0 || monitors.isEmpty()) {
            return;
        }
        windowEnd.compareAndSet(-1, sampleNow(System.currentTimeMillis()));
    }

    /** The end of the window: the first Disconnect's sample, else a sample taken now (at least {@code nowMillis}). */
    long windowEnd(long nowMillis) {
        long end = windowEnd.get();
        return end >= 0 ? end : sampleNow(nowMillis);
    }

    /** Stops every monitor and returns each one's figures between {@code fromMillis} and {@code toMillis}. */
    List<BrokerMonitor.Stats> close(long fromMillis, long toMillis) {
        List<BrokerMonitor.Stats> stats = new ArrayList<>();
        for (BrokerMonitor m : monitors) {
            m.close();
            BrokerMonitor.Stats s = m.stats(fromMillis, toMillis);
            if (s != null) {
                stats.add(s);
            }
        }
        return stats;
    }

    /** One more sample from every monitor; returns the latest sample time, at least {@code notBefore}. */
    private long sampleNow(long notBefore) {
        long end = notBefore;
        for (BrokerMonitor m : monitors) {
            end = Math.max(end, m.sampleNow(2_000));
        }
        return end;
    }
}
