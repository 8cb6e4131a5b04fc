package io.mqttload.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.BrokerRow;
import io.mqttload.measure.Latency;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSecond;

/**
 * The run report as one self-contained HTML page (the template {@code run-report.ftlh}): the summary table the
 * seeds print, the loss verdict, charts over time (throughput, connections, pub-to-sub latency percentiles, broker
 * CPU and memory) as inline SVG, the plan's parameters, the engines and their machines. No script, no font, no
 * network: it opens from a mail attachment or a CI artifact as it is.
 */
public final class HtmlReport {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private HtmlReport() {
    }

    /** The page: {@code templates/run-report.ftlh} over the report and what is prepared here (charts, totals). */
    public static String render(MergedReport r) {
        Map<String, Object> model = new HashMap<>();
        model.put("r", r);
        model.put("period", r.timeline.isEmpty() ? "" : "; from "
                + TIME.format(Instant.ofEpochMilli(r.timeline.get(0).timeMillis)) + " to "
                + TIME.format(Instant.ofEpochMilli(r.timeline.get(r.timeline.size() - 1).timeMillis)));
        Verdict v = r.verdict();
        model.put("verdictClass", v.passed() ? "ok" : v.isFault() ? "bad" : "warn");
        List<String> percentileNames = new ArrayList<>();
        for (int i = 0; i < LatencyStats.PERCENTILES.size(); i++) {
            percentileNames.add(LatencyStats.percentileName(i));
        }
        model.put("percentileNames", percentileNames);
        model.put("latencyKinds", List.of(Latency.values()));
        model.put("noIntendedTime", Latency.NO_INTENDED_TIME);
        BrokerRow brokerTotal = r.brokerTotal();
        if (brokerTotal != null) {
            model.put("brokerTotals", brokerTotal);
        }
        model.put("charts", charts(r));
        model.put("Count", Templates.constants(Count.class));
        model.put("allCounts", AllCounts.rows(r));
        model.put("flooredNote", ReportText.flooredNote(r).trim());
        model.put("writtenAt", TIME.format(Instant.now()));
        return Templates.render("run-report.ftlh", model);
    }

    private static List<TimeChart> charts(MergedReport r) {
        List<TimeChart> charts = new ArrayList<>();
        if (r.timeline.isEmpty()) {
            return charts;
        }
        int n = r.timeline.size();
        // Broker samples may start before the engines' first second: the time axis starts at the earliest.
        long t0 = r.timeline.get(0).timeMillis;
        for (List<double[]> samples : r.brokerTimeline.values()) {
            t0 = samples.isEmpty() ? t0 : Math.min(t0, (long) samples.get(0)[0]);
        }
        double[] x = new double[n];
        double[] ack = new double[n];
        double[] recv = new double[n];
        double[] errors = new double[n];
        double[] conns = new double[n];
        double[] attempts = new double[n];
        Histogram[] pubToSub = new Histogram[n];
        Histogram[] publishAck = new Histogram[n];
        for (int i = 0; i < n; i++) {
            RunSecond s = r.timeline.get(i);
            x[i] = (s.timeMillis - t0) / 1000.0;
            ack[i] = s.acknowledgedPerSecond();
            recv[i] = s.receivedPerSecond();
            errors[i] = s.errorsPerSecond();
            conns[i] = s.connections;
            attempts[i] = s.reconnectAttempts;
            pubToSub[i] = s.pubToSub;
            publishAck[i] = s.publishAck;
        }
        // Published first and drawn wider: where every message arrives, received lies on it and both stay visible.
        charts.add(TimeChart.overTime("Throughput (msg/s, all engines; a second an engine covered only in part has no"
                + " rate)", "msg/s", x, List.of(new ChartSeries("published (acknowledged)", ack),
                        new ChartSeries("received", recv))));
        charts.add(TimeChart.overTime("Open connections (all engines)", "connections", x,
                List.of(new ChartSeries("connections", conns))));
        if (r.count(Count.OUTAGES_DECLARED) > 0) {
            charts.add(TimeChart.overTime("Through the declared outage: open connections and reconnect attempts per"
                    + " second (all engines)", "connections, attempts/s", x, List.of(new ChartSeries("connections",
                            conns), new ChartSeries("reconnect attempts/s", attempts))));
        }
        charts.add(TimeChart.overTime("Pub-to-sub latency per second (ms, all engines merged)", "ms", x,
                percentileSeries(pubToSub)));
        charts.add(TimeChart.overTime("Publish acknowledgement latency per second (ms, all engines merged)", "ms", x,
                percentileSeries(publishAck)));
        charts.add(TimeChart.overTime("Errors per second (all engines)", "errors/s", x,
                List.of(new ChartSeries("errors", errors))));
        LatencyStats measured = r.latency.get("pubToSub");
        // The chart's value axis starts at 0: a distribution measured partly below 0 (clocks) is in the tables only.
        if (measured != null && measured.count > 0 && measured.negativeCount() == 0) {
            charts.add(TimeChart.distribution("Pub-to-sub latency distribution (ms, measured phase, all engines"
                    + " merged)", "ms", measured.histogram()));
        }
        for (Map.Entry<String, List<double[]>> b : r.brokerTimeline.entrySet()) {
            List<double[]> samples = b.getValue();
            double[] bx = new double[samples.size()];
            double[] cpu = new double[samples.size()];
            double[] mem = new double[samples.size()];
            for (int i = 0; i < samples.size(); i++) {
                bx[i] = (samples.get(i)[0] - t0) / 1000.0;
                cpu[i] = samples.get(i)[1] < 0 ? Double.NaN : samples.get(i)[1];
                mem[i] = samples.get(i)[2] < 0 ? Double.NaN : samples.get(i)[2] / 1048576.0;
            }
            charts.add(TimeChart.overTime("Broker " + b.getKey() + ": CPU (% of one core)", "%", bx,
                    List.of(new ChartSeries("CPU", cpu))));
            charts.add(TimeChart.overTime("Broker " + b.getKey() + ": resident memory (MiB)", "MiB", bx,
                    List.of(new ChartSeries("memory", mem))));
        }
        return charts;
    }

