package io.mqttload.live;

import java.util.Locale;

import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.LatencyKind;

/** {@link LiveFigures} as the plain-text block the Run Report panel shows while a run goes. */
public final class LiveText {
    private LiveText() {
    }

    public static String render(LiveFigures f) {
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "engine %s   %.0f s   %s%n", f.engineId, f.elapsedSeconds, f.phase));
        t.append(String.format(Locale.ROOT, "connections  %d open   %d connected   %d failed   %d lost%n",
                f.activeConnections, f.connectsOk, f.connectsFailed, f.connectionsLost));
        t.append(String.format(Locale.ROOT, "publish      %.1f msg/s   %d sent%n", f.publishRate, f.published));
        t.append(String.format(Locale.ROOT, "receive      %.1f msg/s   %d received%n", f.receiveRate, f.received));
        t.append(String.format(Locale.ROOT, "delivery     expected %d   received of them %d   outstanding %d%n", f.expected,
                f.receivedOfExpected, Math.max(0, f.expected - f.receivedOfExpected)));
        t.append(System.lineSeparator());
        LatencyStats.appendTextHeader(t);
        f.pubToSubLastSecond.appendTextRow(t, "from send, last second");
        f.pubToSubSteady.appendTextRow(t, "from send, steady");
        if (f.pubToSubIntendedSteady == null || f.pubToSubIntendedSteady.count == 0
                && f.pubToSubIntendedLastSecond.count == 0) {
            if (f.published > 0) {
                t.append(String.format(Locale.ROOT, "%-" + LatencyStats.NAME_WIDTH + "s %s%n", "from intended",
                        LatencyKind.NO_INTENDED_TIME));
            }
        } else {
            f.pubToSubIntendedLastSecond.appendTextRow(t, "from intended, last second");
            f.pubToSubIntendedSteady.appendTextRow(t, "from intended, steady");
            f.scheduleLagSteady.appendTextRow(t, "schedule lag, steady");
        }
        if (f.roundTripSteady != null && f.roundTripSteady.count > 0) {
            f.roundTripSteady.appendTextRow(t, "round trip so far");
        }
        t.append(String.format(Locale.ROOT, "%nerrors       %d%n", f.errors));
        for (FailureTally.Row r : f.topErrors) {
            t.append(String.format(Locale.ROOT, "  %6d x %s %s: %s%n", r.count, r.sampler, r.kind.text(), r.reason));
        }
        if (!f.samplers.isEmpty()) {
            t.append(String.format(Locale.ROOT, "%n%-28s %10s %10s %12s %12s %9s %7s%n", "sampler", "published",
                    "received", "pub msg/s", "recv msg/s", "p99 ms", "errors"));
            for (LiveFigures.SamplerRow s : f.samplers) {
                t.append(String.format(Locale.ROOT, "%-28s %10d %10d %12.1f %12.1f %9.3f %7d%n", abbreviated(s.label, 28),
                        s.published, s.received, s.publishRate, s.receiveRate, s.pubToSubP99Millis, s.errors));
            }
        }
        return t.toString();
    }

    private static String abbreviated(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }
}
