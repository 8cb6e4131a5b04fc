package io.mqttload.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.common.WholeFiles;
import io.mqttload.summary.RunSummary;

/** The engine's summary on the console, in the log and in {@code summary-<run>-<engine>.json} and {@code .txt}. */
final class SummaryFiles {
    private static final Logger log = LoggerFactory.getLogger(SummaryFiles.class);

    private SummaryFiles() {
    }

    static void write(RunSummary summary, Path dir, PrintStream console) {
        String table = summary.toTable();
        console.print(table);
        log.info("MQTT run summary\n{}", table);
        try {
            Files.createDirectories(dir);
            String base = "summary-" + safe(summary.runId) + "-" + safe(summary.engineId);
            Path json = dir.resolve(base + ".json");
            Path text = dir.resolve(base + ".txt");
            WholeFiles.write(json, summary.toJson());
            WholeFiles.write(text, table);
            console.println("MQTT summary written to " + json.toAbsolutePath() + " and " + text.getFileName());
        } catch (IOException e) {
            log.error("MQTT summary could not be written to {}: {}", dir, e.toString());
            console.println("MQTT summary could not be written to " + dir + ": " + e);
        }
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9_.-]", "_");
    }
}
