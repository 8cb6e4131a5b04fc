package io.mqttload.summary;

import java.util.Locale;

import io.mqttload.clock.ClockFigures;
import io.mqttload.clock.OffsetEstimator;

/** An engine's clock figures as one line of its own summary table. */
final class ClockText {
    private ClockText() {
    }

    static String line(ClockFigures f) {
        StringBuilder b = new StringBuilder();
        if (f.before != null || f.after != null) {
            b.append("vs ").append(f.referenceEngine).append(':');
            append(b, "before", f.before);
            append(b, "after", f.after);
        }
        if (f.notMeasured != null) {
            b.append(b.length() == 0 ? "" : "; ").append(f.notMeasured);
        }
        return b.toString();
    }

    private static void append(StringBuilder b, String phase, OffsetEstimator.Estimate e) {
        if (e != null) {
            b.append(String.format(Locale.ROOT, " %s %s ms ± %s ms", phase, ClockReport.signedMs(e.offsetMicros),
                    ClockReport.ms(e.boundMicros)));
        }
    }
}
