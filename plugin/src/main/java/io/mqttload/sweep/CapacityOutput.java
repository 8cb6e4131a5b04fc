package io.mqttload.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mqttload.report.Templates;

/**
 * What a capacity search leaves in its directory: the verdict and every step's row as Markdown
 * ({@code capacity.md}), JSON ({@code capacity.json}) and one self-contained HTML page ({@code capacity.html}),
 * with charts of offered against delivered and of latency against the searched value (SVG and PNG), and the
 * search's exit code.
 */
final class CapacityOutput {
    private final SweepOptions options;
    private final CapacitySearch search;
    private final CapacitySearch.Result result;
    private final Instant started;
    private final Instant finished;
    private final Map<String, XyChart> charts = new LinkedHashMap<>();

    CapacityOutput(SweepOptions options, CapacitySearch search, CapacitySearch.Result result, Instant started,
            Instant finished) {
        this.options = options;
        this.search = search;
        this.result = result;
        this.started = started;
        this.finished = finished;
        buildCharts();
    }

    /** 0 a limit found and confirmed (and at least --require), 1 none or below, 3 the search could not tell. */
    int exitCode() {
        switch (result.outcome) {
            case SUSTAINS:
            case SUSTAINS_AT_LEAST:
                return options.capacity.required > 0 && result.sustained < options.capacity.required ? 1 : 0;
            case SUSTAINS_NONE:
            case NOT_CONFIRMED:
                return 1;
            default:
                return 3;
        }
    }

    private String value(double v) {
        return options.capacity.property + "=" + search.number(v);
    }

    /** The figures a verdict quotes for a step; the broker's CPU too when it is a criterion. */
    private String figures(StepResult s) {
        StepCriteria c = options.capacity.criteria;
        double cpu = c.brokerCpuPercent(s);
        return String.format(Locale.ROOT, "offered %.1f msg/s, delivered %.1f msg/s, p99 from intended %s ms%s%s",
                s.load.offeredRate, s.throughput.deliveredRate, Double.isNaN(s.latency.intendedP99Millis) ? "n/a"
                        : String.format(Locale.ROOT, "%.1f", s.latency.intendedP99Millis),
                c.brokerCpuAsked() && !Double.isNaN(cpu) ? String.format(Locale.ROOT, ", broker CPU %.1f %%", cpu) : "",
                s.throughput.clients > 0 ? ", " + s.throughput.clients + " connections" : "");
    }

    /**
     * What the answer is, when the search had the broker-CPU criterion: a reader of "SUSTAINS" must not take the
     * operating point for the highest load the broker sustains; empty otherwise.
     */
    String operatingPoint() {
        StepCriteria c = options.capacity.criteria;
        if (!c.brokerCpuAsked()) {
            return "";
        }
        return "The recommended operating point (--max-broker-cpu): the highest " + options.capacity.property
                + " at which a step passed with " + c.brokerCpuLimit() + " over its window, every other criterion"
                + " holding too. It is not the highest load the broker sustains: a search without --max-broker-cpu"
                + " finds that.";
    }

    private String engines() {
        return options.remote.size() > 1 ? " (per engine, " + options.remote.size() + " engines)" : "";
    }

    /** The answer in one sentence, with the figures beside it. */
    String verdict() {
        CapacitySearch.Step pass = result.sustainedStep;
        CapacitySearch.Step fail = result.failedStep;
        String caveat = fail == null || fail.result.judgement.saturationCaveat == null ? ""
                : ", while " + fail.result.judgement.saturationCaveat + ": that limit may be the machine's as much as"
                        + " the broker's";
        String failure = fail == null ? "" : value(fail.value) + engines() + " because " + fail.result.judgement.reason()
                + " (" + fail.title() + ", step " + fail.result.index + caveat + ")";
        String sustained = pass == null ? "" : value(pass.value) + engines() + " (" + figures(pass.result) + ")";
        String text;
        switch (result.outcome) {
            case SUSTAINS:
                text = "SUSTAINS " + sustained + ", confirmed over " + options.capacity.confirmSeconds + " s, and fails at "
                        + failure + (result.note.isEmpty() ? "" : "; " + result.note);
                break;
            case SUSTAINS_AT_LEAST:
                text = "SUSTAINS AT LEAST " + sustained + ", the search's --max, confirmed over " + options.capacity.confirmSeconds
                        + " s: the limit is higher";
                break;
            case SUSTAINS_NONE:
                text = "SUSTAINS NONE of the values tried: fails at " + failure + "; " + result.note;
                break;
            case NOT_CONFIRMED:
                text = "NOT CONFIRMED: fails the " + options.capacity.confirmSeconds + " s confirmation at " + failure + "; "
                        + result.note;
                break;
            case LIMITED_BY_GENERATOR:
                text = (fail.result.judgement.limit == StepCriteria.Limit.MACHINE ? "LIMITED BY THE ENGINE'S MACHINE at "
                        : "LIMITED BY THE LOAD GENERATOR at ") + value(fail.value) + engines() + " (" + fail.title()
                        + ", step " + fail.result.index + "): " + fail.result.judgement.reason() + (pass == null
                        ? "; nothing passed before it" : "; the broker sustained " + sustained + " (not confirmed)")
                        + ": the broker's limit is not known";
                break;
            default:
                text = "INCONCLUSIVE: " + (fail == null ? result.note : "step " + fail.result.index + " at "
                        + value(fail.value) + " could not be judged: " + fail.result.judgement.reason())
                        + (pass == null ? "" : "; passed up to " + sustained);
                break;
        }
        if (options.capacity.required > 0 && result.outcome.answered) {
            text += result.sustained >= options.capacity.required ? "; meets --require " + search.number(options.capacity.required)
                    : "; BELOW --require " + search.number(options.capacity.required);
        }
        return text;
    }

