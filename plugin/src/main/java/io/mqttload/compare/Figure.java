package io.mqttload.compare;

import java.util.Locale;

import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.Rates;
import io.mqttload.summary.ReportFigures;

/**
 * Every figure that decides a comparison, declared once, as {@code measure.Count} declares counts and
 * {@code measure.Latency} latencies: its key (the comparison JSON's and the command line's), its title, its unit,
 * which direction is better, and how a run's report gives it. The comparison, its reports and the regression gate
 * iterate this list; keys stay as they are, so kept baselines keep being read.
 */
public enum Figure {
    DELIVERED_RATE("deliveredRate", "delivered rate", "msg/s", Better.HIGHER),
    PUB_TO_SUB_P50("pubToSubP50", "pub-to-sub p50", "ms", Better.LOWER),
    PUB_TO_SUB_P90("pubToSubP90", "pub-to-sub p90", "ms", Better.LOWER),
    PUB_TO_SUB_P99("pubToSubP99", "pub-to-sub p99", "ms", Better.LOWER),
    PUB_TO_SUB_P999("pubToSubP99.9", "pub-to-sub p99.9", "ms", Better.LOWER),
    PUBLISH_ACK_P99("publishAckP99", "publish ack p99", "ms", Better.LOWER),
    CONNECT_RATE("connectRate", "connect rate", "conn/s", Better.HIGHER),
    CONNECT_P99("connectP99", "connect p99", "ms", Better.LOWER),
    BROKER_CPU_PER_MESSAGE("brokerCpuPerMessage", "broker CPU per delivery", "µs", Better.LOWER),
    BROKER_PEAK_MEMORY("brokerPeakMemory", "broker peak memory", "MiB", Better.LOWER),
    /** Only where each round was a capacity search; its unit is the searched property's. */
    CAPACITY("capacity", "capacity", "", Better.HIGHER);

    /** Which way a change of the figure is an improvement. */
    public enum Better {
        HIGHER, LOWER
    }

    private final String key;
    private final String title;
    private final String unit;
    private final Better better;

    Figure(String key, String title, String unit, Better better) {
        this.key = key;
        this.title = title;
        this.unit = unit;
        this.better = better;
    }

    public String key() {
        return key;
    }

    public String title() {
        return title;
    }

    public String unit() {
        return unit;
    }

    public Better better() {
        return better;
    }

    /** The figure declared under {@code key}; an unknown key fails naming it and the keys there are. */
    public static Figure ofKey(String key) {
        for (Figure f : values()) {
            if (f.key.equals(key)) {
                return f;
            }
        }
        StringBuilder keys = new StringBuilder();
        for (Figure f : values()) {
            keys.append(keys.length() == 0 ? "" : ", ").append(f.key);
        }
        throw new IllegalArgumentException("'" + key + "' is no figure; the figures are " + keys);
    }

    /**
     * The figure of one run's report, NaN where the run did not measure it. {@code deliveredRate} is what the sweep
     * and the search judge (deliveries in the window ÷ fan-out). Pub-to-sub is taken from the intended send time
     * where publishers were paced (a queue in front of the client counts), else from the send.
     */
    public double of(ReportFigures r, double deliveredRate) {
        switch (this) {
            case DELIVERED_RATE:
                return deliveredRate;
            case PUB_TO_SUB_P50:
                return pubToSubMillis(r, 50.0);
            case PUB_TO_SUB_P90:
                return pubToSubMillis(r, 90.0);
            case PUB_TO_SUB_P99:
                return pubToSubMillis(r, 99.0);
            case PUB_TO_SUB_P999:
                return pubToSubMillis(r, 99.9);
            case PUBLISH_ACK_P99:
                return millis(r.latencyMicros.get(Latency.PUBLISH.key()), 99.0);
            case CONNECT_RATE:
                return r.connectPhase == null || r.connectPhase.rate == null ? Double.NaN : r.connectPhase.rate;
            case CONNECT_P99:
                return millis(r.latencyMicros.get(Latency.CONNECT.key()), 99.0);
            case BROKER_CPU_PER_MESSAGE:
                return brokerCpuMicrosPerDelivery(r);
            case BROKER_PEAK_MEMORY:
                return r.brokers.isEmpty() ? Double.NaN
                        : r.brokers.values().stream().mapToLong(b -> b.rssMax).sum() / 1048576.0;
            default:
                // The capacity is the search's answer, not a run report's figure.
                return Double.NaN;
        }
    }

    /** Whether pub-to-sub figures of {@code r} are from the intended send time. */
    public static boolean fromIntended(ReportFigures r) {
        LatencyStats s = r.latencyMicros.get(Latency.PUB_TO_SUB_INTENDED.key());
        return s != null && s.count > 0;
    }

    private static double pubToSubMillis(ReportFigures r, double percentile) {
        return millis(r.latencyMicros.get(fromIntended(r) ? Latency.PUB_TO_SUB_INTENDED.key() : Latency.PUB_TO_SUB.key()),
                percentile);
    }

    private static double millis(LatencyStats s, double percentile) {
        return s == null || s.count == 0 ? Double.NaN : s.percentile(percentile) / 1000.0;
    }

    /**
     * CPU time the monitored brokers (their nodes added up) spent per delivery over the window: their average share
     * of one core divided by the deliveries per second.
     */
    private static double brokerCpuMicrosPerDelivery(ReportFigures r) {
        // Through Rates, as every output reads it: a format-4 report's receiveRate field counted the drain in.
        double deliveries = Rates.of(r).receive;
        if (r.brokers.isEmpty() || !(deliveries > 0)) {
            return Double.NaN;
        }
        double percentOfCore = r.brokers.values().stream().mapToDouble(b -> b.cpuAvg).sum();
        return percentOfCore / 100.0 * 1e6 / deliveries;
    }

    /** A value in the figure's unit, as the tables give it: three significant digits, at least one decimal. */
    public String format(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        int decimals = a >= 100 ? 1 : a >= 10 ? 2 : 3;
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** The title with its unit, for table rows and chart axes. */
    public String titleWithUnit(String capacityUnit) {
        String u = this == CAPACITY ? capacityUnit : unit;
        return u == null || u.isEmpty() ? title : title + " (" + u + ")";
    }
}
