package io.mqttload.grafana;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.yaml.snakeyaml.Yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.testsupport.GrafanaDashboards;
import io.mqttload.testsupport.SystemPackages;

/**
 * The docker-compose stack without a Docker engine: Debian's docker-compose accepts the file, the JMeter image
 * takes the JMeter version and the plugin jar this build makes, and the engines, Grafana's mounts and the
 * controller fit together.
 */
class DockerComposeIT {
    private static final Path ROOT = GrafanaDashboards.repositoryRoot();

    /** Runs docker-compose with {@code args} on the repository's file; returns its exit code and output. */
    private static Result dockerCompose(String... args) throws Exception {
        SystemPackages.require("docker-compose");
        List<String> command = new ArrayList<>(List.of("docker-compose", "-f", ROOT.resolve("docker-compose.yml").toString()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("docker-compose", ".out");
        try {
            Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("docker-compose " + String.join(" ", args) + " did not end within 60 s");
            }
            return new Result(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static final class Result {
        final int exit;
        final String output;

        Result(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    /**
     * The resolved YAML of {@code docker-compose config} as a tree (SnakeYAML: Jackson's YAML module needs a newer
     * jackson-core than JMeter's).
     */
    private static JsonNode yaml(String text) {
        return new ObjectMapper().valueToTree(new Yaml().load(text));
    }

    private static String pomValue(Path pom, String xpath) throws Exception {
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        return XPathFactory.newInstance().newXPath().evaluate(xpath, d).trim();
    }

    private static String dockerfileArg(String dockerfile, String name) {
        Matcher m = Pattern.compile("(?m)^ARG\\s+" + name + "=(\\S+)\\s*$").matcher(dockerfile);
        assertThat(m.find()).as("ARG " + name + " in the Dockerfile").isTrue();
        return m.group(1);
    }

    @Test
    void dockerComposeConfig_acceptsTheComposeFile() throws Exception {
        Result r = dockerCompose("config", "-q");
        assertThat(r.exit).as(r.output).isZero();
    }

    @Test
    void dockerfile_takesTheBuildsJMeterVersionAndPluginJar() throws Exception {
        String dockerfile = Files.readString(ROOT.resolve("docker/jmeter/Dockerfile"));
        String jmeterVersion = pomValue(ROOT.resolve("pom.xml"), "/project/properties/jmeter.version");
        String projectVersion = pomValue(ROOT.resolve("pom.xml"), "/project/version");
        String artifactId = pomValue(ROOT.resolve("plugin/pom.xml"), "/project/artifactId");
        assertThat(jmeterVersion).isNotEmpty();

        assertThat(dockerfileArg(dockerfile, "JMETER_VERSION")).isEqualTo(jmeterVersion);
        assertThat(dockerfile).contains("https://archive.apache.org/dist/jmeter/binaries/apache-jmeter-${JMETER_VERSION}.tgz");
        assertThat(dockerfileArg(dockerfile, "PLUGIN_VERSION")).isEqualTo(projectVersion);
        // The jar the shade plugin leaves in plugin/target, under the name the build gives it.
        assertThat(dockerfile).containsPattern("(?m)^COPY plugin/target/" + Pattern.quote(artifactId)
                + "-\\$\\{PLUGIN_VERSION\\}\\.jar \\$\\{JMETER_HOME\\}/lib/ext/\\s*$");
        String dockerignore = Files.readString(ROOT.resolve(".dockerignore"));
        assertThat(dockerignore).contains("!plugin/target/" + artifactId + "-*.jar");
    }

    @Test
    void engines_advertiseTheirServiceNameAndHaveTheirOwnIdentity_andTheControllerCallsThemAll() throws Exception {
        Result r = dockerCompose("--profile", "run", "config");
        assertThat(r.exit).as(r.output).isZero();
        JsonNode services = yaml(r.output).path("services");
        List<String> engines = new ArrayList<>();
        List<String> engineNumbers = new ArrayList<>();
        services.fields().forEachRemaining(e -> {
            String command = e.getValue().path("command").asText();
            if (command.startsWith("jmeter-server")) {
                engines.add(e.getKey() + ":1099");
                assertThat(command).as(e.getKey()).contains("-Djava.rmi.server.hostname=" + e.getKey() + " ")
                        .contains("-Dserver_port=1099").contains("-Jserver.rmi.localport=4000")
                        .contains("-Jserver.rmi.ssl.disable=true").contains("-Jmqttload.engineId=engine-")
                        // Each engine is a container of its own: one port for all, on every interface of it.
                        .contains("-Jmqttload.prometheus.port=9270").contains("-Jmqttload.prometheus.host=0.0.0.0")
                        .contains("-Jmqttload.prometheus.pushgateway=http://pushgateway:9091");
                Matcher n = Pattern.compile("-Jmqttload\\.engineNumber=(\\d+)").matcher(command);
                assertThat(n.find()).as(e.getKey()).isTrue();
                engineNumbers.add(n.group(1));
            }
        });
        assertThat(engines).hasSizeGreaterThanOrEqualTo(2);
        assertThat(engineNumbers).doesNotHaveDuplicates();
        // Prometheus scrapes every engine and the Pushgateway, keeping the pushed labels.
        String scrape = Files.readString(GrafanaDashboards.repositoryRoot().resolve("docker/prometheus/prometheus.yml"));
        for (String engine : engines) {
            assertThat(scrape).contains("'" + engine.replace(":1099", ":9270") + "'");
        }
        assertThat(scrape).containsPattern("job_name: pushgateway\\s+honor_labels: true\\s+static_configs:\\s+- targets:"
                + " \\['pushgateway:9091'\\]");
        assertThat(services.path("prometheus").path("volumes").toString()).contains("/etc/prometheus/prometheus.yml");
        StringBuilder controller = new StringBuilder();
        services.path("controller").path("entrypoint").forEach(a -> controller.append(a.asText()).append(' '));
        assertThat(controller.toString()).contains("-R " + String.join(",", engines) + " ")
                .contains("-Gmqttload.engines=" + engines.size() + " ").contains("-Jserver.rmi.ssl.disable=true")
                .contains("-Djava.rmi.server.hostname=controller");
    }

    @Test
    void grafana_mountsTheProvisioningAndTheDashboardsWhereTheProviderLooks() throws Exception {
        Result r = dockerCompose("config");
        assertThat(r.exit).as(r.output).isZero();
        JsonNode grafana = yaml(r.output).path("services").path("grafana");
        String provider = Files.readString(GrafanaDashboards.grafanaDirectory().resolve("provisioning/dashboards/mqttload.yaml"));
        Matcher path = Pattern.compile("(?m)^\\s+path:\\s*(\\S+)\\s*$").matcher(provider);
        assertThat(path.find()).isTrue();
        List<String> mounts = new ArrayList<>();
        // docker-compose 1.29 resolves them to the short form, source:target:mode.
        grafana.path("volumes").forEach(v -> {
            String[] parts = v.asText().split(":");
            mounts.add(Path.of(parts[0]).normalize() + " -> " + parts[1]);
        });
        Path g = GrafanaDashboards.grafanaDirectory();
        assertThat(mounts).contains(g.resolve("provisioning/datasources") + " -> /etc/grafana/provisioning/datasources",
                g.resolve("provisioning/dashboards") + " -> /etc/grafana/provisioning/dashboards",
                g.resolve("dashboards") + " -> " + path.group(1));
        assertThat(grafana.path("environment").path("GF_AUTH_ANONYMOUS_ENABLED").asText()).isEqualTo("true");
        // The datasource file reads these from the environment.
        String datasources = Files.readString(g.resolve("provisioning/datasources/mqttload-influxdb.yaml"))
                + Files.readString(g.resolve("provisioning/datasources/mqttload-prometheus.yaml"));
        for (String variable : List.of("INFLUX_URL", "INFLUX_DB", "PROMETHEUS_URL")) {
            assertThat(datasources).contains("${" + variable + "}");
            assertThat(grafana.path("environment").path(variable).asText()).as(variable).isNotEmpty();
        }
    }
}
