package io.mqttload.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.sweep.SweepResults;

/**
 * Reads the runs of a side from results on disk: an earlier comparison ({@code compare.json}: the runs of the side of
 * that name, else its last side), capacity searches ({@code capacity.json}: one run each, its capacity), sweeps
 * ({@code sweep.json}: each step with a report), and run reports ({@code report-<run>.json}) not inside either; in the
 * order of their paths, which is the order a comparison's, a sweep's or a CI job's directories are named in.
 */
final class RunReader {
    /** How deep results are looked for below the directory given: a comparison's runs lie three levels down. */
    private static final int DEPTH = 4;
    /** A second of saturation is forgiven however short the window, as the sweep's criteria forgive it. */
    private static final double SATURATED_SHARE = 0.10;

    private RunReader() {
    }

    static List<Run> read(String side, Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("--results " + side + ":" + dir + ": no such directory");
        }
        List<Run> runs = find(side, dir);
        if (runs.isEmpty()) {
            throw new IOException("--results " + side + ":" + dir + ": no compare.json, capacity.json, sweep.json or"
                    + " report-*.json there (looked " + DEPTH + " levels down)");
        }
        return runs;
    }

    /** The runs of the results below {@code dir}; none when there are none. */
    static List<Run> find(String side, Path dir) throws IOException {
        return find(side, dir, dir);
    }

    /** As {@link #find(String, Path)}, sources named relative to {@code base}. */
    static List<Run> find(String side, Path dir, Path base) throws IOException {
        Path earlier = dir.resolve(CompareFile.NAME);
        if (Files.isRegularFile(earlier)) {
            return CompareFile.read(earlier).runsOf(side);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir, DEPTH)) {
            files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        Set<Path> covered = new LinkedHashSet<>();
        List<Run> runs = new ArrayList<>();
        for (Path f : files) {
            String name = String.valueOf(f.getFileName());
            if ("capacity.json".equals(name)) {
                covered.add(f.getParent());
                runs.add(capacityRun(side, runs.size() + 1, base, f));
            } else if ("sweep.json".equals(name)) {
                covered.add(f.getParent());
                for (Path report : SweepResults.sweepReports(f)) {
                    runs.add(reportRun(side, runs.size() + 1, base, report));
                }
            }
        }
        for (Path f : files) {
            if (String.valueOf(f.getFileName()).matches("report-.*\\.json") && !inside(f, covered)) {
                runs.add(reportRun(side, runs.size() + 1, base, f));
            }
        }
        return runs;
    }

    private static boolean inside(Path f, Set<Path> dirs) {
        for (Path d : dirs) {
            if (f.startsWith(d)) {
                return true;
            }
        }
        return false;
    }

    static Run capacityRun(String side, int round, Path base, Path json) throws IOException {
        SweepResults.Capacity c = SweepResults.capacity(json);
        Map<Figure, Double> values = new EnumMap<>(Figure.class);
        if (!Double.isNaN(c.sustained)) {
            values.put(Figure.CAPACITY, c.sustained);
        }
        List<String> marks = new ArrayList<>();
        if (c.generatorLimited) {
            marks.add("limited by the load generator: " + c.verdict);
        } else if (!c.answered) {
            marks.add("no capacity found (" + c.outcome + "): " + c.verdict);
        }
        Run run = new Run(side, round, relative(base, json), values, "capacity search of " + c.property, marks);
        run.searched = c.property;
        return run;
    }

    static Run reportRun(String side, int round, Path base, Path json) throws IOException {
        ReportFigures r;
        try {
            r = SummaryJson.readReport(Files.readString(json, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IOException(json + ": " + e.getMessage(), e);
        }
        double delivered = SweepResults.deliveredRate(r);
        Map<Figure, Double> values = new EnumMap<>(Figure.class);
        for (Figure f : Figure.values()) {
            double v = f.of(r, delivered);
            if (!Double.isNaN(v)) {
                values.put(f, v);
            }
        }
        List<String> marks = marks(r);
        if (UNMEASURED.contains(r.verdict)) {
            // A run that failed, stopped or lost an engine did not run the plan: its rates are of what little ran (0 for
            // a run that never produced), which would put a broker's breakdown into the intervals as noise.
            values.clear();
            marks.add("its figures left out of the comparison");
        }
        Run run = new Run(side, round, relative(base, json), values, setup(r), marks);
        run.disturbedOnly = marks.size() == 1 && saturatedSeconds(r) > saturatedAllowance(r);
        return run;
    }

    /** Verdicts of runs that did not run the plan through: none of their figures is compared. */
    private static final Set<Verdict> UNMEASURED = Set.of(Verdict.FAILED, Verdict.INCOMPLETE, Verdict.STOPPED);

    /** What is not clean about a run: loss, a verdict other than NO_LOSS, failures, a saturated generator. */
    static List<String> marks(ReportFigures r) {
        List<String> marks = new ArrayList<>();
        long lost = r.count(Count.LOST);
        if (lost > 0) {
            marks.add("lost " + lost + " of " + r.count(Count.EXPECTED) + " deliveries");
        }
        if (r.verdict == null || !r.verdict.passed()) {
            marks.add("verdict " + r.verdict + (r.verdictText == null ? "" : ": " + r.verdictText));
        }
        long errors = Count.errors(r::count);
        if (errors > 0) {
            marks.add(errors + " failures");
        }
        long saturated = saturatedSeconds(r);
        if (saturated > saturatedAllowance(r)) {
            marks.add(String.format(Locale.ROOT, "generator or its machine saturated for %d of %.0f s", saturated,
                    r.measuredSeconds));
        }
        return marks;
    }

    private static long saturatedSeconds(ReportFigures r) {
        return Math.max(r.count(Count.GENERATOR_SATURATED_SECONDS), r.count(Count.MACHINE_SATURATED_SECONDS));
    }

    /** Saturated seconds a run may have and still be clean. */
    private static double saturatedAllowance(ReportFigures r) {
        return Math.max(1, SATURATED_SHARE * r.measuredSeconds);
    }

    /** The plan, broker versions and engines the report recorded. */
    static String setup(ReportFigures r) {
        StringBuilder s = new StringBuilder();
        s.append("plan ").append(r.setup != null && r.setup.getTestPlan() != null ? r.setup.getTestPlan() : r.scenario);
        s.append(", ").append(r.engines).append(r.engines == 1 ? " engine" : " engines");
        if (r.setup != null && !r.setup.brokers.isEmpty()) {
            List<String> brokers = new ArrayList<>();
            r.setup.brokers.forEach((endpoint, version) -> brokers.add(endpoint + " "
                    + (version == null || version.isEmpty() ? "(version not announced)" : version)));
            s.append(", brokers ").append(String.join(", ", brokers));
        }
        return s.toString();
    }

    private static String relative(Path base, Path file) {
        Path b = base.toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return (f.startsWith(b) ? b.relativize(f) : f).toString().replace('\\', '/');
    }
}
