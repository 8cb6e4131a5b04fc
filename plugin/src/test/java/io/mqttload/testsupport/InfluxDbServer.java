package io.mqttload.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * Debian's InfluxDB 1.6 ({@code influxd}) on a free loopback port with its data in a temporary
 * folder, for tests that write line protocol and query it back for real.
 */
public final class InfluxDbServer implements AutoCloseable {
    private static final String BINARY = "/usr/bin/influxd";

    private final Path root;
    private final Process process;
    private final int port;

    private InfluxDbServer(Path root, Process process, int port) {
        this.root = root;
        this.process = process;
        this.port = port;
    }

    public static void assumeInstalled() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(BINARY)),
                "Debian's influxdb is not installed (apt-get install influxdb); .ci/run installs it");
    }

    public static InfluxDbServer start() {
        assumeInstalled();
        try {
            Path root = Files.createTempDirectory("mqttload-influxdb");
            List<Integer> ports = FreePorts.tcpPorts(2);
            int http = ports.get(0);
            String config = String.format(Locale.ROOT, "reporting-disabled = true%n"
                    + "bind-address = \"127.0.0.1:%d\"%n"
                    + "[meta]%n  dir = \"%s\"%n"
                    + "[data]%n  dir = \"%s\"%n  wal-dir = \"%s\"%n  query-log-enabled = false%n"
                    + "[http]%n  bind-address = \"127.0.0.1:%d\"%n  log-enabled = false%n"
                    + "[monitor]%n  store-enabled = false%n",
                    ports.get(1), root.resolve("meta"), root.resolve("data"), root.resolve("wal"), http);
            Path file = root.resolve("influxdb.conf");
            Files.writeString(file, config);
            Process p = new ProcessBuilder(BINARY, "-config", file.toString())
                    .redirectErrorStream(true).redirectOutput(root.resolve("influxd.log").toFile()).start();
            InfluxDbServer server = new InfluxDbServer(root, p, http);
            await("influxd to answer /ping").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> !p.isAlive() || server.ping());
            if (!p.isAlive()) {
                throw new IllegalStateException("influxd exited while starting: " + Files.readString(root.resolve("influxd.log")));
            }
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start influxd", e);
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    private boolean ping() {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url() + "/ping").toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(1000);
            return c.getResponseCode() == 204;
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs an InfluxQL statement and returns the JSON answer. */
    public String query(String database, String influxQl) throws IOException {
        String q = url() + "/query?db=" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "&q="
                + URLEncoder.encode(influxQl, StandardCharsets.UTF_8);
        HttpURLConnection c = (HttpURLConnection) URI.create(q).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setConnectTimeout(5000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Posts line protocol to /write with millisecond precision; returns the HTTP status and body. */
    public String write(String database, String lines) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url() + "/write?precision=ms&db="
                + URLEncoder.encode(database, StandardCharsets.UTF_8)).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setConnectTimeout(5000);
        c.setReadTimeout(10_000);
        try (OutputStream out = c.getOutputStream()) {
            out.write(lines.getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            return status + (in == null ? "" : " " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot delete " + root, e);
        }
    }
}
