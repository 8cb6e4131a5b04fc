package io.mqttload.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Grafana dashboards of the repository ({@code grafana/dashboards/*.json}) and every query in them (InfluxQL or PromQL):
 * panel targets (also inside rows), templating variables and annotations, as Grafana would send them before
 * it substitutes its macros and variables.
 */
public final class GrafanaDashboards {
    /** {@code $name}, {@code ${name}}, {@code ${name:format}} and {@code [[name]]}, as Grafana interpolates them. */
    public static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?\\}|\\$(\\w+)|\\[\\[(\\w+)\\]\\]");

    private GrafanaDashboards() {
    }

    /** The repository's root, from the module directory surefire and failsafe pass as {@code project.basedir}. */
    public static Path repositoryRoot() {
        return Path.of(System.getProperty("project.basedir", "."), "..").toAbsolutePath().normalize();
    }

    public static Path grafanaDirectory() {
        return repositoryRoot().resolve("grafana");
    }

    /** The dashboards on InfluxDB, the suite's first data source. */
    public static List<Path> files() {
        return files("influxdb");
    }

    /** The dashboards whose queries go to a data source of this type ({@code influxdb}, {@code prometheus}). */
    public static List<Path> files(String datasourceType) {
        return allFiles().stream().filter(f -> datasourceType.equals(datasourceType(read(f))))
                .collect(Collectors.toList());
    }

    public static List<Path> allFiles() {
        try (Stream<Path> s = Files.list(grafanaDirectory().resolve("dashboards"))) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The type of the data source of a dashboard's first variable: each dashboard queries one type. */
    public static String datasourceType(JsonNode dashboard) {
        return dashboard.path("templating").path("list").path(0).path("datasource").path("type").asText();
    }

    public static JsonNode read(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The uid of the datasource of this type Grafana provisions from {@code grafana/provisioning/datasources}. */
    public static String provisionedDatasourceUid(String type) {
        Path dir = grafanaDirectory().resolve("provisioning").resolve("datasources");
        Pattern uid = Pattern.compile("(?m)^\\s+uid:\\s*\"?([^\"\\s]+)\"?\\s*$");
        Pattern typeLine = Pattern.compile("(?m)^\\s+type:\\s*\"?([^\"\\s]+)\"?\\s*$");
        try (Stream<Path> s = Files.list(dir)) {
            List<String> uids = new ArrayList<>();
            for (Path p : s.sorted().collect(Collectors.toList())) {
                String text = Files.readString(p);
                Matcher t = typeLine.matcher(text);
                if (!t.find() || !t.group(1).equals(type)) {
                    continue;
                }
                Matcher m = uid.matcher(text);
                while (m.find()) {
                    uids.add(m.group(1));
                }
            }
            if (uids.size() != 1) {
                throw new IllegalStateException("expected one provisioned " + type + " datasource uid in " + dir
                        + ", found " + uids);
            }
            return uids.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Panels of a dashboard, those inside rows included, rows themselves too. */
    public static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            all.add(p);
            p.path("panels").forEach(all::add);
        }
        return all;
    }

    /** Every query of a dashboard: panel targets, then variables in their order, then annotations. */
    public static List<Query> queries(JsonNode dashboard) {
        String title = dashboard.path("title").asText();
        List<Query> queries = new ArrayList<>();
        for (JsonNode p : panels(dashboard)) {
            for (JsonNode t : p.path("targets")) {
                // InfluxQL in "query", PromQL in "expr".
                String text = t.has("expr") ? t.path("expr").asText() : t.path("query").asText();
                queries.add(new Query(title, Query.Kind.PANEL, p.path("title").asText(), t.path("refId").asText(),
                        text, t.path("datasource")));
            }
        }
        for (JsonNode v : dashboard.path("templating").path("list")) {
            if ("query".equals(v.path("type").asText())) {
                queries.add(new Query(title, Query.Kind.VARIABLE, v.path("name").asText(), "", variableQuery(v),
                        v.path("datasource")));
            }
        }
        for (JsonNode a : dashboard.path("annotations").path("list")) {
            queries.add(new Query(title, Query.Kind.ANNOTATION, a.path("name").asText(),
                    a.path("target").path("refId").asText(), a.path("target").path("query").asText(), a.path("datasource")));
        }
        return queries;
    }

    /** A variable's query: InfluxDB's is a string, Prometheus' an object holding it. */
    public static String variableQuery(JsonNode variable) {
        JsonNode q = variable.path("query");
        return q.isObject() ? q.path("query").asText() : q.asText();
    }

    /** Names referred to as variables in {@code text}, in order of appearance. */
    public static Set<String> variablesIn(String text) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = VARIABLE.matcher(text);
        while (m.find()) {
            names.add(variableName(m));
        }
        return names;
    }

    /** The variable's name in a match of {@link #VARIABLE}, whichever of its forms matched. */
    public static String variableName(Matcher m) {
        return m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
    }

    /** One query of a dashboard, with where it sits, for failure messages. */
    public static final class Query {
        public enum Kind { PANEL, VARIABLE, ANNOTATION }

        public final String dashboard;
        public final Kind kind;
        public final String name;
        public final String refId;
        public final String text;
        public final JsonNode datasource;

        Query(String dashboard, Kind kind, String name, String refId, String text, JsonNode datasource) {
            this.dashboard = dashboard;
            this.kind = kind;
            this.name = name;
            this.refId = refId;
            this.text = text;
            this.datasource = datasource;
        }

        /** Dashboard, panel title (or variable / annotation name) and refId. */
        public String where() {
            return dashboard + " / " + kind.name().toLowerCase(Locale.ROOT) + " '" + name + "'"
                    + (refId.isEmpty() ? "" : " " + refId);
        }

        @Override
        public String toString() {
            return where() + ": " + text;
        }
    }
}
