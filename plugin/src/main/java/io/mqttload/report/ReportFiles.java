package io.mqttload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.mqttload.summary.MergedReport;

/** The merged report's files: {@code report-<run>.json}, {@code .md}, {@code .txt} and {@code .html}. */
public final class ReportFiles {
    private ReportFiles() {
    }

    /** Writes every format into {@code dir} (made if missing) and returns the HTML page's path. */
    public static Path write(MergedReport report, Path dir) throws IOException {
        String base = "report-" + report.runId.replaceAll("[^A-Za-z0-9_.-]", "_");
        Files.createDirectories(dir);
        Files.write(dir.resolve(base + ".json"), report.toJson().getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve(base + ".md"), ReportText.markdown(report).getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve(base + ".txt"), ReportText.table(report).getBytes(StandardCharsets.UTF_8));
        Path html = dir.resolve(base + ".html");
        Files.write(html, HtmlReport.render(report).getBytes(StandardCharsets.UTF_8));
        return html;
    }
}
