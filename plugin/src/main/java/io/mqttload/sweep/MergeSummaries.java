package io.mqttload.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.mqttload.common.PluginVersion;
import io.mqttload.engine.RunConfig;
import io.mqttload.report.ReportFiles;
import io.mqttload.report.ReportText;
import io.mqttload.report.influx.InfluxWriter;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.SummaryJson;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The merged report of a run from its engines' summary files, for engines that ran without a controller (a fleet,
 * docs/distributed.md): the same report the MQTT Run Report writes on a controller, in every format, and its InfluxDB
 * points if asked. Files of several runs, or two files of one engine, are refused naming them; engines the run counted
 * ({@code mqttload.engines}) whose summary is not among the files make the report INCOMPLETE, as on a controller.
 */
@Command(name = "merge.sh", mixinStandardHelpOptions = true, versionProvider = PluginVersion.class, sortOptions = false,
        usageHelpAutoWidth = true, description = "Merges the engine summaries (summary-<run>-<engine>.json) of one run into"
        + " its run report: report-<run>.json, .md, .txt and .html.",
        footer = {"", "Exit code: 0 written, 1 a file could not be read or written, 2 bad arguments or files of other runs"
            + " or of one engine twice."})
public final class MergeSummaries {
    @Parameters(paramLabel = "FILE|DIR", arity = "1..*",
            description = "summary files, or directories whose summary-*.json files are taken")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "where the report goes (default: the current directory)")
    Path out = Path.of(".");

    @Option(names = "--influx-url", paramLabel = "URL", description = "also write the report's points to this InfluxDB")
    String influxUrl;

    @Option(names = "--influx-db", paramLabel = "NAME", description = "the InfluxDB database (default: mqttload)")
    String influxDatabase = "mqttload";

    @Option(names = "--correct-clock-offsets", description = "add pub-to-sub figures corrected by the measured clock"
            + " offsets, beside the measured ones (as mqttload.correctClockOffsets on a controller)")
    boolean correctClockOffsets;

    /** Bad files or arguments, said in one line. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream console, PrintStream errors) {
        MergeSummaries command = new MergeSummaries();
        CommandLine line = new CommandLine(command);
        try {
            line.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            errors.println("merge: " + e.getMessage());
            errors.println("merge: --help lists the options");
            return 2;
        }
        if (line.isUsageHelpRequested() || line.isVersionHelpRequested()) {
            if (line.isUsageHelpRequested()) {
                line.usage(console);
            } else {
                line.printVersionHelp(console);
            }
            return 0;
        }
        try {
            return command.merge(console);
        } catch (Refused e) {
            errors.println("merge: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            errors.println("merge: " + e);
            return 1;
        }
    }

    int merge(PrintStream console) throws Refused, IOException {
        Map<Path, EngineSummary> summaries = read(files());
        List<String> missing = check(summaries);
        MergedReport report = MergedReport.of(new ArrayList<>(summaries.values()), missing);
        report.clocks.showCorrected(correctClockOffsets);
        console.print(ReportText.table(report));
        Path html = ReportFiles.write(report, out);
        console.println("MQTT run report written to " + html.toAbsolutePath() + " (and .md, .json, .txt)");
        if (influxUrl != null && !influxUrl.isEmpty()) {
            InfluxWriter writer = new InfluxWriter(influxUrl, influxDatabase, "", InfluxWriter.Auth.NONE, "", 100);
            ReportPoints.of(report, System.currentTimeMillis()).forEach(writer::offer);
            writer.close(10_000);
            console.println("MQTT run report: " + writer.written() + " points written to InfluxDB, " + writer.dropped()
                    + " dropped" + (writer.lastError() == null ? "" : "; " + writer.lastError()));
            if (writer.dropped() > 0) {
                return 1;
            }
        }
        return 0;
    }

    private List<Path> files() throws Refused, IOException {
        List<Path> files = new ArrayList<>();
        for (Path in : inputs) {
            if (Files.isDirectory(in)) {
                try (DirectoryStream<Path> found = Files.newDirectoryStream(in, "summary-*.json")) {
                    found.forEach(files::add);
                }
            } else if (Files.isRegularFile(in)) {
                files.add(in);
            } else {
                throw new Refused("'" + in + "': no such file or directory");
            }
        }
        if (files.isEmpty()) {
            throw new Refused("no summary-*.json among " + inputs);
        }
        files.sort(null);
        return files;
    }

    private static Map<Path, EngineSummary> read(List<Path> files) throws Refused, IOException {
        Map<Path, EngineSummary> summaries = new LinkedHashMap<>();
        for (Path f : files) {
            try {
                summaries.put(f, SummaryJson.readEngineSummary(Files.readString(f, StandardCharsets.UTF_8)));
            } catch (IllegalArgumentException e) {
                throw new Refused("'" + f + "' is not an engine summary this plugin reads: " + e.getMessage());
            }
        }
        return summaries;
    }

    /**
     * Refuses files of other runs and engines given twice; returns the engines the run counted that have no file here:
     * by number when the engines were numbered 1..N (a fleet, engines.sh), else how many.
     */
    static List<String> check(Map<Path, EngineSummary> summaries) throws Refused {
        Map<String, Path> runs = new LinkedHashMap<>();
        Map<String, Path> engineIds = new LinkedHashMap<>();
        Map<Integer, Path> engineNumbers = new LinkedHashMap<>();
        int expected = 1;
        for (Map.Entry<Path, EngineSummary> e : summaries.entrySet()) {
            EngineSummary s = e.getValue();
            runs.putIfAbsent(s.runId, e.getKey());
            if (runs.size() > 1) {
                Map.Entry<String, Path> first = runs.entrySet().iterator().next();
                throw new Refused("'" + e.getKey() + "' is of run '" + s.runId + "', '" + first.getValue() + "' of run '"
                        + first.getKey() + "': give the summaries of one run");
            }
            Path twice = engineIds.putIfAbsent(s.engineId, e.getKey());
            if (twice == null) {
                twice = engineNumbers.putIfAbsent(s.engineNumber, e.getKey());
            }
            if (twice != null) {
                throw new Refused("engine " + s.engineId + " (number " + s.engineNumber + ") is in two files, '" + twice
                        + "' and '" + e.getKey() + "': a summary given twice, or two engines that were not told apart"
                        + " (give each its own mqttload.engineNumber, or mqttload.engineNumber=auto)");
            }
            String counted = s.parameters.get(RunConfig.ENGINES);
            if (counted != null && counted.trim().matches("\\d{1,6}")) {
                expected = Math.max(expected, Integer.parseInt(counted.trim()));
            }
        }
        List<String> missing = new ArrayList<>();
        TreeSet<Integer> numbers = new TreeSet<>(engineNumbers.keySet());
        if (numbers.first() >= 1 && numbers.last() <= expected) {
            for (int n = 1; n <= expected; n++) {
                if (!numbers.contains(n)) {
                    missing.add("engine number " + n);
                }
            }
        } else if (summaries.size() < expected) {
            missing.add((expected - summaries.size()) + " of " + expected + " engines");
        }
        return missing;
    }
}
