package io.mqttload.report;

import java.util.Locale;
import java.util.function.Consumer;

import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.BarrierRow;
import io.mqttload.summary.BrokerRow;
import io.mqttload.summary.EngineRow;
import io.mqttload.measure.Latency;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.NodeFigures;
import io.mqttload.summary.RunSummary;

/** The merged report as text: the console table and Markdown. */
public final class ReportText {
    private ReportText() {
    }

    /** The report as the console table: engines, latency, deliveries, brokers, barriers, errors, verdict. */
    public static String table(MergedReport r) {
        StringBuilder t = new StringBuilder();
        String rule = "=".repeat(78) + "\n";
        t.append(rule);
        t.append(String.format(Locale.ROOT, "MQTT run %s  scenario %s  engines %d%n", r.runId, r.scenario,
                r.engines.size() + r.missingEngines.size()));
        t.append(String.format(Locale.ROOT, "measured %.1f s (warm-up %.1f s excluded from rates and latency)%n",
                r.measuredSeconds, r.warmupMillis / 1000.0));
        t.append(rule);
        r.setup.appendText(t, r.scenario, r.scheduleLine(), r.enginesLine());
        t.append(rule);
        t.append(String.format(Locale.ROOT, "%-14s %11s %11s %8s %7s %11s %11s %8s %6s %10s%n", "engine", "pub msg/s",
                "sub msg/s", "connects", "errors", "expected", "received", "lost", "dups", "p99 ms"));
        for (EngineRow e : r.engines) {
            t.append(String.format(Locale.ROOT, "%-14s %11.1f %11.1f %8d %7d %11d %11d %8d %6d %10.3f%n",
                    e.engineId, e.publishRate, e.receiveRate, e.count(Count.CONNECTS_OK), Count.errors(e::count),
                    e.count(Count.EXPECTED), e.count(Count.RECEIVED_OF_EXPECTED), e.count(Count.LOST), e.count(Count.DUPLICATES),
                    e.pubToSubP99 / 1000.0));
        }
        for (String m : r.missingEngines) {
            t.append(String.format(Locale.ROOT, "%-14s (no summary received)%n", m));
        }
        t.append(String.format(Locale.ROOT, "%-14s %11.1f %11.1f %8d %7d %11d %11d %8d %6d %10.3f%n", "ALL",
                r.publishRate, r.receiveRate, r.count(Count.CONNECTS_OK), Count.errors(r::count), r.expected, r.receivedOfExpected,
                r.lost(), r.count(Count.DUPLICATES), r.latency.get("pubToSub").percentile(99) / 1000.0));
        t.append("rates over the measured window; drain: ").append(r.rates.drainText()).append('\n');
        if (r.connectPhase != null) {
            t.append("connect rate: ").append(r.connectPhase.describe()).append('\n');
        }
        t.append(rule);
        LatencyStats.appendTextHeader(t);
        for (Latency kind : Latency.values()) {
            kind.appendTextRow(t, r::latencyOf);
        }
        t.append(flooredNote(r));
        r.samplerLatencyRows().forEach((label, s) -> s.appendTextRow(t, "  to " + label));
        String requests = r.requestResponseLine();
        if (!requests.isEmpty()) {
            t.append(requests).append('\n');
        }
        if (bySubscriber(r)) {
            r.lossBySampler.forEach((label, v) -> t.append(String.format(Locale.ROOT,
                    "delivery to %s: expected %d, received %d, lost %d, duplicates %d, reordered %d%n",
                    label.isEmpty() ? "(unnamed)" : label, v[0], v[1], v[0] - v[1], at(v, 2), at(v, 3))));
        }
        for (BrokerRow b : r.brokers) {
            t.append(String.format(Locale.ROOT, "broker %s (seen from %s): CPU avg %.1f%% max %.1f%% of one core,"
                    + " memory avg %.1f MiB max %.1f MiB%n", b.broker, b.engineId, b.cpuAvg, b.cpuMax,
                    b.rssAvg / 1048576.0, b.rssMax / 1048576.0));
        }
        for (BarrierRow b : r.rendezvous) {
            t.append("rendezvous ").append(b.describe()).append('\n');
        }
        notOwed(r, line -> t.append(line).append('\n'));
        if (r.count(Count.DELIVERED_UNACKNOWLEDGED) > 0) {
            t.append(String.format(Locale.ROOT, "delivered, never acknowledged to the publisher: %d%n",
                    r.count(Count.DELIVERED_UNACKNOWLEDGED)));
        }
        if (!r.connectRetries().isEmpty()) {
            t.append("retries: ").append(r.connectRetries()).append('\n');
        }
        if (!r.reconnectsGivenUp().isEmpty()) {
            t.append("reconnects given up: ").append(r.reconnectsGivenUp()).append('\n');
        }
        if (!r.recovery().isEmpty()) {
            t.append("recovery: ").append(r.recovery()).append('\n');
        }
        NodeFigures.appendTable(t, r.nodes.values(), rule);
        ClockSection.appendTable(t, r.clocks, rule);
        RunSummary.appendFailures(t, r.failures, rule);
        t.append(rule);
        t.append("verdict (all engines): ").append(r.verdictLine()).append('\n');
        t.append(rule);
        return t.toString();
    }

