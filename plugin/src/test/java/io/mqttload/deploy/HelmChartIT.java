package io.mqttload.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

import io.mqttload.testsupport.Command;
import io.mqttload.testsupport.GrafanaDashboards;
import io.mqttload.testsupport.SystemPackages;

/**
 * The Helm chart ({@code deploy/helm/mqtt-load}) without a cluster: rendered by the real {@code helm} for several
 * value sets, every object decoded strictly into its Kubernetes API type by {@code deploy/validate-manifests} (the
 * API's own Go types: an unknown field or a wrong type fails, which the strictness tests show), and what the objects
 * say checked against each other and against the image's entry point.
 */
class HelmChartIT {
    private static final Path ROOT = GrafanaDashboards.repositoryRoot();
    private static final Path CHART = ROOT.resolve("deploy/helm/mqtt-load");
    private static final String NAMESPACE = "perf";
    private static final String BROKER = "broker.perf.svc";
    private static final Duration HELM_TIMEOUT = Duration.ofSeconds(60);

    /** Every optional part on, SSL with a keystore Secret, a plan of one's own and a claim for the results. */
    private static final List<String> EVERYTHING_ON = List.of("--set", "influxdb.enabled=true", "--set",
            "prometheus.enabled=true", "--set", "grafana.enabled=true", "--set", "rmi.ssl.enabled=true", "--set",
            "rmi.ssl.keystoreSecret=mqtt-load-rmi", "--set", "run.planContent=<jmeterTestPlan/>", "--set",
            "controller.resultsClaim=results", "--set", "controller.ttlSecondsAfterFinished=3600", "--set", "run.id=r-42");

    private static Path validator;

    /** Built once per class when helm and go are there; each test is skipped, saying which is missing, when not. */
    @BeforeAll
    static void buildValidator() {
        if (!Command.onPath("helm") || !Command.onPath("go")) {
            return;
        }
        validator = Path.of(System.getProperty("project.basedir", "."), "target", "validate-manifests").toAbsolutePath();
        // Compiled once per machine into Go's build cache (.ci/run warms it), then only linked: a few seconds.
        Command.Result build = Command.run(List.of("go", "build", "-o", validator.toString(), "."),
                ROOT.resolve("deploy/validate-manifests"), "", Duration.ofMinutes(5));
        assertThat(build.exit).as(build.all()).isZero();
    }

    @BeforeEach
    void requireHelmAndGo() {
        SystemPackages.require("helm");
        SystemPackages.require("go");
    }

    private static String render(String... values) {
        return render(List.of(values));
    }

    private static String render(List<String> values) {
        List<String> command = new ArrayList<>(List.of("helm", "template", "load", CHART.toString(), "--namespace",
                NAMESPACE, "--set", "broker.host=" + BROKER));
        command.addAll(values);
        Command.Result r = Command.run(command, ROOT, "", HELM_TIMEOUT);
        assertThat(r.exit).as(r.all()).isZero();
        return r.out;
    }

    private static Command.Result validate(String manifests) {
        return Command.run(List.of(validator.toString()), ROOT, manifests, Duration.ofSeconds(30));
    }

    /** The rendered objects, by "Kind/name". */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> objects(String manifests) {
        Map<String, Map<String, Object>> objects = new LinkedHashMap<>();
        for (Object document : new Yaml().loadAll(manifests)) {
            if (document != null) {
                Map<String, Object> object = (Map<String, Object>) document;
                objects.put(object.get("kind") + "/" + at(object, "metadata", "name"), object);
            }
        }
        return objects;
    }

    /** The value at a path of map keys and list indexes. */
    @SuppressWarnings("unchecked")
    private static <T> T at(Object node, Object... path) {
        Object current = node;
        for (Object step : path) {
            current = step instanceof Integer ? ((List<Object>) current).get((Integer) step) : ((Map<String, Object>) current).get(step);
            assertThat(current).as("%s in %s", step, List.of(path)).isNotNull();
        }
        return (T) current;
    }

