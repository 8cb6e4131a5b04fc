package io.mqttload.report.influx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.SignedLatencyStats;
import io.mqttload.summary.BrokerRow;
import io.mqttload.summary.LatencyPair;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.NodeFigures;

/** The merged report of a run as InfluxDB points: the exact whole-run figures beside the live per-engine series. */
public final class ReportPoints {
    private ReportPoints() {
    }

    /**
     * The report as InfluxDB points at {@code timeMillis}: {@code mqtt_report} (counts, rates, verdict) and
     * {@code mqtt_report_latency} per kind, tagged run and scenario — the exact whole-run figures for the
     * run-comparison dashboard, beside the live per-engine series.
     */
    public static List<String> of(MergedReport r, long timeMillis) {
        List<String> lines = new ArrayList<>();
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("run", r.runId);
        tags.put("scenario", r.scenario);
        StringBuilder line = new StringBuilder(1024);
        LineProtocol.measurement(line, "mqtt_report");
        LineProtocol.tags(line, tags);
        LineProtocol.firstField(line, "engines", r.engines.size() + r.missingEngines.size());
        LineProtocol.field(line, "publishRate", r.publishRate);
        LineProtocol.field(line, "receiveRate", r.receiveRate);
        LineProtocol.field(line, "drainRate", r.rates.drainRate);
        LineProtocol.field(line, "measuredSeconds", r.measuredSeconds);
        if (r.connectPhase != null && r.connectPhase.rate != null) {
            LineProtocol.field(line, "connectRate", r.connectPhase.rate);
        }
        r.counts.forEach((c, v) -> LineProtocol.field(line, c.key(), v));
        BrokerRow brokers = r.brokerTotal();
        if (brokers != null) {
            LineProtocol.field(line, "brokerCpuAvg", brokers.cpuAvg);
            LineProtocol.field(line, "brokerCpuMax", brokers.cpuMax);
            LineProtocol.field(line, "brokerRssAvg", brokers.rssAvg);
            LineProtocol.field(line, "brokerRssMax", brokers.rssMax);
        }
        LineProtocol.field(line, "verdict", r.verdict().name());
        LineProtocol.end(line, timeMillis);
        lines.add(line.toString());
        r.latency.forEach((kind, s) -> {
            if (!r.showsLatency(kind)) {
                // No figure rather than zeros: a panel must not read "0 ms from the intended time" for unpaced runs.
                return;
            }
            StringBuilder l = new StringBuilder(512);
            LineProtocol.measurement(l, "mqtt_report_latency");
            LineProtocol.tags(l, tags);
            LineProtocol.tag(l, "kind", kind);
            InfluxMetrics.latencyFields(l, s);
            LineProtocol.end(l, timeMillis);
            lines.add(l.toString());
        });
        for (FailureTally.Row f : r.failures) {
            lines.add(InfluxMetrics.failurePoint("mqtt_report_errors", tags, f, timeMillis));
        }
        if (r.nodes.size() > 1) {
            r.nodes.values().forEach(n -> lines.addAll(nodePoints(n, tags, timeMillis)));
        }
        if (r.engines.size() > 1) {
            r.clocks.pairs.forEach(p -> lines.addAll(pairPoints(p, tags, timeMillis)));
        }
        return lines;
    }

    /**
     * {@code mqtt_report_pair_latency}: the pub-to-sub of one (publishing engine, receiving engine) pair, {@code figure}
     * {@code measured} (never floored: a percentile may be below 0) or {@code corrected} (only where the report shows
     * the corrected figures), with the clock difference applied and its bound.
     */
    private static List<String> pairPoints(LatencyPair p, Map<String, String> tags, long timeMillis) {
        List<String> lines = new ArrayList<>();
        Map<String, SignedLatencyStats> figures = new LinkedHashMap<>();
        figures.put("measured", p.measured);
        if (p.corrected != null) {
            figures.put("corrected", p.corrected);
        }
        figures.forEach((figure, s) -> {
            StringBuilder l = new StringBuilder(512);
            LineProtocol.measurement(l, "mqtt_report_pair_latency");
            LineProtocol.tags(l, tags);
            LineProtocol.tag(l, "publisher", p.publisher);
            LineProtocol.tag(l, "subscriber", p.subscriber);
            LineProtocol.tag(l, "figure", figure);
            LineProtocol.firstField(l, "count", s.count);
            LineProtocol.field(l, "mean", s.mean);
            for (int i = 0; i < LatencyStats.PERCENTILES.size(); i++) {
                LineProtocol.field(l, LatencyStats.percentileName(i), s.percentiles[i]);
            }
            LineProtocol.field(l, "min", s.min);
            LineProtocol.field(l, "max", s.max);
            LineProtocol.field(l, "negative", s.negative);
            if (p.clockDifferenceMicros != null) {
                LineProtocol.field(l, "clockDifference", p.clockDifferenceMicros);
                LineProtocol.field(l, "clockDifferenceBound", p.boundMicros);
            }
            LineProtocol.field(l, "notCorrected", p.notCorrected);
            LineProtocol.end(l, timeMillis);
            lines.add(l.toString());
        });
        return lines;
    }

    /**
     * {@code mqtt_report_node}: one broker node's exact whole-run figures, and {@code mqtt_report_node_latency}:
     * its pub-to-sub latency, {@code from} naming the publishers' node ({@code all} for every node).
     */
    private static List<String> nodePoints(NodeFigures n, Map<String, String> tags, long timeMillis) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(512);
        LineProtocol.measurement(line, "mqtt_report_node");
        LineProtocol.tags(line, tags);
        LineProtocol.tag(line, "node", n.name);
        LineProtocol.firstField(line, Count.EXPECTED.key(), n.expected);
        LineProtocol.field(line, Count.RECEIVED_OF_EXPECTED.key(), n.receivedOfExpected);
        LineProtocol.field(line, Count.LOST.key(), n.lost());
        for (Count c : NodeFigures.COUNTS) {
            LineProtocol.field(line, c.key(), n.count(c));
        }
        LineProtocol.end(line, timeMillis);
        lines.add(line.toString());
        Map<String, LatencyStats> latency = new LinkedHashMap<>();
        latency.put("all", n.pubToSub);
        latency.putAll(n.pubToSubFrom);
        latency.forEach((from, s) -> {
            StringBuilder l = new StringBuilder(512);
            LineProtocol.measurement(l, "mqtt_report_node_latency");
            LineProtocol.tags(l, tags);
            LineProtocol.tag(l, "node", n.name);
            LineProtocol.tag(l, "from", from);
            InfluxMetrics.latencyFields(l, s);
            LineProtocol.end(l, timeMillis);
            lines.add(l.toString());
        });
        return lines;
    }
}
