package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.testsupport.JMeterTestEngine;

/** Like JMeter's TestSaveService: every plan we ship loads and saves back byte for byte, so the GUI changes nothing. */
class PlanFilesTest {
    static Stream<Path> plans() throws IOException {
        Path dir = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans").normalize();
        Path build = dir.resolve("target");
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> jmx = files.filter(p -> p.toString().endsWith(".jmx") && !p.startsWith(build)).sorted()
                    .collect(Collectors.toList());
            return jmx.stream();
        }
    }

    @Test
    void thePlansFolder_isNotEmpty() throws IOException {
        assertThat(plans()).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("plans")
    void plan_loadsAndSavesUnchanged(Path plan, @TempDir Path dir) throws IOException {
        HashTree tree = JMeterTestEngine.load(plan);
        Path saved = dir.resolve("saved.jmx");
        JMeterTestEngine.save(tree, saved);

        String original = Files.readString(plan, StandardCharsets.UTF_8);
        assertThat(Files.readString(saved, StandardCharsets.UTF_8)).as(plan.toString()).isEqualTo(original);
    }
}
