package io.mqttload.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command run to its end with a bounded wait (helm, go, bash scripts): its standard input from a string, its output
 * and errors through files, so a large output cannot block it on a full pipe.
 */
public final class Command {
    private Command() {
    }

    /** What a command left: its exit code, standard output and standard error. */
    public static final class Result {
        public final int exit;
        public final String out;
        public final String err;

        Result(int exit, String out, String err) {
            this.exit = exit;
            this.out = out;
            this.err = err;
        }

        /** Both streams, for assertion messages. */
        public String all() {
            return out + err;
        }
    }

    /** True when {@code program} is an executable file in a directory of PATH. */
    public static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code command} in {@code directory} with this JVM's environment. */
    public static Result run(List<String> command, Path directory, String input, Duration timeout) {
        return run(command, directory, null, input, timeout);
    }

    /**
     * Runs {@code command} in {@code directory}; {@code environment}, when not null, replaces this JVM's environment
     * whole. Fails the test when it has not ended within {@code timeout} (the process is killed).
     */
    public static Result run(List<String> command, Path directory, Map<String, String> environment, String input,
            Duration timeout) {
        Path in = null;
        Path out = null;
        Path err = null;
        try {
            in = Files.createTempFile("command", ".in");
            out = Files.createTempFile("command", ".out");
            err = Files.createTempFile("command", ".err");
            Files.writeString(in, input == null ? "" : input, StandardCharsets.UTF_8);
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (environment != null) {
                builder.environment().clear();
                builder.environment().putAll(environment);
            }
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                Processes.stop(process, Duration.ofSeconds(5));
                throw new AssertionError(String.join(" ", command) + " did not end within " + timeout.toSeconds() + " s");
            }
            return new Result(process.exitValue(), Processes.read(out), Processes.read(err));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while " + String.join(" ", command) + " ran", e);
        } finally {
            for (Path p : new Path[] {in, out, err}) {
                if (p != null) {
                    p.toFile().delete();
                }
            }
        }
    }
}
