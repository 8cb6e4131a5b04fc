package io.mqttload.report;

import java.util.Locale;

import io.mqttload.clock.OffsetEstimator;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.ClockReport;
import io.mqttload.summary.LatencyPair;

/** The engines' clocks in the report's text: the console table and Markdown. */
final class ClockSection {
    private ClockSection() {
    }

    /** Offsets are engine minus reference; the header says so, since the sign decides which way latencies move. */
    static String heading(ClockReport c) {
        return "clock offsets (engine clock minus " + c.reference + "'s, through the broker; ± bound: half the smallest"
                + " round trip)";
    }

    static void appendTable(StringBuilder t, ClockReport c, String rule) {
        if (!c.shown()) {
            return;
        }
        t.append(rule);
        t.append(c.reference == null ? "clock offsets: not measured" : heading(c)).append('\n');
        t.append(String.format(Locale.ROOT, "%-14s %-26s %-26s %s%n", "engine", "before (ms)", "after (ms)", "drift (ppm)"));
        for (ClockReport.Row e : c.engines) {
            if (e.reference) {
                t.append(String.format(Locale.ROOT, "%-14s %s%n", e.engineId, "reference (0 by definition)"));
                continue;
            }
            t.append(String.format(Locale.ROOT, "%-14s %-26s %-26s %s%s%n", e.engineId, estimate(e.before),
                    estimate(e.after), drift(e), e.notMeasured == null ? "" : "  " + e.notMeasured));
        }
        for (String w : c.warnings) {
            t.append("clock warning: ").append(w).append('\n');
        }
        if (c.crossings.isEmpty() && c.engines.size() > 1) {
            t.append("no message crossed engines: every pub-to-sub latency was measured on one clock\n");
        }
        for (LatencyPair p : c.pairs) {
            t.append(pair(p)).append('\n');
        }
        if (c.measuredPubToSub != null && c.engines.size() > 1) {
            t.append("pub-to-sub over every pair of engines, as measured (never floored)");
            t.append(c.correctedPubToSub != null ? " and CORRECTED by the measured offsets (" + ClockReport.CORRECT_PROPERTY
                    + "):\n" : ":\n");
            LatencyStats.appendTextHeader(t);
            c.measuredPubToSub.appendTextRow(t, "pub-to-sub measured");
            if (c.correctedPubToSub != null) {
                c.correctedPubToSub.appendTextRow(t, "pub-to-sub corrected");
            }
        }
        if (c.correctedPubToSubMissing != null) {
            t.append("corrected pub-to-sub: ").append(c.correctedPubToSubMissing).append('\n');
        }
    }

    static void appendMarkdown(StringBuilder m, ClockReport c) {
        if (!c.shown()) {
            return;
        }
        m.append("\n").append(c.reference == null ? "Clock offsets: not measured." : heading(c) + ":").append("\n\n");
        m.append("| engine | before (ms) | after (ms) | drift (ppm) | samples before/after | not measured |\n");
        m.append("| --- | ---: | ---: | ---: | ---: | --- |\n");
        for (ClockReport.Row e : c.engines) {
            if (e.reference) {
                m.append("| ").append(e.engineId).append(" | reference | | | | |\n");
                continue;
            }
            m.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s/%s | %s |%n", e.engineId, estimate(e.before),
                    estimate(e.after), drift(e), e.before == null ? "-" : e.before.samples,
                    e.after == null ? "-" : e.after.samples, e.notMeasured == null ? "" : e.notMeasured.replace("|", "\\|")));
        }
        if (!c.warnings.isEmpty()) {
            m.append('\n');
            for (String w : c.warnings) {
                m.append("- **Clock warning:** ").append(w).append('\n');
            }
        }
        if (!c.pairs.isEmpty()) {
            m.append('\n');
            for (LatencyPair p : c.pairs) {
                m.append("- ").append(pair(p)).append('\n');
            }
        }
        if (c.measuredPubToSub != null && c.engines.size() > 1) {
            m.append("\n| latency (ms) over every pair of engines | count | avg | p50 | p75 | p90 | p95 | p99"
                    + " | p99.9 | max |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            c.measuredPubToSub.appendMarkdownRow(m, "pub-to-sub measured (never floored)");
            if (c.correctedPubToSub != null) {
                c.correctedPubToSub.appendMarkdownRow(m, "pub-to-sub CORRECTED by the measured clock offsets");
            }
        }
        if (c.correctedPubToSubMissing != null) {
            m.append("\nCorrected pub-to-sub: ").append(c.correctedPubToSubMissing.replace("|", "\\|")).append('\n');
        }
    }

    static String estimate(OffsetEstimator.Estimate e) {
        return e == null ? "-" : ClockReport.signedMs(e.offsetMicros) + " ± " + ClockReport.ms(e.boundMicros);
    }

    static String drift(ClockReport.Row e) {
        return e.driftPpm == null ? "-" : String.format(Locale.ROOT, "%+.2f ± %.2f", e.driftPpm, e.driftBoundPpm);
    }

    /**
     * One pair of engines' pub-to-sub: as measured, and, when shown, CORRECTED with the precision it has (the clock
     * difference's bound, and the recording's resolution at the corrected p50), so that nobody takes it for measured.
     */
    static String pair(LatencyPair p) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "pub-to-sub %s: %d message(s), ", p.name(),
                p.measured.count));
        if (p.oneClock()) {
            return b.append(String.format(Locale.ROOT, "one clock: p50 %s, p99 %s ms", ClockReport.ms(
                    p.measured.percentile(50.0)), ClockReport.ms(p.measured.percentile(99.0)))).toString();
        }
        b.append(String.format(Locale.ROOT, "measured p50 %s, p99 %s ms", ClockReport.signedMs(p.measured.percentile(50.0)),
                ClockReport.signedMs(p.measured.percentile(99.0))));
        if (p.clockDifferenceMicros == null) {
            return b.append("; not corrected: ").append(p.notCorrectedWhy).toString();
        }
        b.append(String.format(Locale.ROOT, "; clock difference %s ± %s ms", ClockReport.signedMs(p.clockDifferenceMicros),
                ClockReport.ms(p.boundMicros)));
        if (p.corrected != null && p.corrected.count > 0) {
            b.append(String.format(Locale.ROOT, "; CORRECTED p50 %s, p99 %s ms (± %s ms: the clock difference's bound;"
                    + " recorded to %s ms at the p50)", ClockReport.signedMs(p.corrected.percentile(50.0)),
                    ClockReport.signedMs(p.corrected.percentile(99.0)), ClockReport.ms(p.boundMicros),
                    ClockReport.ms(p.resolutionMicros)));
        }
        return b.toString();
    }
}
