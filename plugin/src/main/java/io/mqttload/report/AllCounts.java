package io.mqttload.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mqttload.measure.Count;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.NodeFigures;

/**
 * The reports' full count table: every declared {@link Count} with its meaning and the run's value, made from the
 * declaration, so that a new count shows without touching a report. The curated tables above it stay short.
 */
public final class AllCounts {
    /** A count the report does not carry: no engine reported it (a run without InfluxDB, an older summary). */
    static final String NOT_REPORTED = "not reported";
    /** A gauge: it changes as the run goes, so only the live figures (InfluxDB, the GUI panel) show it. */
    static final String LIVE_ONLY = "live only";

    private AllCounts() {
    }

    /** One count's row. */
    public static final class Row {
        public final String key;
        public final String meaning;
        public final String value;

        Row(String key, String meaning, String value) {
            this.key = key;
            this.meaning = meaning;
            this.value = value;
        }
    }

    /** Every count, in declaration order. */
    public static List<Row> rows(MergedReport r) {
        List<Row> rows = new ArrayList<>();
        for (Count c : Count.values()) {
            rows.add(new Row(c.key(), c.meaning(), value(r, c)));
        }
        return rows;
    }

    private static String value(MergedReport r, Count c) {
        if (c.inSummary()) {
            return r.counts.containsKey(c) ? Long.toString(r.count(c)) : NOT_REPORTED;
        }
        if (NodeFigures.COUNTS.contains(c)) {
            long sum = 0;
            for (NodeFigures n : r.nodes.values()) {
                sum += n.count(c);
            }
            return sum + " (all broker nodes)";
        }
        return LIVE_ONLY;
    }

    /** The table in Markdown, under its own heading. */
    static void appendMarkdown(StringBuilder m, MergedReport r) {
        m.append("\n## All counts\n\n| count | meaning | value |\n| --- | --- | ---: |\n");
        for (Row row : rows(r)) {
            m.append(String.format(Locale.ROOT, "| `%s` | %s | %s |%n", row.key, row.meaning.replace("|", "\\|"),
                    row.value));
        }
    }
}
