package io.mqttload.report;

import java.util.List;

/** One line of a chart: its name and values at the chart's x positions; NaN leaves the point out. */
public final class ChartSeries {
    /** The charts' line colours, in series order. */
    public static final List<String> COLORS = List.of("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b");

    public final String name;
    public final double[] y;

    public ChartSeries(String name, double[] y) {
        this.name = name;
        this.y = y;
    }
}
