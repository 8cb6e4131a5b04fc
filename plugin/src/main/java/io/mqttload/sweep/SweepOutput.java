package io.mqttload.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mqttload.report.Templates;

/**
 * What a sweep leaves in its directory: the scalability table as Markdown ({@code sweep.md}), every figure
 * as JSON ({@code sweep.json}), the charts against clients as SVG and PNG, and one self-contained HTML page
 * ({@code sweep.html}: table, inline SVG charts, each step's parameters and verdict, links to the steps' run
 * reports). Only steps with a report are plotted; the table lists every step.
 */
final class SweepOutput {
    static final String X_TITLE = "clients (connections)";

    private final SweepOptions options;
    private final List<StepResult> steps;
    private final Instant started;
    private final Instant finished;
    /** Chart file base name → chart, in page order. */
    private final Map<String, XyChart> charts = new LinkedHashMap<>();

    SweepOutput(SweepOptions options, List<StepResult> steps, Instant started, Instant finished) {
        this.options = options;
        this.steps = steps;
        this.started = started;
        this.finished = finished;
        buildCharts();
    }

    private void buildCharts() {
        List<StepResult> plotted = new ArrayList<>();
        for (StepResult s : steps) {
            if (s.hasReport()) {
                plotted.add(s);
            }
        }
        if (plotted.isEmpty()) {
            return;
        }
        int n = plotted.size();
        double[] x = new double[n];
        String[] labels = new String[n];
        double[] delivered = new double[n];
        double[] published = new double[n];
        double[][] latency = new double[StepResult.LATENCY_NAMES.length][n];
        double[] cpuAvg = new double[n];
        double[] cpuMax = new double[n];
        boolean anyBroker = false;
        for (int i = 0; i < n; i++) {
            StepResult s = plotted.get(i);
            x[i] = s.throughput.clients;
            labels[i] = "step " + s.index + " (" + s.label + ")";
            delivered[i] = s.throughput.rates.receive;
            published[i] = s.throughput.rates.publish;
            for (int k = 0; k < latency.length; k++) {
                latency[k][i] = s.latency.pubToSubMillis(k);
            }
            cpuAvg[i] = s.broker != null ? s.broker.cpuAvg : Double.NaN;
            cpuMax[i] = s.broker != null ? s.broker.cpuMax : Double.NaN;
            anyBroker |= s.broker != null;
        }
        charts.put("throughput", new XyChart("Delivered throughput against clients", X_TITLE, "msg/s", x, labels)
                .add("delivered (received)", delivered).add("published", published));
        XyChart l = new XyChart("Pub-to-sub latency against clients", X_TITLE, "ms", x, labels);
        for (int k = 0; k < latency.length; k++) {
            l.add(StepResult.LATENCY_NAMES[k], latency[k]);
        }
        charts.put("latency", l);
        if (anyBroker) {
            charts.put("broker-cpu", new XyChart("Broker CPU against clients (steady phase)", X_TITLE,
                    "% of one core", x, labels).add("CPU avg", cpuAvg).add("CPU max", cpuMax));
        }
    }

