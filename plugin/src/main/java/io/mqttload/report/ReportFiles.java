package io.mqttload.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.mqttload.common.WholeFiles;
import io.mqttload.summary.MergedReport;

/** The merged report's files: {@code report-<run>.json}, {@code .md}, {@code .txt} and {@code .html}. */
public final class ReportFiles {
    private ReportFiles() {
    }

    /** Writes every format into {@code dir} (made if missing) and returns the HTML page's path. */
    public static Path write(MergedReport report, Path dir) throws IOException {
        String base = "report-" + report.runId.replaceAll("[^A-Za-z0-9_.-]", "_");
        Files.createDirectories(dir);
        WholeFiles.write(dir.resolve(base + ".json"), report.toJson());
        WholeFiles.write(dir.resolve(base + ".md"), ReportText.markdown(report));
        WholeFiles.write(dir.resolve(base + ".txt"), ReportText.table(report));
        Path html = dir.resolve(base + ".html");
        WholeFiles.write(html, HtmlReport.render(report));
        return html;
    }
}
