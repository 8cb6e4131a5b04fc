package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The capacity search presets of {@code test-plans/search} (picocli argument files, one per seed question): each
 * parses as a search, names a plan and property files that exist, searches a property its plan reads, and sets with
 * {@code -J} only properties the plan reads, so that a stale name cannot leave the plan at its default unnoticed.
 */
class SearchPresetsTest {
    private static final Path ROOT = Path.of(System.getProperty("project.basedir", "."), "..").normalize();
    private static final Pattern PLAN_PROPERTY = Pattern.compile("__P\\(([^,)]+)");

    static Stream<Path> presets() throws IOException {
        try (Stream<Path> files = Files.list(ROOT.resolve("test-plans/search"))) {
            List<Path> list = files.filter(p -> p.toString().endsWith(".args")).sorted().collect(Collectors.toList());
            assertThat(list).as("search presets").hasSizeGreaterThanOrEqualTo(4);
            return list.stream();
        }
    }

    /** The file's arguments, picocli's way (one per line here, # comments), paths made absolute from the root. */
    private static List<String> arguments(Path preset) throws IOException {
        List<String> args = new ArrayList<>();
        for (String line : Files.readAllLines(preset, StandardCharsets.UTF_8)) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            for (String word : t.split("\\s+")) {
                args.add(word.startsWith("test-plans/") ? ROOT.resolve(word).toString() : word);
            }
        }
        return args;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presets")
    void preset_parsesAsASearch_overPropertiesItsPlanReads(Path preset, @TempDir Path dir) throws Exception {
        List<String> args = arguments(preset);
        Files.createDirectories(dir.resolve("home/bin"));
        args.addAll(List.of("--out", dir.resolve("out").toString(), "--jmeter-home", dir.resolve("home").toString()));

        SweepOptions o = SweepOptions.parse(args.toArray(new String[0]));

        assertThat(o.capacity.searching()).isTrue();
        Set<String> read = new TreeSet<>();
        Matcher m = PLAN_PROPERTY.matcher(Files.readString(o.plan, StandardCharsets.UTF_8));
        while (m.find()) {
            read.add(m.group(1).trim());
        }
        assertThat(read).as(o.plan + " reads the searched property").contains(o.capacity.property, o.capacity.durationProperty);
        for (Map.Entry<String, String> p : o.localProperties.entrySet()) {
            assertThat(read).as(preset.getFileName() + ": -J" + p.getKey() + " is read by " + o.plan.getFileName())
                    .contains(p.getKey());
        }
        assertThat(o.propertyFiles).allSatisfy(q -> assertThat(q).isRegularFile());
    }
}
