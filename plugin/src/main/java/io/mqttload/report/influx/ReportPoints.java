package io.mqttload.report.influx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mqttload.measure.FailureTally;
import io.mqttload.summary.MergedReport;

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
        LineProtocol.field(line, "measuredSeconds", r.measuredSeconds);
        r.counts.forEach((k, v) -> LineProtocol.field(line, k, v));
        if (!r.brokers.isEmpty()) {
            // Several monitored brokers are the nodes of one cluster: averages add up; the sum of maxima bounds the peak.
            LineProtocol.field(line, "brokerCpuAvg", r.brokers.stream().mapToDouble(b -> b.cpuAvg).sum());
            LineProtocol.field(line, "brokerCpuMax", r.brokers.stream().mapToDouble(b -> b.cpuMax).sum());
            LineProtocol.field(line, "brokerRssAvg", r.brokers.stream().mapToLong(b -> b.rssAvg).sum());
            LineProtocol.field(line, "brokerRssMax", r.brokers.stream().mapToLong(b -> b.rssMax).sum());
        }
        LineProtocol.field(line, "verdict", r.verdict().name());
        LineProtocol.end(line, timeMillis);
        lines.add(line.toString());
        r.latency.forEach((kind, s) -> {
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
        return lines;
    }
}
