package io.mqttload.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;


/**
 * An X display of its own (Debian's {@code xvfb}), for the real JMeter GUI in tests. Xvfb picks a free display
 * number itself and writes it with {@code -displayfd} once it accepts clients, so nothing here guesses or polls.
 */
public final class Xvfb implements AutoCloseable {
    private static final Path BINARY = Path.of("/usr/bin/Xvfb");

    private final Process process;
    private final String display;

    private Xvfb(Process process, String display) {
        this.process = process;
        this.display = display;
    }

    /** Fails the calling test, naming the package, when Xvfb is missing; see {@link SystemPackages}. */
    public static void requireInstalled() {
        SystemPackages.require(BINARY.toString());
    }

    /** Starts a 1400x1000 screen on loopback only; returns once it accepts clients, or fails after {@code timeout}. */
    public static Xvfb start(Duration timeout) throws IOException {
        Process process = new ProcessBuilder(BINARY.toString(), "-displayfd", "1", "-screen", "0", "1400x1000x24",
                "-nolisten", "tcp").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<String> number = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))
                        .readLine();
            } catch (IOException e) {
                throw new IllegalStateException("reading Xvfb's display number", e);
            }
        });
        try {
            String line = number.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null || !line.trim().matches("\\d+")) {
                throw new IllegalStateException("Xvfb gave no display number (exit: "
                        + (process.isAlive() ? "running" : process.exitValue()) + ")");
            }
            return new Xvfb(process, ":" + line.trim());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Processes.stop(process, Duration.ofSeconds(5));
            throw new IllegalStateException("interrupted while Xvfb started", e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Processes.stop(process, Duration.ofSeconds(5));
            throw new IllegalStateException("Xvfb did not start within " + timeout, e);
        }
    }

    /** The value for DISPLAY, e.g. ":1". */
    public String display() {
        return display;
    }

    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(5));
    }
}
