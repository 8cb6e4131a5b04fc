package io.mqttload.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.MergedReport;

/**
 * The run report as one self-contained HTML page: the summary table the seeds print, the loss verdict,
 * charts over time (throughput, connections, pub-to-sub latency percentiles, broker CPU and memory) as
 * inline SVG, the plan's parameters, the engines and their machines. No script, no font, no network:
 * it opens from a mail attachment or a CI artifact as it is.
 */
public final class HtmlReport {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** The pages' look, shared with the sweep page: body, headings, tables, verdict boxes. */
    public static final String STYLE = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
            + "h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}"
            + "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;"
            + "font-size:13px}th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums}"
            + ".verdict{padding:10px 14px;font-weight:bold;border-radius:4px}"
            + ".ok{background:#e3f5e1;border:1px solid #4caf50}.bad{background:#fde2e1;border:1px solid #e53935}"
            + ".warn{background:#fff4d6;border:1px solid #f0b400}";

    private final MergedReport r;
    private final StringBuilder h = new StringBuilder(64 * 1024);

    private HtmlReport(MergedReport report) {
        this.r = report;
    }

    public static String render(MergedReport report) {
        return new HtmlReport(report).page();
    }

    /** A line of a chart: values at the same x positions as the chart's. */
    private static final class Series {
        final String name;
        final double[] y;

        Series(String name, double[] y) {
            this.name = name;
            this.y = y;
        }
    }

    private String page() {
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>MQTT run ")
                .append(esc(r.runId)).append("</title>\n<style>\n").append(STYLE)
                .append("svg.chart{display:block;margin:10px 0}svg text{font-size:11px;font-family:sans-serif}")
                .append("\n</style></head><body>\n");
        h.append("<h1>MQTT run ").append(esc(r.runId)).append(" — scenario ").append(esc(r.scenario)).append("</h1>\n");
        h.append(String.format(Locale.ROOT, "<p>%d engine(s); measured %.1f s (warm-up %.1f s excluded from rates and"
                + " latency)%s</p>%n", r.engines.size() + r.missingEngines.size(), r.measuredSeconds,
                r.warmupMillis / 1000.0, r.timeline.isEmpty() ? "" : "; from "
                        + TIME.format(Instant.ofEpochMilli(r.timeline.get(0).timeMillis)) + " to "
                        + TIME.format(Instant.ofEpochMilli(r.timeline.get(r.timeline.size() - 1).timeMillis))));
        Verdict v = r.verdict();
        String css = v.passed() ? "ok" : v.isFault() ? "bad" : "warn";
        h.append("<p class=\"verdict ").append(css).append("\">").append(esc(r.verdictLine())).append("</p>\n");
        summaryTable();
        failures();
        lossBySampler();
        latencyTable();
        enginesTable();
        charts();
        rendezvousAndBrokers();
        parameters();
        h.append("<p style=\"color:#777;font-size:12px\">Written by the MQTT Run Report at ")
                .append(TIME.format(Instant.now())).append(". Latency percentiles come from the engines' HdrHistograms"
                        + " merged, never from averaged percentiles.</p>\n</body></html>\n");
        return h.toString();
    }

