package io.mqttload.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;


/**
 * A process whose wall clock is shifted by a known amount, with Debian's {@code faketime} package (libfaketime): the
 * library is preloaded into the process and adds the shift to every wall-clock reading ({@code clock_gettime} with
 * {@code CLOCK_REALTIME}, {@code gettimeofday}, {@code time}), which is what {@code System.currentTimeMillis()} reads.
 * The monotonic clock ({@code System.nanoTime()}) is left alone ({@code FAKETIME_DONT_FAKE_MONOTONIC=1}): the JVM's
 * timeouts and the suite's elapsed times keep running true, as on a host whose clock is merely set differently.
 *
 * <p>{@code FAKETIME_FORCE_MONOTONIC_FIX=0} too: Debian's libfaketime 0.9.10 otherwise applies its "monotonic fix" to
 * the JVM's timed waits ({@code pthread_cond_timedwait} on the monotonic clock), and every timed park returned at once
 * (measured here: ten 20 ms {@code parkNanos} in 2 ms); the event loops then spin, and an engine under faketime
 * published at a twentieth of its rate (libfaketime issues 425 and 460 report the same with Java 17).
 */
public final class FakeTime {
    /** Where Debian's libfaketime puts the library, per architecture: {@code /usr/lib/<triplet>/faketime/}. */
    private static final Path LIB = Path.of("/usr/lib");
    private static final String LIBRARY = "libfaketime.so.1";

    private FakeTime() {
    }

    /** Fails the calling test, naming the package, when libfaketime is missing; see {@link SystemPackages}. */
    public static void requireInstalled() {
        SystemPackages.require("/usr/bin/faketime", library().isPresent());
    }

    /** The preloadable library, if installed. */
    public static Optional<Path> library() {
        if (!Files.isDirectory(LIB)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(LIB)) {
            return dirs.map(d -> d.resolve("faketime").resolve(LIBRARY)).filter(Files::isRegularFile).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The environment that runs a process with its wall clock {@code shiftMillis} ahead (negative: behind), in
     * libfaketime's relative format ({@code FAKETIME="+2.500s"}: an offset from the real time that keeps running).
     */
    public static Map<String, String> shifted(long shiftMillis) {
        Path lib = library().orElseThrow(() -> new IllegalStateException("libfaketime is not installed"));
        return Map.of("LD_PRELOAD", lib.toString(),
                "FAKETIME", String.format(Locale.ROOT, "%+.3fs", shiftMillis / 1000.0),
                "FAKETIME_DONT_FAKE_MONOTONIC", "1", "FAKETIME_FORCE_MONOTONIC_FIX", "0");
    }
}
