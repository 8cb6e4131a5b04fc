package io.mqttload.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a comparison leaves: the console table, {@code compare.md}, {@code compare.json} ({@link CompareFile}),
 * {@code compare.html} (the tables and one chart per figure with every run as a point by side and round, inline SVG,
 * nothing fetched) and {@code compare-junit.xml} (a test case per side and figure, a failure per regression). Each opens
 * with the sides' setups and names a side whose runs were not clean before any figure.
 */
final class CompareOutput {
    static final String[] HEADER = {"figure", "%s median [min..max]", "%s median [min..max]", "%s/%s [95 %% interval]",
        "%s−%s [95 %% interval]", "verdict"};

    private final Comparison c;
    private final CompareFile file;
    private final String capacityUnit;

    CompareOutput(Comparison c, CompareFile file, String capacityUnit) {
        this.c = c;
        this.file = file;
        this.capacityUnit = capacityUnit;
    }

    List<String> write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(CompareFile.NAME), file.write(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("compare.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("compare.html"), CompareHtml.page(c, capacityUnit, this), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("compare-junit.xml"), junit(), StandardCharsets.UTF_8);
        return List.of(CompareFile.NAME, "compare.md", "compare.html", "compare-junit.xml");
    }

    /** The rows of one later side against the first, as text cells. */
    List<String[]> rows(String b) {
        List<String[]> rows = new ArrayList<>();
        for (FigureComparison x : c.against.get(b)) {
            Figure f = x.figure;
            rows.add(new String[] {f.titleWithUnit(capacityUnit), side(f, x.sideA), side(f, x.sideB),
                ratio(x), difference(x), verdictCell(x, b)});
        }
        return rows;
    }

    String[] header(String b) {
        String a = c.sides.get(0).name;
        return new String[] {HEADER[0], String.format(Locale.ROOT, HEADER[1], a), String.format(Locale.ROOT, HEADER[2], b),
            String.format(Locale.ROOT, HEADER[3], b, a), String.format(Locale.ROOT, HEADER[4], b, a), HEADER[5]};
    }

    private static String side(Figure f, FigureComparison.Summary s) {
        return s.runs == 0 ? "-" : f.format(s.median) + " [" + f.format(s.min) + ".." + f.format(s.max) + "]";
    }

    private static String ratio(FigureComparison x) {
        if (Double.isNaN(x.ratio)) {
            return "-";
        }
        String r = String.format(Locale.ROOT, "%.3f", x.ratio);
        return Double.isNaN(x.ratioLow) ? r
                : String.format(Locale.ROOT, "%s [%.3f..%.3f]", r, x.ratioLow, x.ratioHigh);
    }

    private static String difference(FigureComparison x) {
        if (Double.isNaN(x.difference)) {
            return "-";
        }
        String d = signed(x.figure, x.difference);
        return Double.isNaN(x.differenceLow) ? d
                : d + " [" + signed(x.figure, x.differenceLow) + ".." + signed(x.figure, x.differenceHigh) + "]";
    }

    private static String signed(Figure f, double v) {
        return (v > 0 ? "+" : "") + f.format(v);
    }

    private String verdictCell(FigureComparison x, String b) {
        String v = x.verdict.name();
        if (x.verdict == FigureComparison.Verdict.INCONCLUSIVE) {
            v += x.roundsToSettle > 0 ? " (~" + x.roundsToSettle + " rounds)" : x.note != null ? " (" + x.note + ")" : "";
        }
        boolean marked = !c.sides.get(0).marks().isEmpty() || !c.side(b).marks().isEmpty();
        return marked ? v + " *" : v;
    }

    /** The sides' setups, then the marked sides, each a line. */
    List<String> preamble() {
        List<String> lines = new ArrayList<>();
        for (Comparison.Side s : c.sides) {
            lines.add("Side " + s.name + ": " + s.definition + "; " + s.runs.size() + " runs"
                    + (s.setups().isEmpty() ? "" : "; " + String.join(" | ", s.setups())));
        }
        if (file.machine != null) {
            lines.add("Machine: " + file.machine);
        }
        for (Comparison.Side s : c.sides) {
            List<String> marks = s.marks();
            if (!marks.isEmpty()) {
                lines.add("* Side " + s.name + " was not clean, its figures are marked: " + String.join("; ", marks));
            }
        }
        for (Comparison.Side s : c.sides) {
            for (Run r : s.runs) {
                if (r.repeats != null) {
                    lines.add("Side " + s.name + ", round " + r.round + ": run " + r.sequence + " made again " + r.repeats);
                }
            }
        }
        return lines;
    }

    String console() {
        StringBuilder t = new StringBuilder();
        preamble().forEach(l -> t.append(l).append('\n'));
        for (String b : c.against.keySet()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(header(b));
            rows.addAll(rows(b));
            int[] width = new int[HEADER.length];
            for (String[] r : rows) {
                for (int i = 0; i < r.length; i++) {
                    width[i] = Math.max(width[i], r[i].length());
                }
            }
            t.append('\n');
            for (String[] r : rows) {
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < r.length; i++) {
                    line.append(i == 0 ? "" : " | ").append(String.format(Locale.ROOT, "%-" + width[i] + "s", r[i]));
                }
                t.append(line.toString().stripTrailing()).append('\n');
            }
        }
        t.append('\n').append(c.verdict()).append('\n');
        return t.toString();
    }

