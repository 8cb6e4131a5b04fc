package io.mqttload.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.mqttload.testsupport.Command;
import io.mqttload.testsupport.GrafanaDashboards;

/**
 * The image's entry point ({@code docker/jmeter/entrypoint.sh}) run on this machine with stand-ins for {@code jmeter}
 * and {@code jmeter-server} first on PATH: each writes its name and arguments, one a line, and exits with
 * {@code STUB_EXIT} (0 unless set), so a test reads exactly the command line a container would run.
 */
final class Entrypoint {
    static final Path SCRIPT = GrafanaDashboards.repositoryRoot().resolve("docker/jmeter/entrypoint.sh");
    private static final String STUB = "#!/bin/sh\n{ basename \"$0\"; for a in \"$@\"; do printf '%s\\n' \"$a\"; done; }"
            + " > \"$STUB_ARGV\"\nexit \"${STUB_EXIT:-0}\"\n";

    private final Path directory;
    private final Path argv;

    /** Stand-ins in {@code directory}, which the caller owns (a JUnit temporary directory). */
    Entrypoint(Path directory) {
        this.directory = directory;
        this.argv = directory.resolve("argv");
        try {
            Path bin = Files.createDirectories(directory.resolve("bin"));
            for (String program : List.of("jmeter", "jmeter-server")) {
                Path stub = bin.resolve(program);
                Files.writeString(stub, STUB, StandardCharsets.UTF_8);
                Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a run left: the entry point's exit and output, and the stand-in's command line (empty: none ran). */
    static final class Run {
        final Command.Result result;
        final List<String> command;

        Run(Command.Result result, List<String> command) {
            this.result = result;
            this.command = command;
        }
    }

    /** Runs the entry point with only {@code environment} (and PATH, HOME) set, {@code args} after it. */
    Run run(Map<String, String> environment, String... args) {
        try {
            Files.deleteIfExists(argv);
            Map<String, String> env = new HashMap<>(environment);
            env.put("PATH", directory.resolve("bin") + ":/usr/local/bin:/usr/bin:/bin");
            env.put("HOME", directory.toString());
            env.put("TMPDIR", directory.toString());
            env.put("STUB_ARGV", argv.toString());
            List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
            command.addAll(List.of(args));
            Command.Result result = Command.run(command, directory, env, "", Duration.ofSeconds(30));
            List<String> ran = Files.exists(argv) ? Files.readAllLines(argv, StandardCharsets.UTF_8) : List.of();
            return new Run(result, ran);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
