package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.disconnect;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.outage;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttBrokerMonitor;
import io.mqttload.jmeter.MqttMetricsConfig;
import io.mqttload.jmeter.MqttRendezvousTimer;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.GrafanaDashboards.Query;
import io.mqttload.testsupport.GrafanaDashboards;
import io.mqttload.testsupport.InfluxDbServer;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.PrometheusServer;
import io.mqttload.testsupport.RunResult;

/**
 * Every query of every dashboard in {@code grafana/dashboards}, run against a real InfluxDB 1.6 filled by two
 * real runs (a rendezvous, a connect that fails, a declared outage, a monitored Mosquitto, the run report), with Grafana's macros
 * and the variables substituted as Grafana does, returns data. InfluxDB answers a misspelled field or
 * measurement with no series rather than an error, so an empty answer fails here.
 */
class GrafanaDashboardsIT {
    private static final String DATABASE = "mqttload";
    private static final String SCENARIO = "grafana-it";
    private static final int DEVICES = 2;

    @TempDir
    Path results;

    @Test
    void everyPanelVariableAndAnnotationQuery_returnsDataFromTwoRealRuns() throws Exception {
        MosquittoBroker.requireInstalled();
        // $SYS every second, so that a run of a few seconds has broker statistics.
        try (InfluxDbServer influx = InfluxDbServer.start();
                MosquittoBroker broker = MosquittoBroker.builder().withSetting("sys_interval 1").start()) {
            assertThat(influx.query("", "CREATE DATABASE " + DATABASE)).doesNotContain("error");
            long from = System.currentTimeMillis();
            // Two runs with different client counts: the comparison and scalability panels need several runs.
            run(influx, broker, "grafana-it-a", 2);
            run(influx, broker, "grafana-it-b", 4);
            await("both run reports in InfluxDB").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> influx.query(DATABASE, "SELECT count(\"engines\") FROM \"mqtt_report\"").contains(",2]"));
            long to = System.currentTimeMillis();
            // Both devices offline at once in a live point: the recovery went out while it happened, since the run's
            // last point has them back.
            assertThat(influx.query(DATABASE, "SELECT max(\"offline\") FROM (SELECT \"outageClients\" -"
                    + " \"outageClientsBack\" AS \"offline\" FROM \"mqtt_counts\" WHERE \"run\" = 'grafana-it-a')"))
                    .contains(",2]");
            String timeFilter = "time >= " + (from - 60_000) + "ms and time <= " + (to + 60_000) + "ms";

            List<String> failures = new ArrayList<>();
            int executed = 0;
            for (Path file : GrafanaDashboards.files()) {
                JsonNode dashboard = GrafanaDashboards.read(file);
                Map<String, String> variables = new HashMap<>();
                List<Query> queries = GrafanaDashboards.queries(dashboard);
                // Variables first and in order: each is chained to the ones before it, and "All" is every value.
                for (Query q : queries) {
                    if (q.kind == Query.Kind.VARIABLE) {
                        String sql = interpolate(q.text, timeFilter, variables);
                        List<String> values = values(influx.query(DATABASE, sql), 1);
                        executed++;
                        if (values.isEmpty()) {
                            failures.add(q.where() + " has no values: " + sql);
                        }
                        variables.put(q.name, regexAlternation(values));
                    }
                }
                for (Query q : queries) {
                    if (q.kind != Query.Kind.VARIABLE) {
                        String sql = interpolate(q.text, timeFilter, variables);
                        String problem = problem(influx.query(DATABASE, sql));
                        executed++;
                        if (problem != null) {
                            failures.add(q.where() + ": " + problem + "\n    " + sql);
                        }
                    }
                }
            }
            assertThat(executed).as("queries run").isGreaterThan(30);
            assertThat(failures).as("queries without data").isEmpty();
        }
    }

    private void run(InfluxDbServer influx, MosquittoBroker broker, String runId, int pairs) {
        run(influx.url(), broker, runId, pairs, Map.of());
    }

    /**
     * One run of a plan that gives every panel data; with {@code influxUrl} null it writes to no InfluxDB, and
     * {@code properties} are added to the engine's (the Prometheus export's).
     */
    private void run(String influxUrl, MosquittoBroker broker, String runId, int pairs, Map<String, String> properties) {
        MqttMetricsConfig metrics = PlanBuilder.testBean(new MqttMetricsConfig(), "MQTT Metrics");
        metrics.setProperty("influxUrl", influxUrl == null ? "" : influxUrl);
        MqttRunReport report = runReport();
        report.setProperty("influxUrl", influxUrl == null ? "" : influxUrl);
        MqttBrokerMonitor monitor = PlanBuilder.testBean(new MqttBrokerMonitor(), "MQTT Broker Monitor");
        monitor.setProperty("brokerName", "mosquitto");
        monitor.setProperty("pid", Long.toString(broker.pid()));
        monitor.setProperty("sysHost", broker.host());
        monitor.setProperty("sysPort", Integer.toString(broker.tcpPort()));
        MqttRendezvousTimer start = PlanBuilder.testBean(new MqttRendezvousTimer(), "start");
        start.setProperty("groupSize", "0");
        start.setProperty("timeoutInMs", "20000");
        start.setProperty("onTimeout", "STOP_TEST");
        // Named, because by default the barrier takes the broker of the engine's first connect, which may be
        // the unreachable one.
        start.setProperty("brokerHost", broker.host());
        start.setProperty("brokerPort", Integer.toString(broker.tcpPort()));
        // A throughput timer the engine reads: the messages have an intended send time, for the panels from it.
        ConstantThroughputTimer pace = PlanBuilder.testBean(new ConstantThroughputTimer(), "pace");
        pace.setProperty("calcMode", 0);
        pace.setProperty("throughput", "600");
        HashTree plan = PlanBuilder.testPlan(SCENARIO)
                // The report before the monitor: run alone, the report only takes a summary of a run that started
                // at most 1 s before its own test start, and the monitor's $SYS connect can take longer than that.
                .config(report)
                // Two node names for the one broker: the per-node points and panels get data.
                .config(with(connection(broker.host(), broker.tcpPort(), "MQTT_5"), "nodes", "n1=" + broker.host() + ":"
                        + broker.tcpPort() + ", n2=" + broker.host() + ":" + broker.tcpPort()))
                .config(metrics)
                .config(monitor)
                .threadGroup("pairs", pairs, 1)
                .add(connect("sub", 1, "{engine}-gs-{thread}"))
                // The subscribers answer the publishers' requests: the request/response panels get data.
                .add(with(subscribe("sub", "grafana/{thread}", 1), "answerRequests", "true"))
                .add(connect("pub", 1, "{engine}-gp-{thread}"))
                .add(subscribe("pub", "grafana-reply/{thread}", 1))
                .add(publish("pub", "grafana/{thread}", 1, 1, "SYNC"), start)
                // About three seconds of messages: several points per run at the 1 s metrics interval.
                .add(loop(30), with(publish("pub", "grafana/{thread}", 1, 10, "ASYNC"), "responseTopic",
                        "grafana-reply/{thread}"), pace)
                .add(disconnect("pub"))
                .add(disconnect("sub"))
                .and()
                // Two devices dropped by a declared outage for 3 s, back through their reconnect policy: the recovery
                // panels get data, and the live points (1 s) see them offline. Beside the pairs, so no longer a run.
                .threadGroup("devices", 1, 1)
                .add(with(with(with(with(connect("dev", DEVICES, "{engine}-gd-{client}"), "reconnectPolicy", "FIXED"),
                        "reconnectAttempts", "50"), "reconnectDelayMs", "100"), "reconnectMaxDelayMs", "100"))
                .add(with(outage("dev", "DROP", 100, 20_000, 20_000), "offlineMs", "3000"))
                .add(disconnect("dev"))
                .and()
                // Nothing listens there: failed connects for the errors panel and annotations.
                .threadGroup("unreachable", 1, 1)
                .add(connect("nobody", 1, "{engine}-gx"), connection(broker.host(), FreePorts.tcpPort(), "MQTT_5"))
                .build();
        Map<String, String> engineProperties = new HashMap<>(properties);
        engineProperties.putAll(Map.of("mqttload.resultsDir", results.toString(), "mqttload.progressSeconds", "0",
                "mqttload.runId", runId, "mqttload.scenario", SCENARIO, "mqttload.engineId", "engine-1"));
        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), engineProperties);
        assertThat(run.byLabel("connect nobody")).as(run.describe()).singleElement()
                .satisfies(s -> assertThat(s.isSuccessful()).isFalse());
        assertThat(run.failures()).as(run.describe()).hasSize(1);
        assertThat(JvmRun.lastSummary().count(Count.RECEIVED)).as("messages of " + runId).isEqualTo(pairs * 301L);
        assertThat(JvmRun.lastSummary().count(Count.REPLIES_RECEIVED)).as("answers of " + runId).isEqualTo(pairs * 300L);
        assertThat(JvmRun.lastSummary().count(Count.OUTAGE_CLIENTS_BACK)).as("devices back in " + runId)
                .isEqualTo(DEVICES);
    }

    /**
     * The Prometheus dashboard against a real Prometheus that scraped the engine's /metrics every second during two
     * real runs: every variable has values, every panel query returns data over the runs' time range (range queries
     * as a time series panel asks, instant ones at the end), with Grafana's {@code $__rate_interval} and
     * {@code $__range} and the variables substituted as Grafana does. PromQL answers a misspelled metric or label with
     * no series rather than an error, so an empty answer fails here.
     */
    @Test
    void everyPrometheusPanelAndVariableQuery_returnsDataFromTwoRealRunsScraped() throws Exception {
        MosquittoBroker.requireInstalled();
        PrometheusServer.requireInstalled();
        int metricsPort = FreePorts.tcpPort();
        try (PrometheusServer prometheus = PrometheusServer.startPrometheus(Duration.ofSeconds(1),
                PrometheusServer.scrapeJob("mqttload", false, List.of("127.0.0.1:" + metricsPort)));
                MosquittoBroker broker = MosquittoBroker.builder().withSetting("sys_interval 1").start()) {
            double from = System.currentTimeMillis() / 1000.0 - 5;
            Map<String, String> export = Map.of("mqttload.prometheus.port", Integer.toString(metricsPort),
                    "mqttload.prometheus.finalScrapeSeconds", "20");
            run(null, broker, "prom-dash-a", 2, export);
            run(null, broker, "prom-dash-b", 4, export);
            double to = System.currentTimeMillis() / 1000.0;
            String range = Math.round(to - from + 60) + "s";
            // Devices offline at a scrape during a run: the final figures have them back. Prometheus, a process of its
            // own on a busy machine, may scrape late or at the edge of the outage, so any of the runs' scrapes will do.
            double offline = 0;
            for (JsonNode series : prometheus.queryRange("max by (run) (mqttload_outage_clients{run=~\"prom-dash-.\"})"
                    + " - max by (run) (mqttload_outage_clients_back{run=~\"prom-dash-.\"})", from, to, "1s")) {
                for (JsonNode point : series.path("values")) {
                    offline = Math.max(offline, point.path(1).asDouble());
                }
            }
            assertThat(offline).as("devices offline at a scrape").isPositive();

            List<String> failures = new ArrayList<>();
            int executed = 0;
            for (Path file : GrafanaDashboards.files("prometheus")) {
                JsonNode dashboard = GrafanaDashboards.read(file);
                Map<String, String> variables = new HashMap<>();
                for (JsonNode v : dashboard.path("templating").path("list")) {
                    Matcher m = LABEL_VALUES.matcher(GrafanaDashboards.variableQuery(v));
                    assertThat(m.matches()).as("variable " + v.path("name") + " is label_values(metric, label)").isTrue();
                    String match = interpolatePromQl(m.group(1), range, variables);
                    List<String> values = new ArrayList<>();
                    prometheus.labelValues(m.group(2), match).forEach(n -> values.add(n.asText()));
                    executed++;
                    if (values.isEmpty()) {
                        failures.add(file.getFileName() + " variable " + v.path("name") + " has no values: " + match);
                    }
                    variables.put(v.path("name").asText(), regexAlternation(values));
                }
                for (JsonNode panel : GrafanaDashboards.panels(dashboard)) {
                    for (JsonNode t : panel.path("targets")) {
                        String q = interpolatePromQl(t.path("expr").asText(), range, variables);
                        JsonNode result = t.path("instant").asBoolean() ? prometheus.query(q, to)
                                : prometheus.queryRange(q, from, to, "1s");
                        executed++;
                        if (result.size() == 0) {
                            failures.add(file.getFileName() + " panel '" + panel.path("title").asText() + "' "
                                    + t.path("refId").asText() + ": no series\n    " + q);
                        }
                    }
                }
            }
            assertThat(executed).as("queries run").isGreaterThan(40);
            assertThat(failures).as("queries without data").isEmpty();
        }
    }

    private static final java.util.regex.Pattern LABEL_VALUES = java.util.regex.Pattern.compile(
            "label_values\\((.+), *(\\w+)\\)");

    /** What Grafana sends to Prometheus: its interval macros and the variables, multi-values as a regex. */
    static String interpolatePromQl(String query, String range, Map<String, String> variables) {
        Matcher m = GrafanaDashboards.VARIABLE.matcher(query);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = GrafanaDashboards.variableName(m);
            String value;
            if (name.equals("__rate_interval")) {
                // Grafana's: at least four scrape intervals (1 s here).
                value = "4s";
            } else if (name.equals("__range")) {
                value = range;
            } else {
                value = variables.get(name);
                if (value == null) {
                    throw new IllegalStateException("$" + name + " is not defined before use in: " + query);
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value.replace("\\", "\\\\")));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** What Grafana sends: $timeFilter, $__interval and the variables replaced, multi-values as a regex. */
    static String interpolate(String query, String timeFilter, Map<String, String> variables) {
        Matcher m = GrafanaDashboards.VARIABLE.matcher(query);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = GrafanaDashboards.variableName(m);
            String value;
            switch (name) {
                case "timeFilter":
                case "__timeFilter":
                    value = timeFilter;
                    break;
                case "__interval":
                case "interval":
                    value = "1s";
                    break;
                case "__interval_ms":
                    value = "1000";
                    break;
                default:
                    value = variables.get(name);
                    if (value == null) {
                        throw new IllegalStateException("$" + name + " is not defined before use in: " + query);
                    }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Grafana's InfluxDB formatting of a multi-value (or "All") variable inside {@code /^...$/}. */
    static String regexAlternation(List<String> values) {
        List<String> escaped = values.stream().map(v -> v.replaceAll("[\\\\^$*+?.()|\\[\\]{}/]", "\\\\$0"))
                .collect(Collectors.toList());
        return escaped.size() == 1 ? escaped.get(0) : "(" + String.join("|", escaped) + ")";
    }

    /** Column {@code column} of every row of every series (SHOW TAG VALUES: 1 is the value). */
    private static List<String> values(String answer, int column) throws IOException {
        List<String> values = new ArrayList<>();
        for (JsonNode result : new ObjectMapper().readTree(answer).path("results")) {
            for (JsonNode series : result.path("series")) {
                for (JsonNode row : series.path("values")) {
                    if (!row.path(column).isNull() && !row.path(column).isMissingNode()) {
                        values.add(row.path(column).asText());
                    }
                }
            }
        }
        return values;
    }

    /**
     * Null when every column but the time has a non-null value in some row of some series; else what is wrong.
     * Every column, not just one: a misspelled field among correct ones is a column of nulls.
     */
    private static String problem(String answer) throws IOException {
        JsonNode root = new ObjectMapper().readTree(answer);
        if (root.has("error")) {
            return "error " + root.path("error").asText();
        }
        Map<String, Boolean> hasValue = new LinkedHashMap<>();
        for (JsonNode result : root.path("results")) {
            if (result.has("error")) {
                return "error " + result.path("error").asText();
            }
            for (JsonNode s : result.path("series")) {
                JsonNode columns = s.path("columns");
                for (int i = 0; i < columns.size(); i++) {
                    String column = columns.path(i).asText();
                    if (!"time".equals(column)) {
                        hasValue.putIfAbsent(column, false);
                        for (JsonNode row : s.path("values")) {
                            if (!row.path(i).isNull()) {
                                hasValue.put(column, true);
                            }
                        }
                    }
                }
            }
        }
        if (hasValue.isEmpty()) {
            return "no series";
        }
        List<String> empty = hasValue.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey)
                .collect(Collectors.toList());
        return empty.isEmpty() ? null : "only nulls in " + empty;
    }
}
