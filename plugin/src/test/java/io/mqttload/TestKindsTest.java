package io.mqttload;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import io.mqttload.testsupport.SystemPackages;

/**
 * The tests of the tests: which kind of test a class is decides what it may do. A unit test ({@code *Test}) starts no
 * process and opens no socket, so it runs in milliseconds on any machine; a contract with a real broker, JMeter, an
 * engine process, a server, a browser or the GUI is an {@code *IT}. {@code testsupport.UnitTestIsolation} watches the
 * unit tests at run time; this rule holds the same line where a JVM cannot be watched, by what the classes use.
 */
class TestKindsTest {
    private static final JavaClasses TESTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS).importPackages("io.mqttload");

    /** The test support that starts processes or opens sockets: for ITs only. */
    private static final String[] PROCESS_AND_SOCKET_SUPPORT = {"io.mqttload.testsupport.MosquittoBroker",
        "io.mqttload.testsupport.RabbitMqBroker", "io.mqttload.testsupport.EmbeddedHiveMqBroker",
        "io.mqttload.testsupport.InfluxDbServer", "io.mqttload.testsupport.PrometheusServer",
        "io.mqttload.testsupport.JMeterEngines", "io.mqttload.testsupport.FreePorts", "io.mqttload.testsupport.TcpProxy",
        "io.mqttload.testsupport.RateLimitedProxy", "io.mqttload.testsupport.RawMqttServer",
        "io.mqttload.testsupport.RecordingHttpServer", "io.mqttload.testsupport.HeadlessChromium",
        "io.mqttload.testsupport.Xvfb", "io.mqttload.testsupport.Command", "io.mqttload.testsupport.Processes",
        "io.mqttload.testsupport.FakeTime", "io.mqttload.testsupport.ProxySockets"};

    @Test
    void unitTests_useNoProcessNorSocket() {
        noClasses().that().haveSimpleNameEndingWith("Test")
                .should().dependOnClassesThat().haveNameMatching("java\\.lang\\.(ProcessBuilder|Runtime)")
                .orShould().dependOnClassesThat().resideInAnyPackage("java.net.http..", "com.sun.net.httpserver..")
                .orShould().dependOnClassesThat()
                .haveNameMatching("java\\.net\\.(Server)?Socket|java\\.nio\\.channels\\.(Server)?SocketChannel")
                .orShould().dependOnClassesThat().haveNameMatching(String.join("|", PROCESS_AND_SOCKET_SUPPORT)
                        .replace(".", "\\.") + "(\\$.*)?")
                .because("a *Test starts no process and opens no socket (CONTRIBUTING.md, \"Which test a change"
                        + " needs\"): make it an *IT, or drive the engine through testsupport.memory")
                .check(TESTS);
    }

    @Test
    void everyTestClass_isOfOneKind() {
        // A class with tests named neither *Test (surefire) nor *IT (failsafe) would never run.
        List<String> neither = TESTS.stream()
                .filter(c -> c.getMethods().stream().anyMatch(m -> m.isAnnotatedWith(Test.class)
                        || m.isAnnotatedWith("org.junit.jupiter.params.ParameterizedTest")))
                .map(c -> topLevel(c).getSimpleName())
                .filter(n -> !n.endsWith("Test") && !n.endsWith("IT"))
                .distinct().collect(Collectors.toList());
        assertThat(neither).as("test classes that neither surefire nor failsafe picks up").isEmpty();
    }

    private static JavaClass topLevel(JavaClass c) {
        return c.getEnclosingClass().map(TestKindsTest::topLevel).orElse(c);
    }

    @Test
    void everyDeclaredSystemPackage_isAsked() throws IOException {
        Path root = Path.of(System.getProperty("project.basedir", "."), "..").normalize();
        String sources;
        try (Stream<Path> files = Stream.concat(Files.walk(root.resolve("plugin/src/test/java")),
                Files.walk(root.resolve("test-plans/src/test/java")))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).map(TestKindsTest::read)
                    .collect(Collectors.joining("\n"));
        }
        // A declared executable no test asks for would make the test command demand a package for nothing.
        for (String executable : SystemPackages.declared()) {
            assertThat(sources).as(executable + " is declared in .ci/system-packages.tsv").contains('"' + executable
                    + '"');
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