    /** A container's environment as the kubelet gives it: values, $(NAME) references expanded, field references resolved. */
    private static Map<String, String> environment(Map<String, Object> container, Map<String, String> fields) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map<String, Object> variable : HelmChartIT.<List<Map<String, Object>>>at(container, "env")) {
            String name = (String) variable.get("name");
            if (variable.containsKey("value")) {
                Matcher m = Pattern.compile("\\$\\((\\w+)\\)").matcher((String) variable.get("value"));
                env.put(name, m.replaceAll(r -> Matcher.quoteReplacement(env.getOrDefault(r.group(1), r.group()))));
            } else if (variable.containsKey("valueFrom") && at(variable, "valueFrom") instanceof Map
                    && ((Map<?, ?>) at(variable, "valueFrom")).containsKey("fieldRef")) {
                env.put(name, fields.get((String) at(variable, "valueFrom", "fieldRef", "fieldPath")));
            } else {
                env.put(name, "from-secret");
            }
        }
        return env;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"defaults", "everything on", "3 engines, Prometheus only"})
    void everyRenderedObject_decodesStrictlyIntoItsKubernetesType(String valueSet) {
        List<String> values = valueSet.equals("defaults") ? List.of()
                : valueSet.equals("everything on") ? EVERYTHING_ON
                : List.of("--set", "engines.replicas=3", "--set", "prometheus.enabled=true", "--set", "grafana.enabled=true");
        String manifests = render(values);
        Map<String, Map<String, Object>> objects = objects(manifests);

        Command.Result r = validate(manifests);

        assertThat(r.exit).as(r.all()).isZero();
        List<String> valid = r.out.lines().filter(l -> l.startsWith("valid ")).collect(Collectors.toList());
        assertThat(valid).as(r.all()).hasSize(objects.size()).hasSize((int) r.out.lines().count());
        List<String> expected = new ArrayList<>(List.of("Service/load-engines", "StatefulSet/load-engine", "Job/load-controller"));
        if (!valueSet.equals("defaults")) {
            expected.addAll(List.of("ConfigMap/load-prometheus", "Service/load-prometheus", "Deployment/load-prometheus",
                    "ConfigMap/load-grafana-datasources", "ConfigMap/load-grafana-dashboards", "Deployment/load-grafana",
                    "Service/load-grafana", "Secret/load-grafana"));
        }
        if (valueSet.equals("everything on")) {
            expected.addAll(List.of("ConfigMap/load-plan", "Service/load-influxdb", "Deployment/load-influxdb"));
        }
        assertThat(objects.keySet()).containsAll(expected);
    }

    @Test
    void helmLint_strict_passes() {
        for (List<String> values : List.of(List.<String>of(), EVERYTHING_ON)) {
            List<String> command = new ArrayList<>(List.of("helm", "lint", "--strict", CHART.toString(), "--set",
                    "broker.host=" + BROKER));
            command.addAll(values);
            Command.Result r = Command.run(command, ROOT, "", HELM_TIMEOUT);
            assertThat(r.exit).as(r.all()).isZero();
        }
    }

    @Test
    void validator_rejectsAnUnknownFieldAndAWrongType_anywhereInTheObject() {
        Map<String, Map<String, Object>> objects = objects(render());
        Map<String, Object> statefulSet = objects.get("StatefulSet/load-engine");
        Yaml yaml = new Yaml();
        assertThat(validate(yaml.dump(statefulSet)).exit).as("the object as rendered").isZero();

        Map<String, Object> unknownField = yaml.load(yaml.dump(statefulSet));
        HelmChartIT.<Map<String, Object>>at(unknownField, "spec").put("replica", 3);
        assertRejected(yaml.dump(unknownField), "unknown field \"spec.replica\"");

        Map<String, Object> unknownDeepField = yaml.load(yaml.dump(statefulSet));
        HelmChartIT.<Map<String, Object>>at(unknownDeepField, "spec", "template", "spec", "containers", 0)
                .put("imagePullPolcy", "Always");
        assertRejected(yaml.dump(unknownDeepField), "unknown field \"spec.template.spec.containers[0].imagePullPolcy\"");

        Map<String, Object> stringForNumber = yaml.load(yaml.dump(statefulSet));
        HelmChartIT.<Map<String, Object>>at(stringForNumber, "spec").put("replicas", "2");
        assertRejected(yaml.dump(stringForNumber),
                "cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32");

        Map<String, Object> numberForString = yaml.load(yaml.dump(statefulSet));
        HelmChartIT.<Map<String, Object>>at(numberForString, "spec", "template", "spec", "containers", 0, "env", 0)
                .put("value", 1);
        assertRejected(yaml.dump(numberForString), "cannot unmarshal number into Go struct field EnvVar");

        Map<String, Object> listForObject = yaml.load(yaml.dump(statefulSet));
        HelmChartIT.<Map<String, Object>>at(listForObject, "spec", "template", "spec", "containers", 0)
                .put("resources", List.of("cpu"));
        assertRejected(yaml.dump(listForObject), "cannot unmarshal array into Go struct field");

        Map<String, Object> unknownKind = yaml.load(yaml.dump(statefulSet));
        unknownKind.put("kind", "StatefulSett");
        assertRejected(yaml.dump(unknownKind), "no kind \"StatefulSett\" is registered");

        assertRejected("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n", "key \"name\" already set in map");

        // One bad object among good ones fails the whole stream, named.
        String withOneBad = render() + "---\n" + yaml.dump(unknownField);
        Command.Result r = validate(withOneBad);
        assertThat(r.exit).isEqualTo(1);
        assertThat(r.out.lines().filter(l -> l.startsWith("invalid "))).hasSize(1);
    }

    private static void assertRejected(String document, String reason) {
        Command.Result r = validate(document);
        assertThat(r.exit).as(r.all()).isEqualTo(1);
        assertThat(r.out).startsWith("invalid ").contains(reason);
    }

    @Test
    void engines_getStableDnsNamesAndTheirNumbers_andTheControllerCallsEveryOne(@TempDir Path stubs) {
        Map<String, Map<String, Object>> objects = objects(render("--set", "engines.replicas=3", "--set", "prometheus.enabled=true",
                "--set", "run.id=r-7", "--set", "run.properties.partitions=6"));
        Map<String, Object> service = objects.get("Service/load-engines");
        Map<String, Object> statefulSet = objects.get("StatefulSet/load-engine");
        assertThat((Object) at(service, "spec", "clusterIP")).isEqualTo("None");
        assertThat((Object) at(statefulSet, "spec", "serviceName")).isEqualTo("load-engines");
        assertThat((Object) at(statefulSet, "spec", "replicas")).isEqualTo(3);
        assertThat((Map<String, Object>) at(statefulSet, "spec", "template", "metadata", "labels"))
                .containsAllEntriesOf(at(service, "spec", "selector"));

        Entrypoint entrypoint = new Entrypoint(stubs);
        List<String> engineHosts = new ArrayList<>();
        for (int ordinal = 0; ordinal < 3; ordinal++) {
            String pod = "load-engine-" + ordinal;
            Map<String, String> env = environment(at(statefulSet, "spec", "template", "spec", "containers", 0),
                    Map.of("metadata.name", pod));
            Entrypoint.Run run = entrypoint.run(env);
            assertThat(run.result.exit).as(run.result.all()).isZero();
            String host = pod + ".load-engines." + NAMESPACE + ".svc";
            assertThat(run.command).contains("jmeter-server", "-Dserver_port=1099", "-Jserver.rmi.localport=4000",
                    "-Djava.rmi.server.hostname=" + host, "-Jserver.rmi.ssl.disable=true",
                    "-Jmqttload.engineNumber=" + (ordinal + 1), "-Jmqttload.engineId=engine-" + (ordinal + 1),
                    "-Jmqttload.prometheus.port=9270", "-Jmqttload.prometheus.host=0.0.0.0");
            engineHosts.add(host + ":1099");
        }

        Map<String, Object> job = objects.get("Job/load-controller");
        Map<String, Object> controller = at(job, "spec", "template", "spec", "containers", 0);
        Map<String, String> env = environment(controller, Map.of("status.podIP", "192.0.2.10"));
        assertThat(env).containsEntry("RESULTS_HOLD_SECONDS", "600");
        // The stand-in ends at once; the pod's wait for kubectl cp is DockerEntrypointIT's.
        env.put("RESULTS_HOLD_SECONDS", "0");
        List<String> args = at(controller, "args");
        Entrypoint.Run run = entrypoint.run(env, args.toArray(new String[0]));
        assertThat(run.result.exit).as(run.result.all()).isZero();
        assertThat(run.command).containsSubsequence("jmeter", "-n", "-t", "/plans/multi-publisher.jmx", "-R",
                String.join(",", engineHosts), "-Djava.rmi.server.hostname=192.0.2.10", "-Jclient.rmi.localport=4445",
                "-Jserver.rmi.ssl.disable=true", "-Jclient.tries=60", "-Gmqttload.runId=r-7", "-Gmqttload.engines=3",
                "-X", "-Gmqtt.host=" + BROKER, "-Gmqtt.port=1883", "-Gpartitions=6");
        assertThat((Object) at(job, "spec", "backoffLimit")).isEqualTo(0);
        assertThat((Object) at(job, "spec", "activeDeadlineSeconds")).isEqualTo(7200);
    }

    @Test
    void prometheus_scrapesEveryEngineByItsPodDnsName() {
        Map<String, Map<String, Object>> objects = objects(render("--set", "engines.replicas=3", "--set", "prometheus.enabled=true"));
        Map<String, Object> config = new Yaml().load((String) at(objects.get("ConfigMap/load-prometheus"), "data", "prometheus.yml"));
        List<String> targets = at(config, "scrape_configs", 0, "static_configs", 0, "targets");
        assertThat(targets).containsExactly("load-engine-0.load-engines.perf.svc:9270", "load-engine-1.load-engines.perf.svc:9270",
                "load-engine-2.load-engines.perf.svc:9270");

        Map<String, Map<String, Object>> withoutPrometheus = objects(render());
        Map<String, String> env = environment(at(withoutPrometheus.get("StatefulSet/load-engine"), "spec", "template", "spec",
                "containers", 0), Map.of("metadata.name", "load-engine-0"));
        assertThat(env).doesNotContainKey("PROMETHEUS_PORT");
    }

    @Test
    void grafana_servesTheRepositorysDashboardsAndDatasourcesUnchanged_forTheEnabledSources() throws Exception {
        Path grafana = GrafanaDashboards.grafanaDirectory();
        Map<String, Map<String, Object>> all = objects(render(EVERYTHING_ON));
        Map<String, String> dashboards = at(all.get("ConfigMap/load-grafana-dashboards"), "data");
        assertThat(dashboards.keySet()).containsExactlyInAnyOrderElementsOf(
                GrafanaDashboards.allFiles().stream().map(p -> p.getFileName().toString()).collect(Collectors.toList()));
        for (Path file : GrafanaDashboards.allFiles()) {
            assertThat(trimEnd(dashboards.get(file.getFileName().toString()))).as(file.toString()).isEqualTo(trimEnd(read(file)));
        }
        Map<String, String> datasources = at(all.get("ConfigMap/load-grafana-datasources"), "data");
        assertThat(datasources).hasSize(2);
        for (Map.Entry<String, String> d : datasources.entrySet()) {
            assertThat(trimEnd(d.getValue())).isEqualTo(trimEnd(read(grafana.resolve("provisioning/datasources").resolve(d.getKey()))));
        }
        assertThat(trimEnd(at(all.get("ConfigMap/load-grafana-dashboard-provider"), "data", "mqttload.yaml")))
                .isEqualTo(trimEnd(read(grafana.resolve("provisioning/dashboards/mqttload.yaml"))));

        // With Prometheus alone: its data source and exactly the dashboards whose queries go to Prometheus.
        Map<String, Map<String, Object>> prometheusOnly = objects(render("--set", "prometheus.enabled=true", "--set",
                "grafana.enabled=true"));
        Map<String, String> prometheusDashboards = at(prometheusOnly.get("ConfigMap/load-grafana-dashboards"), "data");
        assertThat(prometheusDashboards.keySet()).containsExactlyInAnyOrderElementsOf(GrafanaDashboards.files("prometheus")
                .stream().map(p -> p.getFileName().toString()).collect(Collectors.toList()));
        assertThat(((Map<String, String>) at(prometheusOnly.get("ConfigMap/load-grafana-datasources"), "data")).keySet())
                .containsExactly("mqttload-prometheus.yaml");
        Map<String, String> env = environment(at(all.get("Deployment/load-grafana"), "spec", "template", "spec", "containers", 0),
                new HashMap<>());
        assertThat(env).containsEntry("INFLUX_URL", "http://load-influxdb:8086")
                .containsEntry("PROMETHEUS_URL", "http://load-prometheus:9090");
    }

    private static String read(Path file) throws Exception {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** A YAML block scalar keeps one final line break of its text (clip): the rest of the text must be the file's. */
    private static String trimEnd(String text) {
        return text.replaceAll("\\n+$", "");
    }

    @Test
    void missingBrokerOrKeystore_failsTheRender_namingTheValue() {
        Command.Result noBroker = Command.run(List.of("helm", "template", "load", CHART.toString()), ROOT, "", HELM_TIMEOUT);
        assertThat(noBroker.exit).isNotZero();
        assertThat(noBroker.err).contains("broker.host");
        Command.Result noKeystore = Command.run(List.of("helm", "template", "load", CHART.toString(), "--set", "broker.host=b",
                "--set", "rmi.ssl.enabled=true"), ROOT, "", HELM_TIMEOUT);
        assertThat(noKeystore.exit).isNotZero();
        assertThat(noKeystore.err).contains("rmi.ssl.keystoreSecret");
    }
}