    /** Writes every file; returns their names, relative to the sweep directory. */
    List<String> write(Path dir) throws IOException {
        List<String> files = XyChart.writeAll(charts, dir);
        Files.writeString(dir.resolve("sweep.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("sweep.json"), json(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("sweep.html"), html(), StandardCharsets.UTF_8);
        files.addAll(List.of("sweep.md", "sweep.json", "sweep.html"));
        return files;
    }

    private String[] header() {
        return new String[] {"step", "label", "clients (connections)", "delivered msg/s", "published msg/s",
            "avg ms", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "broker CPU avg / max %",
            "broker memory avg / max MiB", "expected", "lost", "after production (drain)", "verdict"};
    }

    /** A table row: figures only where the step has a report. */
    private String[] row(StepResult s) {
        String[] r = new String[header().length];
        r[0] = Integer.toString(s.index);
        r[1] = s.label;
        if (!s.hasReport()) {
            for (int i = 2; i < r.length - 1; i++) {
                r[i] = "";
            }
            r[r.length - 1] = s.status();
            return r;
        }
        r[2] = Long.toString(s.throughput.clients);
        r[3] = String.format(Locale.ROOT, "%.1f", s.throughput.rates.receive);
        r[4] = String.format(Locale.ROOT, "%.1f", s.throughput.rates.publish);
        for (int k = 0; k < StepResult.LATENCY_KEYS.length; k++) {
            r[5 + k] = String.format(Locale.ROOT, "%.3f", s.latency.pubToSubMillis(k));
        }
        r[11] = s.broker != null ? String.format(Locale.ROOT, "%.1f / %.1f", s.broker.cpuAvg, s.broker.cpuMax) : "";
        r[12] = s.broker != null ? String.format(Locale.ROOT, "%.1f / %.1f", s.broker.rssAvg / 1048576.0,
                s.broker.rssMax / 1048576.0) : "";
        r[13] = Long.toString(s.delivery.expected);
        r[14] = Long.toString(s.delivery.lost);
        // A failed run can still report NO_LOSS (JMeter exited non-zero afterwards): the table says both.
        String verdict = s.verdict == null ? "none" : s.verdict.name();
        r[15] = s.throughput.rates.drainCell();
        r[16] = s.ok() ? verdict : verdict + " (" + s.status() + ")";
        return r;
    }

    String markdown() {
        StringBuilder m = new StringBuilder();
        m.append("# MQTT sweep ").append(options.sweepId).append("\n\n");
        m.append("Plan `").append(options.plan).append("`, ").append(steps.size()).append(" step(s)");
        m.append(options.remote.isEmpty() ? ", one local engine" : ", remote engines " + String.join(",", options.remote));
        m.append(String.format(Locale.ROOT, "; from %s to %s.%n%n", started, finished));
        m.append("**Result:** ").append(summaryLine()).append("\n\n");
        String[] h = header();
        m.append("| ").append(String.join(" | ", h)).append(" |\n|");
        for (int i = 0; i < h.length; i++) {
            m.append(i < 2 || i == h.length - 1 ? " --- |" : " ---: |");
        }
        m.append('\n');
        for (StepResult s : steps) {
            m.append("| ").append(String.join(" | ", escapeCells(row(s)))).append(" |\n");
        }
        m.append("\nClients are the connections each run made (`connectsOk` of its report, every engine), not what the"
                + " step's properties promised. Delivered = messages received by subscribers per second over the"
                + " measured window; latency = pub-to-sub over every engine (merged HdrHistograms).\n\n");
        if (!charts.isEmpty()) {
            for (Map.Entry<String, XyChart> c : charts.entrySet()) {
                m.append("![").append(c.getValue().title).append("](").append(c.getKey()).append(".svg)\n\n");
            }
            if (!charts.containsKey("broker-cpu")) {
                m.append("No broker CPU: no MQTT Broker Monitor ran (`--broker-pid` / `--broker-process`).\n\n");
            }
        }
        m.append("| step | properties | run | status | report |\n| --- | --- | --- | --- | --- |\n");
        for (StepResult s : steps) {
            m.append(String.format(Locale.ROOT, "| %d | `%s` | %s | %s | %s |%n", s.index, s.step.describe(), s.runId,
                    s.status() + (s.run.seconds > 0 ? String.format(Locale.ROOT, " (%.0f s)", s.run.seconds) : ""),
                    s.run.reportHtml == null ? "" : "[" + s.run.reportHtml + "](" + s.run.reportHtml + ")"));
        }
        return m.toString();
    }

    private static String[] escapeCells(String[] cells) {
        String[] out = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            out[i] = cells[i].replace("|", "\\|");
        }
        return out;
    }

    private String summaryLine() {
        long failed = steps.stream().filter(s -> !s.ok()).count();
        return failed == 0 ? "every step passed" : failed + " of " + steps.size() + " step(s) failed";
    }

    String json() {
        return ResultJson.write(SweepFile.of(options, steps, started, finished, charts.keySet()));
    }

    String html() {
        Map<String, Object> model = new HashMap<>();
        model.put("sweepId", options.sweepId);
        model.put("plan", options.plan.toString());
        model.put("remote", options.remote);
        model.put("started", started.toString());
        model.put("finished", finished.toString());
        model.put("ok", steps.stream().allMatch(StepResult::ok));
        model.put("summaryLine", summaryLine());
        model.put("header", header());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (StepResult s : steps) {
            rows.add(Map.of("ok", s.ok(), "cells", List.of(row(s))));
        }
        model.put("rows", rows);
        List<String> svg = new ArrayList<>();
        charts.values().forEach(c -> svg.add(c.toSvg()));
        model.put("charts", svg);
        model.put("brokerCharted", charts.containsKey("broker-cpu"));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (StepResult s : steps) {
            Map<String, Object> run = new HashMap<>();
            run.put("ok", s.ok());
            run.put("index", s.index);
            run.put("label", s.label);
            run.put("properties", s.step.describe());
            run.put("runId", s.runId);
            run.put("status", s.status());
            run.put("seconds", String.format(Locale.ROOT, "%.0f", s.run.seconds));
            run.put("verdictText", s.verdictText == null ? "" : s.verdictText);
            if (s.run.reportHtml != null) {
                run.put("reportHtml", s.run.reportHtml);
            }
            runs.add(run);
        }
        model.put("steps", runs);
        model.put("arguments", options.arguments);
        return Templates.render("sweep.ftlh", model);
    }
}