    private void summaryTable() {
        h.append("<h2>Summary</h2>\n<table><tr><th>actual rate pub:sub (msg/s)</th><th>avg latency (ms)</th>");
        for (int i = 0; i < LatencyStats.PERCENTILES.size(); i++) {
            h.append("<th>").append(LatencyStats.percentileName(i)).append("</th>");
        }
        h.append("<th>max</th>");
        if (!r.brokers.isEmpty()) {
            h.append("<th>broker CPU avg / max (% of one core)</th><th>broker memory avg / max (MiB)</th>");
        }
        h.append("</tr>\n<tr>");
        LatencyStats p = r.latency.get("pubToSub");
        h.append(String.format(Locale.ROOT, "<td class=\"n\">%.1f : %.1f</td><td class=\"n\">%.3f</td>", r.publishRate,
                r.receiveRate, p.mean / 1000.0));
        for (long value : p.percentiles) {
            h.append(String.format(Locale.ROOT, "<td class=\"n\">%.3f</td>", value / 1000.0));
        }
        h.append(String.format(Locale.ROOT, "<td class=\"n\">%.3f</td>", p.max / 1000.0));
        if (!r.brokers.isEmpty()) {
            double cpuAvg = r.brokers.stream().mapToDouble(b -> b.cpuAvg).sum();
            double cpuMax = r.brokers.stream().mapToDouble(b -> b.cpuMax).sum();
            double memAvg = r.brokers.stream().mapToLong(b -> b.rssAvg).sum() / 1048576.0;
            double memMax = r.brokers.stream().mapToLong(b -> b.rssMax).sum() / 1048576.0;
            h.append(String.format(Locale.ROOT, "<td class=\"n\">%.1f / %.1f</td><td class=\"n\">%.1f / %.1f</td>", cpuAvg,
                    cpuMax, memAvg, memMax));
        }
        h.append("</tr></table>\n");
        h.append(String.format(Locale.ROOT, "<table><tr><th>connects ok / failed</th><th>published</th><th>acknowledged</th>"
                + "<th>publish errors</th><th>expected</th><th>received</th><th>lost</th><th>delivered, never acked</th>"
                + "<th>duplicates</th><th>reordered</th></tr><tr><td class=\"n\">%d / %d</td><td class=\"n\">%d</td>"
                + "<td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
                + "<td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td></tr>"
                + "</table>%n", r.count("connectsOk"), r.count("connectsFailed"), r.count("published"),
                r.count("acknowledged"), r.count("publishFailed"), r.expected, r.receivedOfExpected, r.lost(),
                r.count("deliveredUnacknowledged"), r.count("duplicates"), r.count("reordered")));
    }

