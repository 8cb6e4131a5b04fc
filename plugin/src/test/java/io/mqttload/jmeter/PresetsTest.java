package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.engine.RunConfig;

/**
 * The seed-size presets of {@code test-plans/presets}: JMeter's {@code -q} accepts any name silently, so a
 * mistyped or stale property would leave the plan at its laptop default while the user believes the seed's
 * size is running. Every property of a preset must be one its plan reads, or an engine-wide setting.
 */
class PresetsTest {
    private static final Path TEST_PLANS = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans")
            .normalize();
    private static final Pattern PLAN_PROPERTY = Pattern.compile("__P\\(([^,)]+)");

    static Stream<Path> presets() throws IOException {
        try (Stream<Path> files = Files.list(TEST_PLANS.resolve("presets"))) {
            List<Path> list = files.filter(p -> p.toString().endsWith(".properties")).sorted()
                    .collect(java.util.stream.Collectors.toList());
            assertThat(list).as("presets in " + TEST_PLANS.resolve("presets")).hasSizeGreaterThan(30);
            return list.stream();
        }
    }

    /** A preset belongs to the plan whose name is the longest prefix of the preset's name. */
    private static Optional<Path> planOf(Path preset) throws IOException {
        String name = preset.getFileName().toString();
        try (Stream<Path> plans = Files.list(TEST_PLANS.resolve("plans"))) {
            return plans.filter(p -> {
                String plan = p.getFileName().toString().replaceFirst("\\.jmx$", "");
                return name.startsWith(plan + "-") || name.equals(plan + ".properties");
            }).max(Comparator.comparingInt(p -> p.getFileName().toString().length()));
        }
    }

    private static Set<String> engineWideProperties() throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Class<?> c : List.of(RunConfig.class, MqttBrokerMonitor.class)) {
            for (Field f : c.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
                        && String.valueOf(f.get(null)).startsWith("mqttload.")) {
                    names.add((String) f.get(null));
                }
            }
        }
        return names;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presets")
    void preset_setsOnlyPropertiesItsPlanReads(Path preset) throws Exception {
        Optional<Path> plan = planOf(preset);
        assertThat(plan).as("a plan in test-plans/plans whose name starts " + preset.getFileName()).isPresent();
        Set<String> read = new TreeSet<>();
        Matcher m = PLAN_PROPERTY.matcher(Files.readString(plan.get(), StandardCharsets.UTF_8));
        while (m.find()) {
            read.add(m.group(1).trim());
        }
        read.addAll(engineWideProperties());
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(preset, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        List<String> unknown = new ArrayList<>();
        for (String key : p.stringPropertyNames()) {
            if (!read.contains(key)) {
                unknown.add(key);
            }
        }
        assertThat(unknown).as(preset.getFileName() + " sets properties " + plan.get().getFileName()
                + " does not read (it reads " + read + ")").isEmpty();
        assertThat(p.stringPropertyNames()).as(preset.getFileName() + " sets something").isNotEmpty();
    }
}
