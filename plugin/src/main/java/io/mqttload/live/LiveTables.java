package io.mqttload.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.MergedReport;

/**
 * {@link LiveFigures} as the Run Report panel's two tables, every cell already text: latency (one row a figure) and
 * the samplers in plan order. A cell whose figure does not apply (a subscriber's publish rate, a p99 of a second in
 * which nothing arrived) reads {@link #NONE}, never a 0 that could be taken for a measurement.
 */
public final class LiveTables {
    /** What a cell says when its figure does not apply. */
    public static final String NONE = "–";

    private LiveTables() {
    }

    /** Column names and rows of cells, as many cells a row as columns. */
    public static final class Table {
        public final List<String> columns;
        public final List<List<String>> rows = new ArrayList<>();

        public Table(List<String> columns) {
            this.columns = columns;
        }

        void add(List<String> row) {
            rows.add(row);
        }
    }

    /** One row a sampler, in plan order: what it published and how fast it was acknowledged, what it received. */
    public static Table samplers(LiveFigures f) {
        Table t = new Table(List.of("sampler", "published", "pub msg/s", "ack p99 ms", "received", "recv msg/s",
                "pub-to-sub p99 ms", "errors"));
        for (LiveFigures.SamplerRow s : f.samplers) {
            boolean publishes = s.published > 0;
            boolean receives = s.received > 0;
            t.add(List.of(s.label,
                    publishes ? Long.toString(s.published) : NONE,
                    publishes ? rate(s.publishRate) : NONE,
                    publishes ? p99(s.publishAckP99Millis) : NONE,
                    receives ? Long.toString(s.received) : NONE,
                    receives ? rate(s.receiveRate) : NONE,
                    receives ? p99(s.pubToSubP99Millis) : NONE,
                    Long.toString(s.errors)));
        }
        return t;
    }

    /**
     * Two rows a latency kind the engine keeps, in milliseconds, of the last second and of the steady phase so far, as
     * {@link Latency#row} says for the report: a figure that has no message yet has {@link #NONE} in every cell; one
     * from the intended time where no publisher was paced says so; round trips without requests and connect phases
     * without connects are left out.
     */
    public static Table latency(LiveFigures f) {
        Table t = latencyTable();
        Function<Latency, LatencyStats> seen = kind -> {
            LatencyStats steady = f.steady.get(kind.key());
            return count(steady) > 0 ? steady : f.lastSecond.get(kind.key());
        };
        for (Latency kind : Latency.keptBy(Latency.Level.ENGINE)) {
            Latency.Row row = kind.row(seen);
            if (row == Latency.Row.FIGURES) {
                latencyRow(t, kind.title() + ", last second", f.lastSecond.get(kind.key()));
                latencyRow(t, kind.title() + ", steady", f.steady.get(kind.key()));
            } else if (row == Latency.Row.NO_INTENDED_TIME) {
                noteRow(t, kind.title(), Latency.NO_INTENDED_TIME);
            }
        }
        return t;
    }

    /** The merged report's latency, as its console table has it: every figure the report shows, then each subscriber's. */
    public static Table latency(MergedReport r) {
        Table t = latencyTable();
        for (Latency kind : Latency.values()) {
            // A hidden row (round trips without requests, intended-time figures where nothing was published) is left out.
            Latency.Row row = kind.row(r::latencyOf);
            if (row == Latency.Row.FIGURES) {
                latencyRow(t, kind.title(), r.latencyOf(kind));
            } else if (row == Latency.Row.NO_INTENDED_TIME) {
                noteRow(t, kind.title(), Latency.NO_INTENDED_TIME);
            }
        }
        r.samplerLatencyRows().forEach((label, s) -> latencyRow(t, "  to " + label, s));
        return t;
    }

    private static Table latencyTable() {
        List<String> columns = new ArrayList<>(List.of("latency (ms)", "count", "avg"));
        for (int i = 0; i < LatencyStats.PERCENTILES.size(); i++) {
            columns.add(LatencyStats.percentileName(i));
        }
        columns.add("max");
        return new Table(List.copyOf(columns));
    }

    /** A row that says why there is no figure: the reason in the second cell, the others empty. */
    private static void noteRow(Table t, String name, String why) {
        List<String> note = new ArrayList<>(List.of(name, why));
        while (note.size() < t.columns.size()) {
            note.add("");
        }
        t.add(note);
    }

    private static void latencyRow(Table t, String name, LatencyStats s) {
        List<String> row = new ArrayList<>();
        row.add(name);
        if (count(s) == 0) {
            row.add("0");
            while (row.size() < t.columns.size()) {
                row.add(NONE);
            }
        } else {
            row.add(Long.toString(s.count));
            row.add(millis(s.mean / 1000.0));
            for (long p : s.percentiles) {
                row.add(millis(p / 1000.0));
            }
            row.add(millis(s.max / 1000.0));
        }
        t.add(row);
    }

    private static long count(LatencyStats s) {
        return s == null ? 0 : s.count;
    }

    private static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%.1f", perSecond);
    }

    private static String millis(double ms) {
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    /** A sampler's p99 of the last second: 0 is the wire form of "nothing in that second" (see {@link LiveFigures.SamplerRow}). */
    private static String p99(double ms) {
        return ms <= 0 ? NONE : millis(ms);
    }

    /** The table as fixed-width text, the first column left-aligned and the figures right-aligned. */
    public static String text(Table t) {
        int[] widths = new int[t.columns.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(t.columns);
        all.addAll(t.rows);
        for (List<String> row : all) {
            for (int i = 0; i < widths.length; i++) {
                // A note (one long cell, the rest empty) does not widen its column: it runs on past the others.
                boolean note = i == 1 && row.size() > 2 && row.get(2).isEmpty();
                widths[i] = Math.max(widths[i], note ? 0 : row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length; i++) {
                String cell = row.get(i);
                String pad = " ".repeat(Math.max(0, widths[i] - cell.length()));
                line.append(i == 0 ? cell + pad : "  " + pad + cell);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
