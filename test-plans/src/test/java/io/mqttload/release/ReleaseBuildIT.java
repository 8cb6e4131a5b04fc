package io.mqttload.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.testsupport.Command;
import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.SystemPackages;

/**
 * The release as docs/releasing.md runs it ({@code -Prelease -pl plugin -am deploy} with a key), in a copy of the
 * sources, deployed to a directory instead of Maven Central: what lands there is what Central would get. It must be
 * what Central requires: the jar with sources, javadoc and a signature for each, a POM with the project's metadata
 * that names none of the libraries the jar bundles, the parent POM, and no test jar.
 */
class ReleaseBuildIT {
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(10);
    private static final String GROUP_PATH = "io/mqttload";
    /** What the shaded jar bundles: a dependency of the published POM on one of them would pull it in twice. */
    private static final List<String> BUNDLED = List.of("com.hivemq", "io.netty", "org.hdrhistogram", "info.picocli",
            "io.prometheus");

    private static Path projectRoot() {
        return Path.of(System.getProperty("project.basedir", ".")).toAbsolutePath().getParent();
    }

    @Test
    void theReleaseProfile_deploysWhatMavenCentralRequires(@TempDir Path dir) throws Exception {
        SystemPackages.require("/usr/bin/gpg");
        Path sources = copySources(dir.resolve("src"));
        Path gnupgHome = Files.createDirectories(dir.resolve("gnupg"));
        Files.setPosixFilePermissions(gnupgHome, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Map<String, String> gpgEnv = Map.of("GNUPGHOME", gnupgHome.toString());
        run(dir, gpgEnv, Duration.ofMinutes(2), "gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "",
                "--quick-gen-key", "Release Check <release-check@example.invalid>", "rsa2048", "sign", "never");
        Path repository = dir.resolve("repository");
        try {
            deployAndCheck(dir, sources, gpgEnv, repository);
        } finally {
            // The agent gpg started for this key ring would outlive the test.
            run(dir, gpgEnv, Duration.ofMinutes(1), "gpgconf", "--kill", "gpg-agent");
        }
    }

    private static void deployAndCheck(Path dir, Path sources, Map<String, String> gpgEnv, Path repository)
            throws Exception {
        run(sources, gpgEnv, BUILD_TIMEOUT, "./mvnw", "-B", "-ntp", "-Prelease", "-pl", "plugin", "-am",
                "deploy", "-DskipTests", "-Dcheckstyle.skip", "-Dspotbugs.skip", "-Dmaven.install.skip=true",
                "-Dgpg.keyname=release-check@example.invalid", "-DaltDeploymentRepository=check::file://" + repository);

        Path pluginDir = onlyVersionDir(repository.resolve(GROUP_PATH + "/mqtt-load-jmeter"));
        List<String> files = names(pluginDir);
        assertThat(files).as("the plugin's deployed files").anyMatch(f -> f.matches("mqtt-load-jmeter-.*\\d\\.jar"))
                .anyMatch(f -> f.endsWith("-sources.jar")).anyMatch(f -> f.endsWith("-javadoc.jar"))
                .anyMatch(f -> f.endsWith(".pom")).noneMatch(f -> f.contains("-tests"));
        for (String f : files) {
            if (f.endsWith(".jar") || f.endsWith(".pom")) {
                assertThat(files).as("a signature for " + f).contains(f + ".asc");
                run(dir, gpgEnv, Duration.ofMinutes(1), "gpg", "--batch", "--verify",
                        pluginDir.resolve(f + ".asc").toString(), pluginDir.resolve(f).toString());
            }
        }
        try (JarFile jar = new JarFile(pluginDir.resolve(files.stream().filter(f -> f.matches(".*\\d\\.jar"))
                .findFirst().orElseThrow()).toFile())) {
            assertThat(jar.getEntry("io/mqttload/shaded/com/hivemq/client/")).as("the shaded jar").isNotNull();
            assertThat(jar.getEntry("META-INF/LICENSE")).isNotNull();
        }

        Document pom = xml(pluginDir.resolve(files.stream().filter(f -> f.endsWith(".pom")).findFirst().orElseThrow()));
        NodeList dependencies = pom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            String group = text(d, "groupId");
            String scope = text(d, "scope");
            assertThat(scope).as("%s:%s: only what JMeter provides, or the tests'", group, text(d, "artifactId"))
                    .isIn("provided", "test");
            if (!scope.equals("test")) {
                assertThat(BUNDLED).as("published dependency %s:%s is bundled in the jar", group, text(d, "artifactId"))
                        .noneMatch(group::startsWith);
            }
        }
        assertThat(text(pom.getDocumentElement(), "parent")).as("the published POM names its parent").isNotEmpty();

        Path parentDir = onlyVersionDir(repository.resolve(GROUP_PATH + "/mqtt-load-parent"));
        Document parent = xml(parentDir.resolve(names(parentDir).stream().filter(f -> f.endsWith(".pom")).findFirst()
                .orElseThrow()));
        Element root = parent.getDocumentElement();
        for (String required : List.of("name", "description", "url")) {
            assertThat(text(root, required)).as("the parent's " + required).isNotBlank().doesNotContain("${");
        }
        assertThat(text(root, "licenses")).contains("Apache-2.0");
        assertThat(text(root, "developers")).isNotBlank();
        assertThat(text(root, "scm")).contains("https://github.com/").doesNotContain("${");
        assertThat(names(parentDir)).anyMatch(f -> f.endsWith(".pom.asc"));
        assertThat(repository.resolve(GROUP_PATH + "/mqtt-load-test-plans")).as("test-plans is not released")
                .doesNotExist();

        // The public Plugins Manager entry downloads the very jar deployed, from Maven Central's layout.
        String version = pluginDir.getFileName().toString();
        JsonNode entry = new ObjectMapper().readTree(sources.resolve("plugin/target/plugins-manager-public/mqtt-load.json")
                .toFile()).get(0);
        assertThat(entry.path("versions").path(version).path("downloadUrl").asText()).isEqualTo(
                "https://repo1.maven.org/maven2/" + GROUP_PATH + "/mqtt-load-jmeter/" + version + "/mqtt-load-jmeter-"
                        + version + ".jar");
        assertThat(entry.path("componentClasses")).isNotEmpty();
    }

