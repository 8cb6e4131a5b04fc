package io.mqttload.live;

import java.util.Locale;

import io.mqttload.measure.FailureTally;

/** {@link LiveFigures} as a plain-text block: a remote engine's figures in the Run Report panel while a run goes. */
public final class LiveText {
    private LiveText() {
    }

    public static String render(LiveFigures f) {
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "engine %s   %.0f s   %s%n", f.engineId, f.elapsedSeconds, f.phase));
        t.append(counts(f)).append(System.lineSeparator());
        t.append(System.lineSeparator());
        t.append(LiveTables.text(LiveTables.latency(f)));
        t.append(errors(f));
        if (!f.samplers.isEmpty()) {
            t.append(System.lineSeparator());
            t.append(LiveTables.text(LiveTables.samplers(f)));
        }
        return t.toString();
    }

    /** Connections, rates and the delivery so far, one line each. */
    public static String counts(LiveFigures f) {
        return String.format(Locale.ROOT, "connections  %d open   %d connected   %d failed   %d lost%n",
                f.activeConnections, f.connectsOk, f.connectsFailed, f.connectionsLost)
                + String.format(Locale.ROOT, "publish      %.1f msg/s   %d sent%n", f.publishRate, f.published)
                + String.format(Locale.ROOT, "receive      %.1f msg/s   %d received%n", f.receiveRate, f.received)
                + String.format(Locale.ROOT, "delivery     expected %d   received of them %d   outstanding %d",
                        f.expected, f.receivedOfExpected, Math.max(0, f.expected - f.receivedOfExpected))
                + outage(f);
    }

    /** The declared outages' recovery so far, one line ("" without a declared outage). */
    static String outage(LiveFigures f) {
        return f.outagesDeclared == 0 ? "" : String.format(Locale.ROOT, "%noutage       %d declared   %d client(s)"
                + " offline   %d back   %d reconnect attempts", f.outagesDeclared, f.outageClients,
                f.outageClientsBack, f.reconnectAttempts);
    }

    /** The error count and the most frequent reasons. */
    public static String errors(LiveFigures f) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "%nerrors       %d%n", f.errors));
        for (FailureTally.Row r : f.topErrors) {
            t.append(String.format(Locale.ROOT, "  %6d x %s %s: %s%n", r.count, r.sampler, r.kind.text(), r.reason));
        }
        return t.toString();
    }
}
