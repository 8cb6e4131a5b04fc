package io.mqttload.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The executables the tests start from outside Maven (brokers, InfluxDB, Prometheus, a browser, helm...), as
 * {@code .ci/system-packages.tsv} declares them. A test that needs one that is missing fails, naming the Debian package
 * to install; it is skipped instead only when the user asked for it with {@code -DskipSystemPackageTests}. A test
 * command that passes by skipping what it could not start would say nothing about the product.
 */
public final class SystemPackages {
    /** The Maven property, passed to the test JVMs, that turns a missing executable into a skipped test. */
    public static final String SKIP_PROPERTY = "skipSystemPackageTests";
    private static final Path DECLARATION = Path.of(".ci", "system-packages.tsv");
    private static final Map<String, String[]> DECLARED = read(GrafanaDashboards.repositoryRoot().resolve(DECLARATION));

    private SystemPackages() {
    }

    /**
     * Fails the calling test (or skips it, with {@code -DskipSystemPackageTests}) when {@code executable}, a path or a
     * command of the declaration, is missing, naming its package and what needs it.
     */
    public static void require(String executable) {
        require(executable, isPresent(executable));
    }

    /**
     * As {@link #require(String)}, for an executable the caller found (or not) at a place it was told to look
     * ({@code -Dmqttload.mosquitto=...} and the like), still named by its declared path.
     */
    public static void require(String executable, boolean present) {
        String[] declared = DECLARED.get(executable);
        if (declared == null) {
            throw new IllegalArgumentException(executable + " is not declared in " + DECLARATION);
        }
        if (present) {
            return;
        }
        String install = "-".equals(declared[0]) ? "not a Debian package; .ci/run provides it"
                : "apt-get install " + declared[0] + ", or run .ci/run, which installs what is missing";
        String message = executable + " is missing (" + install + "), needed by " + declared[1];
        if (Boolean.getBoolean(SKIP_PROPERTY)) {
            Assumptions.abort(message + "; skipped as -D" + SKIP_PROPERTY + " asks");
        }
        Assertions.fail(message + "; to skip the tests that need system packages: -D" + SKIP_PROPERTY);
    }

    /** Whether the declared executable is there: an absolute path is executable, a bare name is on PATH. */
    public static boolean isPresent(String executable) {
        return executable.startsWith("/") ? Files.isExecutable(Path.of(executable)) : Command.onPath(executable);
    }

    private static Map<String, String[]> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the declaration of system packages " + file, e);
        }
        Map<String, String[]> declared = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] columns = line.split("\t", -1);
            if (columns.length != 3) {
                throw new IllegalStateException(file + ": not three tab-separated columns: " + line);
            }
            declared.put(columns[0], new String[] {columns[1], columns[2]});
        }
        return declared;
    }

    /** Every declared executable, for the test that keeps the declaration and the tests in step. */
    public static List<String> declared() {
        return List.copyOf(DECLARED.keySet());
    }
}