    /** The reasons of every failure, per sampler: what a failed run needs first. */
    private void failures() {
        if (r.failures.isEmpty()) {
            return;
        }
        h.append("<h2>Errors by sampler</h2>\n<table><tr><th>sampler</th><th>kind</th><th>count</th><th>reason</th></tr>\n");
        for (FailureTally.Row f : r.failures) {
            h.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%s</td><td class=\"n\">%d</td><td>%s</td></tr>%n",
                    esc(f.sampler.isEmpty() ? "(engine)" : f.sampler), esc(f.kind.text()), f.count, esc(f.reason)));
        }
        h.append("</table>\n");
    }

    private void lossBySampler() {
        if (r.lossBySampler.size() < 2 && r.lost() == 0) {
            return;
        }
        h.append("<table><tr><th>subscribers (sampler)</th><th>expected</th><th>received</th><th>lost</th></tr>\n");
        r.lossBySampler.forEach((label, v) -> h.append(String.format(Locale.ROOT, "<tr><td>%s</td><td class=\"n\">%d</td>"
                + "<td class=\"n\">%d</td><td class=\"n\">%d</td></tr>%n", esc(label.isEmpty() ? "(unnamed)" : label), v[0],
                v[1], v[0] - v[1])));
        h.append("</table>\n");
    }

    private void latencyTable() {
        h.append("<h2>Latency (ms)</h2>\n<table><tr><th></th><th>count</th><th>avg</th>");
        for (int i = 0; i < LatencyStats.PERCENTILES.size(); i++) {
            h.append("<th>").append(LatencyStats.percentileName(i)).append("</th>");
        }
        h.append("<th>max</th></tr>\n");
        String[][] kinds = {{"pubToSub", "pub-to-sub"}, {"publish", "publish (acknowledgement)"}, {"connect", "connect"}};
        for (String[] k : kinds) {
            latencyRow(k[1], r.latency.get(k[0]));
        }
        r.samplerLatencyRows().forEach((label, s) -> latencyRow("pub-to-sub, " + label, s));
        h.append("</table>\n");
    }

    private void latencyRow(String title, LatencyStats s) {
        h.append("<tr><td>").append(esc(title)).append(String.format(Locale.ROOT, "</td><td class=\"n\">%d</td>"
                + "<td class=\"n\">%.3f</td>", s.count, s.mean / 1000.0));
        for (long value : s.percentiles) {
            h.append(String.format(Locale.ROOT, "<td class=\"n\">%.3f</td>", value / 1000.0));
        }
        h.append(String.format(Locale.ROOT, "<td class=\"n\">%.3f</td></tr>%n", s.max / 1000.0));
    }

    private void enginesTable() {
        h.append("<h2>Engines</h2>\n<table><tr><th>engine</th><th>pub msg/s</th><th>sub msg/s</th><th>connects</th>"
                + "<th>expected (own publishers)</th><th>received</th><th>lost</th><th>host</th><th>cores</th>"
                + "<th>memory</th><th>java</th><th>JMeter</th></tr>\n");
        for (MergedReport.EngineRow e : r.engines) {
            Map<String, String> f = r.engineFacts.getOrDefault(e.engineId, Map.of());
            h.append(String.format(Locale.ROOT, "<tr><td>%s</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>"
                    + "<td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
                    + "<td>%s</td><td class=\"n\">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>%n", esc(e.engineId),
                    e.publishRate, e.receiveRate, e.count("connectsOk"), e.count("expected"),
                    e.count("receivedOfExpected"), e.count("lost"), esc(f.getOrDefault("host", "")),
                    esc(f.getOrDefault("cores", "")), esc(f.getOrDefault("memory", "")), esc(f.getOrDefault("java", "")),
                    esc(f.getOrDefault("jmeter", ""))));
        }
        for (String m : r.missingEngines) {
            h.append("<tr><td colspan=\"12\">").append(esc(m)).append(": no summary received</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private void charts() {
        h.append("<h2>Over time</h2>\n");
        if (r.timeline.isEmpty()) {
            h.append("<p>No per-second data.</p>\n");
            return;
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
        double[] conns = new double[n];
        double[] p50 = new double[n];
        double[] p90 = new double[n];
        double[] p99 = new double[n];
        double[] max = new double[n];
        for (int i = 0; i < n; i++) {
            MergedReport.Second s = r.timeline.get(i);
            double seconds = i == 0 ? 1 : Math.max(0.001, (s.timeMillis - r.timeline.get(i - 1).timeMillis) / 1000.0);
            x[i] = (s.timeMillis - t0) / 1000.0;
            ack[i] = s.acknowledged / seconds;
            recv[i] = s.received / seconds;
            conns[i] = s.connections;
            boolean any = s.pubToSub.getTotalCount() > 0;
            p50[i] = any ? s.pubToSub.getValueAtPercentile(50) / 1000.0 : Double.NaN;
            p90[i] = any ? s.pubToSub.getValueAtPercentile(90) / 1000.0 : Double.NaN;
            p99[i] = any ? s.pubToSub.getValueAtPercentile(99) / 1000.0 : Double.NaN;
            max[i] = any ? s.pubToSub.getMaxValue() / 1000.0 : Double.NaN;
        }
        chart("Throughput (msg/s, all engines)", "msg/s", x, List.of(new Series("published (acknowledged)", ack),
                new Series("received", recv)));
        chart("Open connections (all engines)", "connections", x, List.of(new Series("connections", conns)));
        chart("Pub-to-sub latency per second (ms, all engines merged)", "ms", x, List.of(new Series("p50", p50),
                new Series("p90", p90), new Series("p99", p99), new Series("max", max)));
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
            chart("Broker " + b.getKey() + ": CPU (% of one core)", "%", bx, List.of(new Series("CPU", cpu)));
            chart("Broker " + b.getKey() + ": resident memory (MiB)", "MiB", bx, List.of(new Series("memory", mem)));
        }
    }

    /** A line chart as inline SVG; NaN values leave gaps. */
    private void chart(String title, String unit, double[] x, List<Series> series) {
        int width = 1100;
        int height = 260;
        int left = 70;
        int right = 20;
        int top = 30;
        int bottom = 40;
        double xMax = Math.max(1, max(x));
        double yMax = 0;
        for (Series s : series) {
            yMax = Math.max(yMax, max(s.y));
        }
        double yTop = niceCeiling(yMax);
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        h.append(String.format(Locale.ROOT, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">%n", width, height, width, height,
                esc(title)));
        h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" style=\"font-size:13px;font-weight:bold\">%s</text>%n",
                left, esc(title)));
        for (int i = 0; i <= 5; i++) {
            double value = yTop * i / 5;
            double y = top + plotH - plotH * i / 5.0;
            h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left, y, left + plotW, y, left - 6, y + 4,
                    label(value)));
        }
        for (int i = 0; i <= 5; i++) {
            double value = xMax * i / 5;
            double xPos = left + plotW * i / 5.0;
            h.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s s</text>%n", xPos,
                    top + plotH + 16, label(value)));
        }
        h.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">"
                + "%s</text>%n", top + plotH / 2, top + plotH / 2, esc(unit)));
        h.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#999\"/>%n", left, top, plotW, plotH));
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            String color = COLORS[si % COLORS.length];
            for (String points : segments(x, s.y, xMax, yTop, left, top, plotW, plotH)) {
                h.append("<polyline fill=\"none\" stroke-width=\"1.6\" stroke=\"").append(color).append("\" points=\"")
                        .append(points).append("\"/>\n");
            }
            int legendX = left + 10 + si * 190;
            h.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", legendX, height - 10, color, legendX + 16, height - 6,
                    esc(s.name)));
        }
        h.append("</svg>\n");
    }

    /** Runs of consecutive defined points, as SVG point lists; a single point becomes a tiny segment. */
    private static List<String> segments(double[] x, double[] y, double xMax, double yTop, int left, int top, int w,
            int hgt) {
        List<String> out = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        int count = 0;
        for (int i = 0; i <= x.length; i++) {
            boolean defined = i < x.length && !Double.isNaN(y[i]);
            if (defined) {
                double px = left + w * x[i] / xMax;
                double py = top + hgt - hgt * Math.min(1, y[i] / yTop);
                run.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                count++;
            } else if (count > 0) {
                if (count == 1) {
                    String only = run.toString().trim();
                    double px = Double.parseDouble(only.substring(0, only.indexOf(',')));
                    run.append(String.format(Locale.ROOT, "%.1f,%s", px + 1, only.substring(only.indexOf(',') + 1)));
                }
                out.add(run.toString().trim());
                run.setLength(0);
                count = 0;
            }
        }
        return out;
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

    private void rendezvousAndBrokers() {
        if (!r.rendezvous.isEmpty()) {
            h.append("<h2>Rendezvous</h2>\n<table><tr><th>barrier</th><th>group size</th><th>threads</th><th>engines</th>"
                    + "<th>released on</th><th>release spread (ms)</th></tr>\n");
            for (MergedReport.BarrierRow b : r.rendezvous) {
                h.append(String.format(Locale.ROOT, "<tr><td>%s #%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
                        + "<td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%s</td></tr>%n", esc(b.name),
                        b.generation, b.groupSize, b.threads, b.engines, b.enginesReleased, b.releasedEverywhere()
                                ? String.format(Locale.ROOT, "%.3f", b.spreadMillis()) : "timed out"));
            }
            h.append("</table>\n");
        }
        if (!r.brokers.isEmpty()) {
            h.append("<h2>Broker resources (steady phase)</h2>\n<table><tr><th>broker</th><th>monitored from</th>"
                    + "<th>CPU avg (% of one core)</th><th>CPU max</th><th>memory avg (MiB)</th><th>memory max (MiB)</th>"
                    + "</tr>\n");
            for (MergedReport.BrokerRow b : r.brokers) {
                h.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%s</td><td class=\"n\">%.1f</td>"
                        + "<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td></tr>%n",
                        esc(b.broker), esc(b.engineId), b.cpuAvg, b.cpuMax, b.rssAvg / 1048576.0, b.rssMax / 1048576.0));
            }
            h.append("</table>\n");
        }
    }

    private void parameters() {
        h.append("<h2>Parameters (properties the run set)</h2>\n");
        for (Map.Entry<String, Map<String, String>> e : r.engineParameters.entrySet()) {
            h.append("<p><b>").append(esc(e.getKey())).append("</b></p>\n<table><tr><th>property</th><th>value</th></tr>\n");
            for (Map.Entry<String, String> p : e.getValue().entrySet()) {
                h.append("<tr><td>").append(esc(p.getKey())).append("</td><td>").append(esc(p.getValue()))
                        .append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("<h2>Machines</h2>\n<table><tr><th>engine</th><th>fact</th><th>value</th></tr>\n");
        for (Map.Entry<String, Map<String, String>> e : r.engineFacts.entrySet()) {
            for (Map.Entry<String, String> f : e.getValue().entrySet()) {
                h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(esc(f.getKey())).append("</td><td>")
                        .append(esc(f.getValue())).append("</td></tr>\n");
            }
        }
        h.append("</table>\n");
    }

    /** Text for HTML and SVG content and attribute values. */
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