    String markdown() {
        StringBuilder m = new StringBuilder("# Comparison " + file.compareId + "\n\n");
        preamble().forEach(l -> m.append("- ").append(l.startsWith("* ") ? "**" + l.substring(2) + "**" : l).append('\n'));
        m.append("\nRounds: ").append(file.rounds).append(", ").append(file.started == null ? "" : file.started + " to "
                + file.finished + ", ").append("runs interleaved, in this order: ").append(order()).append("\n");
        for (String b : c.against.keySet()) {
            m.append("\n## ").append(b).append(" against ").append(c.sides.get(0).name).append("\n\n");
            m.append(mdRow(header(b)));
            m.append("|---|---|---|---|---|---|\n");
            rows(b).forEach(r -> m.append(mdRow(r)));
        }
        m.append("\n**").append(c.verdict()).append("**\n\n");
        m.append("Intervals: 95 %, Welch's t over the runs (the ratio's on the log scale); REGRESSED or IMPROVED when the"
                + " ratio's interval lies beyond the threshold, SAME when it lies within it (docs/comparing.md).\n");
        m.append("\n## Every run\n\n| side | round | order | ");
        List<Figure> shown = shownFigures();
        for (Figure f : shown) {
            m.append(f.titleWithUnit(capacityUnit)).append(" | ");
        }
        m.append("source |\n|---|---|---|").append("---|".repeat(shown.size())).append("---|\n");
        for (Comparison.Side s : c.sides) {
            for (Run r : s.runs) {
                m.append("| ").append(s.name).append(" | ").append(r.round).append(" | ")
                        .append(r.sequence > 0 ? Integer.toString(r.sequence) : "-").append(" | ");
                for (Figure f : shown) {
                    m.append(f.format(r.value(f))).append(" | ");
                }
                m.append(r.source).append(r.marks.isEmpty() ? "" : " (" + String.join("; ", r.marks) + ")")
                        .append(r.repeats == null ? "" : ", made again for " + r.repeats).append(" |\n");
            }
        }
        return m.toString();
    }

    /** Figures compared for any side, in declaration order. */
    List<Figure> shownFigures() {
        List<Figure> shown = new ArrayList<>();
        for (Figure f : Figure.values()) {
            if (c.against.values().stream().anyMatch(l -> l.stream().anyMatch(x -> x.figure == f))) {
                shown.add(f);
            }
        }
        return shown;
    }

    /** The runs this comparison made, in the order it made them. */
    String order() {
        List<Run> made = new ArrayList<>();
        c.sides.forEach(s -> s.runs.stream().filter(r -> r.sequence > 0).forEach(made::add));
        if (made.isEmpty()) {
            return "(results read from directories)";
        }
        made.sort((x, y) -> Integer.compare(x.sequence, y.sequence));
        List<String> names = new ArrayList<>();
        made.forEach(r -> names.add(r.side + r.round));
        return String.join(" ", names);
    }

    private static String mdRow(String[] cells) {
        return "| " + String.join(" | ", cells).replace("\n", " ") + " |\n";
    }

    String junit() {
        int tests = 0;
        int failures = 0;
        int skipped = 0;
        StringBuilder cases = new StringBuilder();
        for (Map.Entry<String, List<FigureComparison>> e : c.against.entrySet()) {
            String b = e.getKey();
            String a = c.sides.get(0).name;
            List<String> marks = c.side(b).marks();
            if (c.side(b).lostOrFailed()) {
                tests++;
                failures++;
                cases.append("  <testcase classname=\"compare.").append(xml(b)).append("\" name=\"clean runs\">\n")
                        .append("    <failure message=\"").append(xml(String.join("; ", marks)))
                        .append("\" type=\"LOST_OR_FAILED\"/>\n  </testcase>\n");
            }
            String[] head = header(b);
            List<String[]> rows = rows(b);
            for (int i = 0; i < rows.size(); i++) {
                FigureComparison x = e.getValue().get(i);
                String[] r = rows.get(i);
                String message = String.format(Locale.ROOT, "%s: %s %s, %s %s, %s %s, %s %s, threshold %s %%",
                        x.verdict, head[1], r[1], head[2], r[2], head[3], r[3], head[4], r[4],
                        new java.math.BigDecimal(Double.toString(x.thresholdPercent)).stripTrailingZeros().toPlainString());
                tests++;
                cases.append("  <testcase classname=\"compare.").append(xml(b)).append("\" name=\"")
                        .append(xml(x.figure.key() + " " + b + " against " + a)).append("\">\n");
                if (x.verdict == FigureComparison.Verdict.REGRESSED) {
                    failures++;
                    cases.append("    <failure message=\"").append(xml(message)).append("\" type=\"REGRESSED\"/>\n");
                } else if (x.verdict == FigureComparison.Verdict.INCONCLUSIVE) {
                    skipped++;
                    cases.append("    <skipped message=\"").append(xml(message + ", " + r[5])).append("\"/>\n");
                } else {
                    cases.append("    <system-out>").append(xml(message)).append("</system-out>\n");
                }
                cases.append("  </testcase>\n");
            }
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"compare " + xml(file.compareId)
                + "\" tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\"" + skipped + "\">\n"
                + cases + "</testsuite>\n";
    }

    static String xml(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
