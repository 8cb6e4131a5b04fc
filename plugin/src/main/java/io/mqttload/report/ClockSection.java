package io.mqttload.report;

import java.util.Locale;

import io.mqttload.clock.OffsetEstimator;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.ClockReport;

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
        for (ClockReport.Corrected k : c.corrected) {
            t.append(corrected(k)).append('\n');
        }
        if (c.correctedPubToSub != null) {
            t.append("pub-to-sub, all engines, CORRECTED by the measured offsets (" + ClockReport.CORRECT_PROPERTY + "):\n");
            LatencyStats.appendTextHeader(t);
            c.correctedPubToSub.appendTextRow(t, "pub-to-sub corrected");
        } else if (c.correctedPubToSubMissing != null) {
            t.append("no corrected pub-to-sub for all engines: ").append(c.correctedPubToSubMissing).append('\n');
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
        if (!c.corrected.isEmpty()) {
            m.append('\n');
            for (ClockReport.Corrected k : c.corrected) {
                m.append("- ").append(corrected(k)).append('\n');
            }
        }
        if (c.correctedPubToSub != null) {
            m.append("\n| latency (ms), CORRECTED by the measured clock offsets | count | avg | p50 | p75 | p90 | p95 | p99"
                    + " | p99.9 | max |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            c.correctedPubToSub.appendMarkdownRow(m, "pub-to-sub corrected");
        }
    }

    static String estimate(OffsetEstimator.Estimate e) {
        return e == null ? "-" : ClockReport.signedMs(e.offsetMicros) + " ± " + ClockReport.ms(e.boundMicros);
    }

    static String drift(ClockReport.Row e) {
        return e.driftPpm == null ? "-" : String.format(Locale.ROOT, "%+.2f ± %.2f", e.driftPpm, e.driftBoundPpm);
    }

    /** One receiving engine's corrected figures, labelled so that nobody takes them for measured ones. */
    static String corrected(ClockReport.Corrected k) {
        if (k.corrected == null) {
            return "pub-to-sub at " + k.engineId + " not corrected: " + k.notCorrected;
        }
        return String.format(Locale.ROOT, "pub-to-sub at %s (from %s) CORRECTED by %s ms ± %s ms: p50 %s, p99 %s, max %s ms"
                + " (measured: p50 %s, p99 %s, max %s ms)%s", k.engineId, k.publisher,
                ClockReport.signedMs(-k.clockDifferenceMicros), ClockReport.ms(k.boundMicros),
                ClockReport.ms(k.corrected.percentile(50.0)), ClockReport.ms(k.corrected.percentile(99.0)),
                ClockReport.ms(k.corrected.max), ClockReport.ms(k.measured.percentile(50.0)),
                ClockReport.ms(k.measured.percentile(99.0)), ClockReport.ms(k.measured.max),
                k.negativeAfterCorrection > 0 ? "; " + k.negativeAfterCorrection + " below 0 after correction" : "");
    }
}
