package io.mqttload.grafana;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import io.mqttload.testsupport.GrafanaDashboards;
import io.mqttload.testsupport.GrafanaDashboards.Query;

/**
 * The dashboards in {@code grafana/dashboards} as files: valid for Grafana's dashboard schema, wired to the
 * provisioned datasource, no undefined variable, unique panel ids. GrafanaDashboardsIT runs their queries.
 */
class GrafanaDashboardsTest {
    /** Grafana's own macros, substituted by Grafana itself rather than by a dashboard variable. */
    static final Set<String> GRAFANA_MACROS = Set.of("timeFilter", "__timeFilter", "__interval", "__interval_ms",
            "interval", "__from", "__to", "__range", "__range_s", "__range_ms", "__rate_interval");

    private static final List<Path> FILES = GrafanaDashboards.files();
    private static final List<Path> ALL = GrafanaDashboards.allFiles();

    @Test
    void theRepositoryHasTheOverviewAndTheComparisonDashboards_andTheOverviewForPrometheus() {
        List<String> uids = new ArrayList<>();
        FILES.forEach(f -> uids.add(GrafanaDashboards.read(f).path("uid").asText()));
        assertThat(uids).containsExactlyInAnyOrder("mqttload-overview", "mqttload-comparison");
        List<String> prometheus = new ArrayList<>();
        GrafanaDashboards.files("prometheus").forEach(f -> prometheus.add(GrafanaDashboards.read(f).path("uid").asText()));
        assertThat(prometheus).containsExactly("mqttload-overview-prometheus");
        assertThat(ALL).hasSize(uids.size() + prometheus.size());
    }

    @Test
    void everyDashboard_validatesAgainstGrafanasDashboardSchema() throws Exception {
        Path schemaFile = GrafanaDashboards.grafanaDirectory().resolve("schema").resolve("grafana-dashboard.schema.json");
        JsonSchema schema;
        try (InputStream in = Files.newInputStream(schemaFile)) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
        }
        for (Path file : ALL) {
            Set<ValidationMessage> errors = schema.validate(GrafanaDashboards.read(file));
            assertThat(errors).as(file.getFileName().toString()).isEmpty();
        }
    }

    @Test
    void everyPanelTargetVariableAndAnnotation_usesTheProvisionedDatasource() {
        for (Path file : ALL) {
            JsonNode dashboard = GrafanaDashboards.read(file);
            String type = GrafanaDashboards.datasourceType(dashboard);
            String uid = GrafanaDashboards.provisionedDatasourceUid(type);
            for (JsonNode panel : GrafanaDashboards.panels(dashboard)) {
                if (!"row".equals(panel.path("type").asText())) {
                    assertThat(panel.path("datasource").path("uid").asText()).as(file + " panel " + panel.path("title"))
                            .isEqualTo(uid);
                }
            }
            for (Query q : GrafanaDashboards.queries(dashboard)) {
                assertThat(q.datasource.path("uid").asText()).as(q.where()).isEqualTo(uid);
                assertThat(q.datasource.path("type").asText()).as(q.where()).isEqualTo(type);
                assertThat(q.text).as(q.where()).isNotBlank();
            }
        }
    }

    @Test
    void everyVariableInAQuery_isDefinedBeforeUseOrIsAGrafanaMacro() {
        for (Path file : ALL) {
            JsonNode dashboard = GrafanaDashboards.read(file);
            Set<String> defined = new HashSet<>();
            for (JsonNode v : dashboard.path("templating").path("list")) {
                // A chained variable may only use the variables before it: Grafana resolves them in order.
                for (String used : GrafanaDashboards.variablesIn(GrafanaDashboards.variableQuery(v))) {
                    assertThat(defined).as(file.getFileName() + " variable " + v.path("name") + " uses $" + used)
                            .contains(used);
                }
                defined.add(v.path("name").asText());
            }
            for (Query q : GrafanaDashboards.queries(dashboard)) {
                for (String used : GrafanaDashboards.variablesIn(q.text)) {
                    assertThat(defined.contains(used) || GRAFANA_MACROS.contains(used))
                            .as(q.where() + " uses $" + used + ", which is not defined").isTrue();
                }
            }
        }
    }

    @Test
    void panelIds_areUniqueWithinEachDashboard() {
        for (Path file : ALL) {
            Set<Integer> ids = new HashSet<>();
            for (JsonNode panel : GrafanaDashboards.panels(GrafanaDashboards.read(file))) {
                assertThat(panel.path("id").isInt()).as(file + " panel " + panel.path("title") + " has an id").isTrue();
                assertThat(ids.add(panel.path("id").asInt())).as(file + " panel id " + panel.path("id")).isTrue();
            }
        }
    }

    @Test
    void perIntervalPercentiles_areShownPerEngineAndNeverAveraged() {
        // mqtt_latency holds each engine's percentiles of one interval: grouped by anything but the engine
        // they would be combined across engines, which percentiles cannot be.
        Pattern percentileField = Pattern.compile("\\(\"(p\\d+(\\.\\d+)?|max)\"\\)");
        for (Path file : FILES) {
            for (Query q : GrafanaDashboards.queries(GrafanaDashboards.read(file))) {
                Matcher m = percentileField.matcher(q.text);
                if (q.text.contains("FROM \"mqtt_latency\"") && m.find()) {
                    assertThat(q.text).as(q.where()).contains("\"engine\" fill(").doesNotContain("mean(\"p");
                }
            }
        }
    }

    @Test
    void prometheusPercentiles_comeFromBucketsAddedUp_neverFromAnAverage() {
        for (Path file : GrafanaDashboards.files("prometheus")) {
            for (Query q : GrafanaDashboards.queries(GrafanaDashboards.read(file))) {
                assertThat(q.text).as(q.where()).doesNotContain("avg(", "avg by");
                if (q.text.contains("histogram_quantile")) {
                    assertThat(q.text).as(q.where()).contains("_bucket{").containsPattern("sum by \\([^)]*\\ble\\)");
                }
            }
        }
    }

    @Test
    void theOverviewRefreshesEveryFiveSecondsAndMarksRunsRendezvousAndErrors() {
        JsonNode overview = FILES.stream().map(GrafanaDashboards::read)
                .filter(d -> d.path("uid").asText().equals("mqttload-overview")).findFirst().orElseThrow();
        assertThat(overview.path("refresh").asText()).isEqualTo("5s");
        List<String> annotations = new ArrayList<>();
        overview.path("annotations").path("list").forEach(a -> annotations.add(a.path("target").path("query").asText()));
        assertThat(String.join("\n", annotations)).contains("'run start'", "'run end'", "'rendezvous'", "'errors'");
        List<String> variables = new ArrayList<>();
        overview.path("templating").path("list").forEach(v -> {
            assertThat(v.path("multi").asBoolean() && v.path("includeAll").asBoolean()).as(v.path("name").asText()).isTrue();
            variables.add(v.path("name").asText());
        });
        assertThat(variables).containsExactly("run", "scenario", "engine", "node");
    }
}
