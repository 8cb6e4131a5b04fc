package io.mqttload.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * {@code compare.json}: the sides, every run's figures in the order they were made, and every comparison with its
 * interval and verdict; written and read by this class alone, with a format version the reader checks, as the
 * summary, sweep and capacity files are, so that a baseline kept as a CI artifact is never read with another meaning.
 * Figures are keyed by {@link Figure#key()}; a value not measured is absent (null in lists), never NaN.
 */
final class CompareFile {
    static final String NAME = "compare.json";
    /** Raised whenever a field changes meaning or goes; new fields a reader ignores need no new version. */
    static final int FORMAT_VERSION = 1;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    public int formatVersion = FORMAT_VERSION;
    public String compareId;
    public String started;
    public String finished;
    public int rounds;
    /** The machine the comparison ran on (for sides it ran). */
    public String machine;
    /** The command line, secrets masked. */
    public List<String> arguments = new ArrayList<>();
    public List<SideEntry> sides = new ArrayList<>();
    public List<Entry> comparisons = new ArrayList<>();
    public String verdict;
    public int exitCode;

    static final class SideEntry {
        public String name;
        public String definition;
        public List<String> setups = new ArrayList<>();
        public List<String> marks = new ArrayList<>();
        public List<RunEntry> runs = new ArrayList<>();
    }

    static final class RunEntry {
        public int round;
        /** 1-based place in the order runs were made; absent for results read from a directory. */
        public Integer sequence;
        public String started;
        public String source;
        public String setup;
        /** For a capacity search: the property searched. */
        public String searched;
        /** For a run made again: the disturbed run it replaces (its place in the order, why, where it lies). */
        public String repeats;
        public List<String> marks = new ArrayList<>();
        public Map<String, Double> values = new LinkedHashMap<>();
    }

    static final class Entry {
        public String a;
        public String b;
        public String figure;
        public String title;
        public String unit;
        public String better;
        public double thresholdPercent;
        public List<Double> aValues = new ArrayList<>();
        public List<Double> bValues = new ArrayList<>();
        public Double aMedian;
        public Double aMin;
        public Double aMax;
        public Double bMedian;
        public Double bMin;
        public Double bMax;
        public Double ratio;
        public Double ratioLow;
        public Double ratioHigh;
        public Double difference;
        public Double differenceLow;
        public Double differenceHigh;
        public String verdict;
        public Integer roundsToSettle;
        public String note;
        /** Either side lost messages, failed or was generator-limited in a run. */
        public boolean marked;
    }

    static CompareFile of(Comparison c, String capacityUnit) {
        CompareFile f = new CompareFile();
        for (Comparison.Side s : c.sides) {
            SideEntry e = new SideEntry();
            e.name = s.name;
            e.definition = s.definition;
            e.setups.addAll(s.setups());
            e.marks.addAll(s.marks());
            for (Run r : s.runs) {
                RunEntry n = new RunEntry();
                n.round = r.round;
                n.sequence = r.sequence > 0 ? r.sequence : null;
                n.started = r.started;
                n.source = r.source;
                n.setup = r.setup;
                n.searched = r.searched;
                n.repeats = r.repeats;
                n.marks.addAll(r.marks);
                r.values.forEach((k, v) -> n.values.put(k.key(), v));
                e.runs.add(n);
            }
            f.sides.add(e);
        }
        String a = c.sides.get(0).name;
        c.against.forEach((b, figures) -> {
            boolean marked = !c.side(a).marks().isEmpty() || !c.side(b).marks().isEmpty();
            for (FigureComparison x : figures) {
                f.comparisons.add(entry(a, b, x, marked, capacityUnit));
            }
        });
        f.verdict = c.verdict();
        f.exitCode = c.exitCode();
        return f;
    }

    private static Entry entry(String a, String b, FigureComparison x, boolean marked, String capacityUnit) {
        Entry e = new Entry();
        e.a = a;
        e.b = b;
        e.figure = x.figure.key();
        e.title = x.figure.title();
        e.unit = x.figure == Figure.CAPACITY ? capacityUnit : x.figure.unit();
        e.better = x.figure.better().name();
        e.thresholdPercent = x.thresholdPercent;
        for (double v : x.a) {
            e.aValues.add(finite(v));
        }
        for (double v : x.b) {
            e.bValues.add(finite(v));
        }
        e.aMedian = finite(x.sideA.median);
        e.aMin = finite(x.sideA.min);
        e.aMax = finite(x.sideA.max);
        e.bMedian = finite(x.sideB.median);
        e.bMin = finite(x.sideB.min);
        e.bMax = finite(x.sideB.max);
        e.ratio = finite(x.ratio);
        e.ratioLow = finite(x.ratioLow);
        e.ratioHigh = finite(x.ratioHigh);
        e.difference = finite(x.difference);
        e.differenceLow = finite(x.differenceLow);
        e.differenceHigh = finite(x.differenceHigh);
        e.verdict = x.verdict.name();
        e.roundsToSettle = x.roundsToSettle > 0 ? x.roundsToSettle : null;
        e.note = x.note;
        e.marked = marked;
        return e;
    }

    private static Double finite(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }

    String write() {
        try {
            return MAPPER.writer(new DefaultPrettyPrinter().withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER))).writeValueAsString(this) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the comparison could not be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads {@code file}; anything but a comparison in the format this plugin reads fails naming the file and why. */
    static CompareFile read(Path file) throws IOException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": not a comparison (JSON): " + e.getOriginalMessage(), e);
        }
        if (tree == null || !tree.isObject()) {
            throw new IOException(file + ": not a comparison: a JSON object was expected");
        }
        JsonNode version = tree.path("formatVersion");
        if (!version.canConvertToExactIntegral() || version.asInt() != FORMAT_VERSION) {
            throw new IOException(file + ": a comparison of formatVersion " + (version.isMissingNode() ? "(none)" : version)
                    + ", and this plugin reads formatVersion " + FORMAT_VERSION
                    + ": read it with the plugin version that wrote it");
        }
        try {
            return MAPPER.treeToValue(tree, CompareFile.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IOException(file + ": not a comparison: " + e.getMessage(), e);
        }
    }

    /** The runs of the side named {@code side}, else of the last side, under the name {@code side}. */
    List<Run> runsOf(String side) throws IOException {
        if (sides.isEmpty()) {
            throw new IOException("compare.json " + compareId + ": no sides");
        }
        SideEntry chosen = sides.get(sides.size() - 1);
        for (SideEntry s : sides) {
            if (s.name.equals(side)) {
                chosen = s;
            }
        }
        List<Run> runs = new ArrayList<>();
        for (RunEntry r : chosen.runs) {
            Map<Figure, Double> values = new EnumMap<>(Figure.class);
            for (Map.Entry<String, Double> v : r.values.entrySet()) {
                try {
                    values.put(Figure.ofKey(v.getKey()), v.getValue());
                } catch (IllegalArgumentException e) {
                    throw new IOException("compare.json " + compareId + ", side " + chosen.name + ": " + e.getMessage(),
                            e);
                }
            }
            Run run = new Run(side, r.round, r.source, values, r.setup, r.marks);
            run.sequence = r.sequence == null ? 0 : r.sequence;
            run.started = r.started;
            run.searched = r.searched;
            run.repeats = r.repeats;
            runs.add(run);
        }
        return runs;
    }
}
