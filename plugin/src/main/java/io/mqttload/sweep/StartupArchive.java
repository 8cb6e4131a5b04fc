package io.mqttload.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The class-data-sharing archive of JMeter and the plugin that the build makes in the JMeter home's {@code bin/}
 * (a short training run with {@code -XX:ArchiveClassesAtExit}, test-plans/pom.xml): JMeter started with it maps the
 * classes it loaded then instead of reading, parsing and verifying them again (docs/performance.md, "Start-up").
 * An archive only fits the JVM build that made it; the JVM itself would fall back quietly on another one, so the
 * launchers check the build recorded next to it and say why they start JMeter without it.
 */
public final class StartupArchive {
    /** The archive, next to JMeter's jar. */
    public static final String FILE = "mqtt-load.jsa";
    /** The {@code java.vm.version} of the JVM that made it: the one that can use it. */
    public static final String JDK_FILE = FILE + ".jdk";

    private StartupArchive() {
    }

    /** The JVM arguments that use the archive next to {@code jmeterJar}, none when {@link #problem} has a reason. */
    public static List<String> jvmArgs(Path jmeterJar) {
        return problem(jmeterJar).isEmpty()
                ? List.of("-XX:SharedArchiveFile=" + jmeterJar.resolveSibling(FILE).toAbsolutePath())
                : List.of();
    }

    /** Why JMeter starts without the archive (for this JVM, {@code java.vm.version}), or "" when it uses it. */
    public static String problem(Path jmeterJar) {
        return problem(jmeterJar, System.getProperty("java.vm.version"));
    }

    static String problem(Path jmeterJar, String jvm) {
        Path archive = jmeterJar.resolveSibling(FILE);
        Path made = jmeterJar.resolveSibling(JDK_FILE);
        if (!Files.isRegularFile(archive) || !Files.isRegularFile(made)) {
            return "no start-up archive " + archive + " (the build makes it: ./mvnw -B -ntp -DskipTests package)";
        }
        String by;
        try {
            by = Files.readString(made, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "start-up archive " + archive + ": cannot read " + made + ": " + e.getMessage();
        }
        if (!by.equals(jvm)) {
            return "start-up archive " + archive + " was made by JVM " + by + ", this is " + jvm
                    + " (build again to make one for it)";
        }
        return "";
    }
}
