package io.mqttload.jmeter.gui;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mqttload.delivery.Verdict;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.jmeter.remote.RemoteLiveFigures;
import io.mqttload.jmeter.run.EngineReports;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.RunState;
import io.mqttload.live.LiveFeed;
import io.mqttload.live.LiveFigures;
import io.mqttload.live.LiveTables;
import io.mqttload.live.LiveText;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;

/**
 * What the MQTT Run Report panel shows, worked out once a second without Swing and off Swing's thread (a remote engine
 * may take up to two seconds to answer): the running engine's live figures (a {@link LiveFeed} attached to a run in
 * this JVM), on a controller each running engine's figures over RMI, or the last merged report with its HTML file
 * once a run has ended.
 */
public final class LiveRunModel {
    /** How the verdict line reads: a fault in red, a pass in green, anything else plain. */
    public enum Tone {
        PLAIN, PASSED, FAULT
    }

    /** One refresh's content. */
    public static final class View {
        public final String status;
        /** The verdict, or while a run goes what is known of it so far; empty when there is no run. */
        public final String verdict;
        public final Tone tone;
        /** The tables, or null when there is nothing to put in them. */
        public final LiveTables.Table latency;
        public final LiveTables.Table samplers;
        /** Everything else: counts and errors while the run goes, the whole report after it. */
        public final String text;
        public final List<LiveFigures.Point> history;
        /** The HTML report to open, or null. */
        public final Path htmlReport;

        View(String status, String verdict, Tone tone, LiveTables.Table latency, LiveTables.Table samplers, String text,
                List<LiveFigures.Point> history, Path htmlReport) {
            this.status = status;
            this.verdict = verdict;
            this.tone = tone;
            this.latency = latency;
            this.samplers = samplers;
            this.text = text;
            this.history = history;
            this.htmlReport = htmlReport;
        }

        static View message(String status, String text, List<LiveFigures.Point> history) {
            return new View(status, "", Tone.PLAIN, null, null, text, history, null);
        }
    }

    public static final String IDLE = "No run yet. Start the plan (Run > Start): its figures appear here every second, and the"
            + " merged report at its end.";

    private final RemoteLiveFigures remote = new RemoteLiveFigures();
    private LiveFeed feed;
    private List<LiveFigures.Point> lastHistory = List.of();

    /**
     * Follows a run from its start (its first second's rates and chart point included), rather than from the first
     * refresh after it, up to a second later.
     */
    public synchronized void follow(EngineRuntime runtime) {
        if (feed == null || !feed.follows(runtime)) {
            feed = LiveFeed.attach(runtime);
        }
    }

    public synchronized View refresh() {
        EngineRuntime runtime = JvmRun.running().orElse(null);
        if (runtime != null) {
            follow(runtime);
            LiveFigures f = feed.latest();
            if (f == null) {
                return View.message("Run " + runtime.config().runId() + " starting", "", List.of());
            }
            lastHistory = f.history;
            return new View(String.format(Locale.ROOT, "Run %s: %s, %.0f s", runtime.config().runId(), f.phase,
                    f.elapsedSeconds), soFar(f), f.errors > 0 ? Tone.FAULT : Tone.PLAIN, LiveTables.latency(f),
                    LiveTables.samplers(f), LiveText.counts(f) + LiveText.errors(f), f.history, null);
        }
        RunState run = JvmRun.current();
        EngineReports reports = run.engineReports();
        String engines = reports == null ? null : reports.status();
        if (engines != null) {
            return distributed(engines, reports);
        }
        MergedReport last = run.report();
        if (last != null) {
            Verdict verdict = last.verdict();
            return new View("Run " + last.runId + " ended", "Verdict: " + last.verdictLine(),
                    verdict.passed() ? Tone.PASSED : verdict.isFault() ? Tone.FAULT : Tone.PLAIN, LiveTables.latency(last),
                    null, ReportText.table(last), lastHistory, run.htmlReport());
        }
        return View.message(IDLE, "", List.of());
    }

    /** What a running engine can say of its verdict: errors count now, deliveries only once the drain is over. */
    static String soFar(LiveFigures f) {
        return String.format(Locale.ROOT, "The verdict comes with the merged report at the end of the run. So far: %d"
                + " error%s, %d of %d expected messages received.", f.errors, f.errors == 1 ? "" : "s",
                f.receivedOfExpected, f.expected);
    }

    /** A controller's run: every running engine's figures, one block each, and their rates added up in the chart. */
    private View distributed(String engines, EngineReports reports) {
        Map<String, RemoteLiveFigures.Answer> answers = remote.ask(reports.running());
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, RemoteLiveFigures.Answer> e : answers.entrySet()) {
            RemoteLiveFigures.Answer a = e.getValue();
            text.append("== engine at ").append(e.getKey()).append(" ==\n")
                    .append(a.figures != null ? LiveText.render(a.figures) : "no live figures: " + a.problem + "\n")
                    .append('\n');
        }
        text.append("The merged report appears here when every engine has ended.\n");
        lastHistory = LiveFigures.combinedHistory(RemoteLiveFigures.figures(answers));
        return View.message("Distributed run: " + engines, text.toString(), lastHistory);
    }
}
