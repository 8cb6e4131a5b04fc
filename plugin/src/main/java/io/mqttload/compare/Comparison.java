package io.mqttload.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole comparison: each side with its setup and runs, and every later side compared with the first on every
 * figure that some run measured; the verdicts decide the exit code the regression gate reads.
 */
public final class Comparison {
    /** No figure regressed or is undecided, and no compared side lost messages or failed. */
    public static final int EXIT_OK = 0;
    public static final int EXIT_REGRESSED = 1;
    public static final int EXIT_INCONCLUSIVE = 3;

    /** One side: its name, how it was set up, its runs in round order. */
    public static final class Side {
        public final String name;
        /** The properties it ran with, or the directory its results came from. */
        public final String definition;
        public final List<Run> runs;

        public Side(String name, String definition, List<Run> runs) {
            this.name = name;
            this.definition = definition;
            this.runs = Collections.unmodifiableList(new ArrayList<>(runs));
        }

        /** Every run's marks, prefixed with its round; empty when every run was clean. */
        public List<String> marks() {
            List<String> m = new ArrayList<>();
            for (Run r : runs) {
                for (String why : r.marks) {
                    m.add("round " + r.round + ": " + why);
                }
            }
            return m;
        }

        /** Whether a run lost messages or failed: a side a gate must not pass whatever its figures. */
        public boolean lostOrFailed() {
            return runs.stream().anyMatch(r -> r.marks.stream().anyMatch(m -> !m.startsWith("generator")
                    && !m.startsWith("limited by the load generator")));
        }

        /** The distinct setups its runs' reports recorded. */
        public List<String> setups() {
            List<String> s = new ArrayList<>();
            for (Run r : runs) {
                if (r.setup != null && !s.contains(r.setup)) {
                    s.add(r.setup);
                }
            }
            return s;
        }

        double[] values(Figure f) {
            double[] v = new double[runs.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = runs.get(i).value(f);
            }
            return v;
        }
    }

    public final List<Side> sides;
    /** Per side after the first, in side order: that side against the first, per figure measured. */
    public final Map<String, List<FigureComparison>> against = new LinkedHashMap<>();

    public Comparison(List<Side> sides, Map<Figure, Double> thresholdPercent) {
        if (sides.size() < 2) {
            throw new IllegalArgumentException("a comparison needs two sides or more, got " + sides.size());
        }
        this.sides = Collections.unmodifiableList(new ArrayList<>(sides));
        Side a = sides.get(0);
        for (Side b : sides.subList(1, sides.size())) {
            List<FigureComparison> figures = new ArrayList<>();
            for (Figure f : Figure.values()) {
                double[] x = a.values(f);
                double[] y = b.values(f);
                if (FigureComparison.measured(x).length + FigureComparison.measured(y).length == 0) {
                    continue;
                }
                figures.add(new FigureComparison(f, thresholdPercent.getOrDefault(f,
                        FigureComparison.DEFAULT_THRESHOLD_PERCENT), x, y));
            }
            against.put(b.name, figures);
        }
    }

    /** Thresholds of every figure at {@link FigureComparison#DEFAULT_THRESHOLD_PERCENT}. */
    public static Map<Figure, Double> defaultThresholds() {
        Map<Figure, Double> t = new EnumMap<>(Figure.class);
        for (Figure f : Figure.values()) {
            t.put(f, FigureComparison.DEFAULT_THRESHOLD_PERCENT);
        }
        return t;
    }

    public Side side(String name) {
        return sides.stream().filter(s -> s.name.equals(name)).findFirst().orElseThrow();
    }

    /**
     * 1 when a figure of a later side REGRESSED or a later side lost messages or failed in a run, else 3 when a figure
     * is INCONCLUSIVE, else 0.
     */
    public int exitCode() {
        boolean inconclusive = false;
        for (Map.Entry<String, List<FigureComparison>> e : against.entrySet()) {
            if (side(e.getKey()).lostOrFailed()) {
                return EXIT_REGRESSED;
            }
            for (FigureComparison c : e.getValue()) {
                if (c.verdict == FigureComparison.Verdict.REGRESSED) {
                    return EXIT_REGRESSED;
                }
                inconclusive |= c.verdict == FigureComparison.Verdict.INCONCLUSIVE;
            }
        }
        return inconclusive ? EXIT_INCONCLUSIVE : EXIT_OK;
    }

    /** One line: what the gate decided and why. */
    public String verdict() {
        int code = exitCode();
        List<String> regressed = new ArrayList<>();
        List<String> open = new ArrayList<>();
        for (Map.Entry<String, List<FigureComparison>> e : against.entrySet()) {
            if (side(e.getKey()).lostOrFailed()) {
                regressed.add(e.getKey() + " lost messages or failed");
            }
            for (FigureComparison c : e.getValue()) {
                String name = e.getKey() + " " + c.figure.title();
                if (c.verdict == FigureComparison.Verdict.REGRESSED) {
                    regressed.add(name);
                } else if (c.verdict == FigureComparison.Verdict.INCONCLUSIVE) {
                    open.add(name + (c.roundsToSettle > 0 ? " (about " + c.roundsToSettle + " rounds would settle it)"
                            : c.note != null ? " (" + c.note + ")" : " (too close to the threshold to settle)"));
                }
            }
        }
        if (code == EXIT_REGRESSED) {
            return "REGRESSED: " + String.join("; ", regressed);
        }
        if (code == EXIT_INCONCLUSIVE) {
            return "INCONCLUSIVE: " + String.join("; ", open);
        }
        return "no regression: every figure SAME or IMPROVED";
    }
}
