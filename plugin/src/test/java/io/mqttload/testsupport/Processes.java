package io.mqttload.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The processes tests start (brokers, InfluxDB, JMeter engines): ended by PID, every wait bounded. */
public final class Processes {
    private Processes() {
    }

    /**
     * SIGTERM, then SIGKILL if the process is still there after {@code grace}; true when it has exited. An
     * interrupted wait kills it at once and keeps the interrupt.
     */
    public static boolean stop(Process process, Duration grace) {
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** A process's output file as text; empty when it does not exist (yet). */
    public static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