    /** A line for each count of deliveries nobody owed, when there were some: they are in no expected or lost column. */
    private static void notOwed(MergedReport r, Consumer<String> line) {
        for (Count c : Count.NOT_OWED_DELIVERIES) {
            if (r.count(c) > 0) {
                line.accept(String.format(Locale.ROOT, "owed to nobody, not in expected or lost: %d (%s)", r.count(c),
                        c.key()));
            }
        }
    }

    /** The report as Markdown, for a wiki page or a pull request. */
    public static String markdown(MergedReport r) {
        StringBuilder m = new StringBuilder();
        m.append("# MQTT run ").append(r.runId).append("\n\n");
        m.append(String.format(Locale.ROOT, "Scenario `%s`, %d engine(s), measured %.1f s, warm-up %.1f s excluded.%n%n",
                r.scenario, r.engines.size() + r.missingEngines.size(), r.measuredSeconds, r.warmupMillis / 1000.0));
        m.append("**Verdict:** ").append(r.verdictLine()).append("\n\n");
        r.setup.appendMarkdown(m, r.scenario, r.scheduleLine(), r.enginesLine());
        m.append("## Figures\n\n");
        m.append("| actual rate pub:sub (msg/s) | avg latency (ms) | p50 | p75 | p90 | p95 | p99 | p99.9 | max |\n");
        m.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        LatencyStats p = r.latency.get("pubToSub");
        m.append(String.format(Locale.ROOT, "| %s | %.3f", r.rates.pubSub(), p.mean / 1000.0));
        for (long v : p.percentiles) {
            m.append(String.format(Locale.ROOT, " | %.3f", v / 1000.0));
        }
        m.append(String.format(Locale.ROOT, " | %.3f |%n%n", p.max / 1000.0));
        m.append("Rates over the measured window; drain: ").append(r.rates.drainText()).append(".\n\n");
        if (r.connectPhase != null) {
            m.append("Connect rate: ").append(r.connectPhase.describe()).append(".\n\n");
        }
        if (!r.connectRetries().isEmpty()) {
            m.append("Retries: ").append(r.connectRetries()).append(".\n\n");
        }
        if (!r.reconnectsGivenUp().isEmpty()) {
            m.append("Reconnects given up: ").append(r.reconnectsGivenUp()).append(".\n\n");
        }
        if (!r.recovery().isEmpty()) {
            m.append("Recovery: ").append(r.recovery()).append(".\n\n");
        }
        m.append("| latency (ms) | count | avg | p50 | p75 | p90 | p95 | p99 | p99.9 | max |\n");
        m.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Latency kind : Latency.values()) {
            kind.appendMarkdownRow(m, r::latencyOf);
        }
        r.samplerLatencyRows().forEach((label, s) -> s.appendMarkdownRow(m, "pub-to-sub, " + label));
        String floored = flooredNote(r);
        if (!floored.isEmpty()) {
            m.append('\n').append(floored);
        }
        String requests = r.requestResponseLine();
        if (!requests.isEmpty()) {
            m.append('\n').append(requests).append('\n');
        }
        m.append("\n| engine | pub msg/s | sub msg/s | connects | connect errors | publish errors | expected | received |"
                + " lost | duplicates | reordered |\n");
        m.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (EngineRow e : r.engines) {
            m.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %d | %d | %d | %d | %d | %d | %d | %d |%n",
                    e.engineId, e.publishRate, e.receiveRate, e.count(Count.CONNECTS_OK), e.count(Count.CONNECTS_FAILED),
                    e.count(Count.PUBLISH_FAILED), e.count(Count.EXPECTED), e.count(Count.RECEIVED_OF_EXPECTED), e.count(Count.LOST),
                    e.count(Count.DUPLICATES), e.count(Count.REORDERED)));
        }
        for (String missing : r.missingEngines) {
            m.append("| ").append(missing).append(" | no summary | | | | | | | | | |\n");
        }
        m.append(String.format(Locale.ROOT, "| **all** | %.1f | %.1f | %d | %d | %d | %d | %d | %d | %d | %d |%n",
                r.publishRate, r.receiveRate, r.count(Count.CONNECTS_OK), r.count(Count.CONNECTS_FAILED), r.count(Count.PUBLISH_FAILED),
                r.expected, r.receivedOfExpected, r.lost(), r.count(Count.DUPLICATES), r.count(Count.REORDERED)));
        notOwed(r, line -> m.append('\n').append(line).append('\n'));
        if (bySubscriber(r)) {
            m.append("\n| subscribers (sampler) | expected | received | lost | duplicates | reordered |\n"
                    + "| --- | ---: | ---: | ---: | ---: | ---: |\n");
            r.lossBySampler.forEach((label, v) -> m.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d |%n",
                    label.isEmpty() ? "(unnamed)" : label, v[0], v[1], v[0] - v[1], at(v, 2), at(v, 3))));
        }
        if (!r.brokers.isEmpty()) {
            m.append("\n| broker | CPU avg (% of one core) | CPU max | memory avg (MiB) | memory max (MiB) |\n");
            m.append("| --- | ---: | ---: | ---: | ---: |\n");
            for (BrokerRow b : r.brokers) {
                m.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f |%n", b.broker, b.cpuAvg, b.cpuMax,
                        b.rssAvg / 1048576.0, b.rssMax / 1048576.0));
            }
        }
        if (!r.rendezvous.isEmpty()) {
            m.append("\n| rendezvous | group size | threads | engines | released on | spread (ms) | spread, clock offsets"
                    + " taken out (ms) |\n");
            m.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            for (BarrierRow b : r.rendezvous) {
                Double corrected = b.correctedSpreadMillis();
                m.append(String.format(Locale.ROOT, "| %s #%d | %d | %d | %d | %d | %s | %s |%n", b.name, b.generation,
                        b.groupSize, b.arrived(), b.engines, b.enginesReleased,
                        b.releasedEverywhere() ? String.format(Locale.ROOT, "%.3f", b.spreadMillis()) : "timed out",
                        corrected == null ? "" : String.format(Locale.ROOT, "%.3f ± %.3f", corrected,
                        b.correctedSpreadBoundMillis())));
            }
        }
        if (r.nodes.size() > 1) {
            m.append("\n| broker node | connects | connections lost | published | acknowledged | received | expected |"
                    + " received of expected | missing | duplicates | reordered | p50 (ms) | p99 (ms) |\n");
            m.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
            for (NodeFigures n : r.nodes.values()) {
                m.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.3f | %.3f |%n",
                        n.name, n.count(Count.CONNECTS_OK), n.count(Count.CONNECTIONS_LOST), n.count(Count.PUBLISHED),
                        n.count(Count.ACKNOWLEDGED), n.count(Count.RECEIVED), n.expected,
                        n.receivedOfExpected, n.lost(), n.duplicates, n.reordered, n.pubToSub.percentile(50.0) / 1000.0,
                        n.pubToSub.percentile(99.0) / 1000.0));
            }
            m.append("\n| pub-to-sub from node | to node | messages | p50 (ms) | p99 (ms) | max (ms) |\n");
            m.append("| --- | --- | ---: | ---: | ---: | ---: |\n");
            for (NodeFigures n : r.nodes.values()) {
                n.pubToSubFrom.forEach((from, st) -> m.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %.3f |"
                        + " %.3f |%n", from, n.name, st.count, st.percentile(50.0) / 1000.0, st.percentile(99.0) / 1000.0,
                        st.max / 1000.0)));
            }
        }
        ClockSection.appendMarkdown(m, r.clocks);
        if (!r.failures.isEmpty()) {
            m.append("\n| errors by sampler | kind | count | reason |\n| --- | --- | ---: | --- |\n");
            for (FailureTally.Row f : r.failures) {
                m.append(String.format(Locale.ROOT, "| %s | %s | %d | %s |%n", f.sampler.isEmpty() ? "(engine)" : f.sampler,
                        f.kind.text(), f.count, f.reason.replace("|", "\\|")));
            }
        }
        m.append("\nEngine rows check the engine's own publishers against its own subscribers; the **all** row checks"
                + " every publisher against every subscriber of the run.");
        if (r.count(Count.SHARED_SCOPES_ACROSS_ENGINES) > 0) {
            m.append(" Shared subscription groups that may have members on several engines are judged in the **all**"
                    + " row only.");
        }
        m.append('\n');
        AllCounts.appendMarkdown(m, r);
        return m.toString();
    }

    /** Whether the report shows delivery per Subscribe sampler: several of them, or loss, duplicates or reordering. */
    private static boolean bySubscriber(MergedReport r) {
        return r.lossBySampler.size() > 1 || r.lost() > 0 || r.count(Count.DUPLICATES) > 0 || r.count(Count.REORDERED) > 0;
    }

    /** One of a subscriber's {@code [expected, received, duplicates, reordered]}; 0 where the figures stop short. */
    private static long at(long[] figures, int i) {
        return i < figures.length ? figures[i] : 0;
    }

    /**
     * Under the latency table, where some pub-to-sub latencies were below 0 (clocks): the headline pub-to-sub (the
     * Summary, the pub-to-sub from send row) has them as measured (see {@link MergedReport#pubToSubHeadline}); the rows
     * read from the engines' histograms (from the intended send time, per subscriber) hold them as 0 ("" when none was).
     */
    public static String flooredNote(MergedReport r) {
        long negative = r.count(Count.LATENCY_NEGATIVE);
        if (negative == 0) {
            return "";
        }
        LatencyStats headline = r.latencyOf(Latency.PUB_TO_SUB);
        if (headline.mayBeNegative()) {
            return String.format(Locale.ROOT, "pub-to-sub: %d latencies below 0 (engine clocks behind their publishers'):"
                    + " the Summary and the pub-to-sub from send row show them as measured across the engines' clocks,"
                    + " never floored; the other pub-to-sub rows hold them as 0; the Clocks section has them per pair of"
                    + " engines, measured and corrected%n", negative);
        }
        return String.format(Locale.ROOT, "pub-to-sub: %d latencies below 0 (engine clocks behind their publishers') are 0"
                + " in the rows above; the Clocks section has them as measured and corrected, per pair of engines%n",
                negative);
    }
}