    /** Whether the search ran this step again because it was disturbed (the repeat decided instead). */
    boolean repeated(CapacitySearch.Step step) {
        return result.steps.stream().anyMatch(t -> t.repeatOf == step);
    }

    private List<CapacitySearch.Step> judgedByValue() {
        List<CapacitySearch.Step> plotted = new ArrayList<>();
        for (CapacitySearch.Step s : result.steps) {
            if (s.result.hasReport()) {
                plotted.add(s);
            }
        }
        plotted.sort(Comparator.comparingDouble((CapacitySearch.Step s) -> s.value).thenComparing(s -> s.result.index));
        return plotted;
    }

    private void buildCharts() {
        List<CapacitySearch.Step> plotted = judgedByValue();
        if (plotted.isEmpty()) {
            return;
        }
        int n = plotted.size();
        double[] x = new double[n];
        String[] labels = new String[n];
        double[] offered = new double[n];
        double[] delivered = new double[n];
        double[] p50 = new double[n];
        double[] p99 = new double[n];
        double[] p99Send = new double[n];
        for (int i = 0; i < n; i++) {
            CapacitySearch.Step s = plotted.get(i);
            x[i] = s.value;
            labels[i] = "step " + s.result.index + " (" + s.title() + ", " + (s.passed() ? "passed" : "failed") + ")";
            offered[i] = s.result.load.offeredRate;
            delivered[i] = s.result.throughput.deliveredRate;
            p50[i] = s.result.latency.intendedP50Millis;
            p99[i] = s.result.latency.intendedP99Millis;
            p99Send[i] = s.result.latency.pubToSubMillis(StepResult.P99);
        }
        charts.put("offered-delivered", new XyChart("Offered and delivered against " + options.capacity.property,
                options.capacity.property, "msg/s", x, labels).add("offered (scheduled)", offered)
                .add("delivered within the window", delivered));
        charts.put("latency-load", new XyChart("Latency against " + options.capacity.property + " (SLA "
                + StepCriteria.plain(options.capacity.criteria.p99SlaMillis) + " ms)", options.capacity.property, "ms", x, labels)
                .add("p50 from intended", p50).add("p99 from intended", p99).add("p99 from send", p99Send));
    }

