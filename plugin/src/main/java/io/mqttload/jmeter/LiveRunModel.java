package io.mqttload.jmeter;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.mqttload.engine.EngineRuntime;
import io.mqttload.live.LiveFeed;
import io.mqttload.live.LiveFigures;
import io.mqttload.live.LiveText;
import io.mqttload.report.ReportText;
import io.mqttload.summary.MergedReport;

/**
 * What the MQTT Run Report panel shows, worked out once a second without Swing and off Swing's thread (a remote engine
 * may take up to two seconds to answer): the running engine's live figures (a {@link LiveFeed} attached to a run in
 * this JVM), on a controller each running engine's figures over RMI, or the last merged report with its HTML file
 * once a run has ended.
 */
final class LiveRunModel {
    /** One refresh's content. */
    static final class View {
        final String status;
        final String text;
        final List<LiveFigures.Point> history;
        /** The HTML report to open, or null. */
        final Path htmlReport;

        View(String status, String text, List<LiveFigures.Point> history, Path htmlReport) {
            this.status = status;
            this.text = text;
            this.history = history;
            this.htmlReport = htmlReport;
        }
    }

    static final String IDLE = "No run yet. Start the plan (Run > Start): its figures appear here every second, and the"
            + " merged report at its end.";

    private final RemoteLiveFigures remote = new RemoteLiveFigures();
    private LiveFeed feed;
    private List<LiveFigures.Point> lastHistory = List.of();

    View refresh() {
        EngineRuntime runtime = EngineLifecycle.running().orElse(null);
        if (runtime != null) {
            if (feed == null || !feed.follows(runtime)) {
                feed = LiveFeed.attach(runtime);
            }
            LiveFigures f = feed.latest();
            if (f == null) {
                return new View("Run " + runtime.config().runId() + " starting", "", List.of(), null);
            }
            lastHistory = f.history;
            return new View(String.format(java.util.Locale.ROOT, "Run %s: %s, %.0f s", runtime.config().runId(), f.phase,
                    f.elapsedSeconds), LiveText.render(f), f.history, null);
        }
        String engines = MqttRunReport.collectingStatus();
        if (engines != null) {
            return distributed(engines);
        }
        MergedReport last = MqttRunReport.lastReport();
        if (last != null) {
            return new View("Run " + last.runId + " ended: " + last.verdict(), ReportText.table(last), lastHistory,
                    MqttRunReport.lastHtmlReport());
        }
        return new View(IDLE, "", List.of(), null);
    }

    /** A controller's run: every running engine's figures, one block each, and their rates added up in the chart. */
    private View distributed(String engines) {
        Map<String, RemoteLiveFigures.Answer> answers = remote.ask(MqttRunReport.runningEngines());
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, RemoteLiveFigures.Answer> e : answers.entrySet()) {
            RemoteLiveFigures.Answer a = e.getValue();
            text.append("== engine at ").append(e.getKey()).append(" ==\n")
                    .append(a.figures != null ? LiveText.render(a.figures) : "no live figures: " + a.problem + "\n")
                    .append('\n');
        }
        text.append("The merged report appears here when every engine has ended.\n");
        lastHistory = LiveFigures.combinedHistory(RemoteLiveFigures.figures(answers));
        return new View("Distributed run: " + engines, text.toString(), lastHistory, null);
    }
}
