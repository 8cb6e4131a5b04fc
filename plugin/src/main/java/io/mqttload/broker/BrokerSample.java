package io.mqttload.broker;

import java.util.Map;

/**
 * What the broker cost during one interval: from /proc when the process is local (NaN / -1 otherwise),
 * and the broker's own $SYS figures when it publishes them (absent otherwise).
 */
public final class BrokerSample {
    public final long timeMillis;
    /** CPU (user + system) over the interval, in % of one core: 250 means two and a half cores busy. */
    public final double cpuPercentOfCore;
    /** The same in % of the whole machine (all its cores). */
    public final double cpuPercentOfMachine;
    public final long rssBytes;
    public final int openFds;
    public final int sockets;
    public final int threads;
    /** Numeric $SYS values by field name (clientsConnected, messagesReceived, messagesSent, ...). */
    public final Map<String, Double> sys;

    BrokerSample(long timeMillis, double cpuPercentOfCore, double cpuPercentOfMachine, long rssBytes, int openFds,
            int sockets, int threads, Map<String, Double> sys) {
        this.timeMillis = timeMillis;
        this.cpuPercentOfCore = cpuPercentOfCore;
        this.cpuPercentOfMachine = cpuPercentOfMachine;
        this.rssBytes = rssBytes;
        this.openFds = openFds;
        this.sockets = sockets;
        this.threads = threads;
        this.sys = sys;
    }

    public boolean hasProcess() {
        return rssBytes >= 0;
    }
}