    List<String> write(Path dir) throws IOException {
        List<String> files = XyChart.writeAll(charts, dir);
        Files.writeString(dir.resolve("capacity.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("capacity.json"), json(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("capacity.html"), html(), StandardCharsets.UTF_8);
        files.addAll(List.of("capacity.md", "capacity.json", "capacity.html"));
        return files;
    }

    String[] header() {
        return new String[] {"step", "phase", options.capacity.property, "offered msg/s", "delivered msg/s",
            "received msg/s", "p50 / p99 from intended ms", "p99 from send ms", "lag p99 ms", "backlog growth",
            "lost / expected", "broker CPU avg %", "saturated s (generator / machine)", "after production (drain)",
            "result"};
    }

    String[] row(CapacitySearch.Step step) {
        StepResult s = step.result;
        String[] r = new String[header().length];
        r[0] = Integer.toString(s.index);
        r[1] = step.title();
        r[2] = search.number(step.value);
        r[r.length - 1] = step.passed() ? "passed" : s.judgement == null ? s.status() : s.judgement.reasons();
        if (repeated(step)) {
            r[r.length - 1] += String.format(Locale.ROOT, "; run again: the generator or machine was saturated for %d / %d s",
                    s.load.generatorSaturatedSeconds, s.load.machineSaturatedSeconds);
        }
        if (!s.hasReport()) {
            for (int i = 3; i < r.length - 1; i++) {
                r[i] = "";
            }
            return r;
        }
        r[3] = String.format(Locale.ROOT, "%.1f", s.load.offeredRate);
        r[4] = String.format(Locale.ROOT, "%.1f", s.throughput.deliveredRate);
        r[5] = String.format(Locale.ROOT, "%.1f", s.throughput.windowReceiveRate);
        r[6] = Double.isNaN(s.latency.intendedP99Millis) ? "n/a" : String.format(Locale.ROOT, "%.1f / %.1f", s.latency.intendedP50Millis,
                s.latency.intendedP99Millis);
        r[7] = String.format(Locale.ROOT, "%.1f", s.latency.pubToSubMillis(StepResult.P99));
        r[8] = String.format(Locale.ROOT, "%.1f", s.latency.lagP99Millis);
        r[9] = Long.toString(Math.round(s.throughput.backlogGrowth));
        r[10] = s.delivery.lost + " / " + s.delivery.expected;
        r[11] = s.broker != null ? String.format(Locale.ROOT, "%.1f", s.broker.cpuAvg) : "";
        // The counts run to the disconnects, a little past the window: shown within it, as the criteria read them.
        long window = Math.round(s.throughput.measuredSeconds);
        r[12] = Math.min(s.load.generatorSaturatedSeconds, window) + " / " + Math.min(s.load.machineSaturatedSeconds, window);
        r[13] = s.throughput.rates.drainCell();
        return r;
    }

    private String settingsLine() {
        CapacitySearch.Settings t = options.capacity.settings;
        return String.format(Locale.ROOT, "from %s, x%s up%s, bisecting to %s %% (resolution %s); steps of %d s, the"
                + " answer confirmed over %d s, each after a %d s warm-up", search.number(t.start),
                StepCriteria.plain(t.factor), t.max > 0 ? " to at most " + search.number(t.max) : "",
                StepCriteria.plain(t.tolerancePercent), search.number(t.resolution), options.capacity.stepSeconds,
                options.capacity.confirmSeconds, options.capacity.warmupSeconds);
    }

    String markdown() {
        StringBuilder m = new StringBuilder();
        m.append("# MQTT capacity search ").append(options.sweepId).append("\n\n");
        m.append("Plan `").append(options.plan).append("`, searching `").append(options.capacity.property).append("` ")
                .append(settingsLine()).append(options.remote.isEmpty() ? "; one local engine"
                        : "; remote engines " + String.join(",", options.remote))
                .append(String.format(Locale.ROOT, "; from %s to %s.%n%n", started, finished));
        m.append("**Verdict:** ").append(verdict()).append("\n\n");
        if (!operatingPoint().isEmpty()) {
            m.append(operatingPoint()).append("\n\n");
        }
        m.append("A step passes when ").append(options.capacity.criteria.describe()).append(".\n\n");
        String[] h = header();
        m.append("| ").append(String.join(" | ", h)).append(" |\n|");
        for (int i = 0; i < h.length; i++) {
            m.append(i == 1 || i == h.length - 1 ? " --- |" : " ---: |");
        }
        m.append('\n');
        for (CapacitySearch.Step s : result.steps) {
            String[] cells = row(s);
            for (int i = 0; i < cells.length; i++) {
                cells[i] = cells[i].replace("|", "\\|");
            }
            m.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        m.append("\nOffered = what the throughput timers scheduled over each step's measured window; delivered = the"
                + " publishes that reached their subscribers within the window (deliveries received there ÷ deliveries"
                + " owed per publish), the drain after production excluded; backlog growth = how much the deliveries owed"
                + " but not made, and the publishes not acknowledged, rose over the window.\n\n");
        for (Map.Entry<String, XyChart> c : charts.entrySet()) {
            m.append("![").append(c.getValue().title).append("](").append(c.getKey()).append(".svg)\n\n");
        }
        m.append("| step | properties | run | report |\n| --- | --- | --- | --- |\n");
        for (CapacitySearch.Step s : result.steps) {
            StepResult r = s.result;
            m.append(String.format(Locale.ROOT, "| %d | `%s` | %s | %s |%n", r.index, r.step.describe(), r.runId,
                    r.run.reportHtml == null ? r.runStatus() : "[" + r.run.reportHtml + "](" + r.run.reportHtml + ")"));
        }
        return m.toString();
    }

    String json() {
        return ResultJson.write(CapacityFile.of(options, this, result, started, finished, charts.keySet()));
    }

    String html() {
        Map<String, Object> model = new HashMap<>();
        model.put("searchId", options.sweepId);
        model.put("plan", options.plan.toString());
        model.put("property", options.capacity.property);
        model.put("remote", options.remote);
        model.put("started", started.toString());
        model.put("finished", finished.toString());
        model.put("answered", result.outcome.answered && exitCode() == 0);
        model.put("verdict", verdict());
        model.put("settings", settingsLine());
        model.put("criteria", options.capacity.criteria.describe());
        model.put("operatingPoint", operatingPoint());
        model.put("header", header());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (CapacitySearch.Step s : result.steps) {
            Map<String, Object> row = new HashMap<>();
            row.put("ok", s.passed());
            row.put("cells", List.of(row(s)));
            row.put("reportHtml", s.result.run.reportHtml == null ? "" : s.result.run.reportHtml);
            rows.add(row);
        }
        model.put("rows", rows);
        List<String> svg = new ArrayList<>();
        charts.values().forEach(c -> svg.add(c.toSvg()));
        model.put("charts", svg);
        model.put("arguments", options.arguments);
        return Templates.render("capacity.ftlh", model);
    }
}
