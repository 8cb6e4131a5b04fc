package io.mqttload.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;


/**
 * Debian's Chromium, headless, as a person's browser would open a page: the DOM after loading, the
 * console messages the page produced, and a screenshot. Every call is bounded; the browser is killed
 * when it overruns. Flags as this workplace needs them: no sandbox as root, no background networking
 * (the closed network refuses it), a fresh profile per call.
 */
public final class HeadlessChromium {
    public static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_SECONDS = 90;

    private HeadlessChromium() {
    }

    /** Fails the calling test, naming the package, when Chromium is missing; see {@link SystemPackages}. */
    public static void requireInstalled() {
        SystemPackages.require(BINARY.toString());
    }

    /** What loading a page gave: its DOM as serialised after load, and the console lines it logged. */
    public static final class Page {
        public final String dom;
        public final List<String> console;

        Page(String dom, List<String> console) {
            this.dom = dom;
            this.console = console;
        }
    }

    public static Page load(Path html, Path work) throws IOException, InterruptedException {
        Path out = work.resolve("dom.html");
        Path err = work.resolve("chromium.log");
        run(work, List.of("--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString()), out, err);
        List<String> console = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(":CONSOLE")).collect(Collectors.toList());
        return new Page(Files.readString(out, StandardCharsets.UTF_8), console);
    }

    public static void screenshot(Path html, Path png, int width, int height, Path work)
            throws IOException, InterruptedException {
        run(work, List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars", html.toUri().toString()), work.resolve("screenshot.out"),
                work.resolve("screenshot.log"));
        if (!Files.isRegularFile(png)) {
            throw new IllegalStateException("chromium wrote no screenshot; its log: "
                    + Files.readString(work.resolve("screenshot.log"), StandardCharsets.UTF_8));
        }
    }

    private static void run(Path work, List<String> args, Path out, Path err) throws IOException, InterruptedException {
        Files.createDirectories(work);
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + Files.createTempDirectory(work, "profile")));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + command);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("chromium exited with " + p.exitValue() + ": "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
    }
}