    /** p50, p90, p99 and max of each second's histogram, in ms; NaN for a second without a value. */
    private static List<ChartSeries> percentileSeries(Histogram[] seconds) {
        int n = seconds.length;
        double[] p50 = new double[n];
        double[] p90 = new double[n];
        double[] p99 = new double[n];
        double[] max = new double[n];
        for (int i = 0; i < n; i++) {
            boolean any = seconds[i].getTotalCount() > 0;
            p50[i] = any ? seconds[i].getValueAtPercentile(50) / 1000.0 : Double.NaN;
            p90[i] = any ? seconds[i].getValueAtPercentile(90) / 1000.0 : Double.NaN;
            p99[i] = any ? seconds[i].getValueAtPercentile(99) / 1000.0 : Double.NaN;
            max[i] = any ? seconds[i].getMaxValue() / 1000.0 : Double.NaN;
        }
        return List.of(new ChartSeries("p50", p50), new ChartSeries("p90", p90), new ChartSeries("p99", p99),
                new ChartSeries("max", max));
    }

    /** The largest defined value, at least 0: NaN marks a missing point. */
    public static double max(double[] values) {
        double m = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                m = Math.max(m, v);
            }
        }
        return m;
    }

    /** A round number at or above {@code v} whose fifths are round too: axis tops for five grid intervals. */
    public static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        // Steps that divide into the five grid intervals as round numbers; 10,010 clients get a 15k axis, not 20k.
        for (double f : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (f * p >= v) {
                return f * p;
            }
        }
        return 10 * p;
    }

    /** An axis label: 12k, 1.5M, 0.25, 40. */
    public static String label(double v) {
        if (v >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fM", v / 1_000_000);
        }
        if (v >= 10_000) {
            return String.format(Locale.ROOT, "%.0fk", v / 1000);
        }
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    /** Text for SVG drawn in Java (the sweep's charts, shared with their PNG), content and attribute values. */
    public static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<':
                    b.append("&lt;");
                    break;
                case '>':
                    b.append("&gt;");
                    break;
                case '&':
                    b.append("&amp;");
                    break;
                case '"':
                    b.append("&quot;");
                    break;
                default:
                    b.append(c);
            }
        }
        return b.toString();
    }
}