    /** The files a release build reads: the POMs, the wrapper, the plugin's sources and the shared configuration. */
    private static Path copySources(Path to) throws IOException {
        Path root = projectRoot();
        for (String entry : List.of("pom.xml", "mvnw", ".mvn", "config", "LICENSE", "NOTICE", "plugin/pom.xml",
                "plugin/src/main", "plugin/config", "test-plans/pom.xml")) {
            Path from = root.resolve(entry);
            try (Stream<Path> tree = Files.walk(from)) {
                for (Path p : tree.collect(Collectors.toList())) {
                    Path target = to.resolve(root.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
        return to;
    }

    /** Runs a command to its end with this JVM's environment and Java, plus {@code env}; fails the test unless it exits 0. */
    private static void run(Path dir, Map<String, String> env, Duration timeout, String... command) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.putAll(env);
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        // A short build, beside the other ITs: the client compiler alone halves its CPU (62 to 35 s for a package).
        environment.put("MAVEN_OPTS", (environment.getOrDefault("MAVEN_OPTS", "") + " " + JMeterEngines.JIT).trim());
        Command.Result r = Command.run(List.of(command), dir, environment, "", timeout);
        String all = r.all();
        assertThat(r.exit).as("%s:%n%s", String.join(" ", command),
                all.length() <= 6_000 ? all : all.substring(all.length() - 6_000)).isZero();
    }

    /** The one version directory under an artifact's directory (a SNAPSHOT deploys with timestamped names). */
    private static Path onlyVersionDir(Path artifact) throws IOException {
        assertThat(artifact).as("deployed: " + artifact).isDirectory();
        try (Stream<Path> versions = Files.list(artifact)) {
            List<Path> dirs = versions.filter(Files::isDirectory).collect(Collectors.toList());
            assertThat(dirs).hasSize(1);
            return dirs.get(0);
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> !f.startsWith("maven-metadata"))
                    .sorted().collect(Collectors.toCollection(ArrayList::new));
        }
    }

    private static Document xml(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    /** The text of {@code parent}'s first child element named {@code name}, or "" when it has none. */
    private static String text(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element && ((Element) children.item(i)).getTagName().equals(name)) {
                return children.item(i).getTextContent().trim();
            }
        }
        return "";
    }
}
