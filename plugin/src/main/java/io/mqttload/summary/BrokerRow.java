package io.mqttload.summary;

import io.mqttload.broker.BrokerMonitor;

/** One monitored broker: the seeds' columns. */
public final class BrokerRow {
    public final String broker;
    public final String engineId;
    public final double cpuAvg;
    public final double cpuMax;
    public final long rssAvg;
    public final long rssMax;

    BrokerRow(String engineId, BrokerMonitor.Stats b) {
        this.engineId = engineId;
        this.broker = b.broker;
        this.cpuAvg = b.cpuAvg;
        this.cpuMax = b.cpuMax;
        this.rssAvg = b.rssAvg;
        this.rssMax = b.rssMax;
    }
}
