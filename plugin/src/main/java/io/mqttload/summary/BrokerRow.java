package io.mqttload.summary;

import java.util.List;

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
        this(b.broker, engineId, b.cpuAvg, b.cpuMax, b.rssAvg, b.rssMax);
    }

    private BrokerRow(String broker, String engineId, double cpuAvg, double cpuMax, long rssAvg, long rssMax) {
        this.broker = broker;
        this.engineId = engineId;
        this.cpuAvg = cpuAvg;
        this.cpuMax = cpuMax;
        this.rssAvg = rssAvg;
        this.rssMax = rssMax;
    }

    /**
     * Several monitored brokers are the nodes of one cluster: averages add up, and the sum of the maxima bounds the
     * cluster's peak. Null when no broker was monitored.
     */
    static BrokerRow total(List<BrokerRow> rows) {
        if (rows.isEmpty()) {
            return null;
        }
        return new BrokerRow("all", "", rows.stream().mapToDouble(b -> b.cpuAvg).sum(),
                rows.stream().mapToDouble(b -> b.cpuMax).sum(), rows.stream().mapToLong(b -> b.rssAvg).sum(),
                rows.stream().mapToLong(b -> b.rssMax).sum());
    }
}
