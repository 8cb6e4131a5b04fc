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
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;


/**
 * Debian's InfluxDB 1.6 ({@code influxd}) on a free loopback port with its data in a temporary
 * folder, for tests that write line protocol and query it back for real. {@link #startWithAuth} turns
 * on HTTP authentication with an admin user, which {@link #query} and {@link #write} then log in as.
 */
public final class InfluxDbServer implements AutoCloseable {
    private static final String BINARY = "/usr/bin/influxd";

    private final Path root;
    private final Process process;
    private final int port;
    private volatile String authorization;

    private InfluxDbServer(Path root, Process process, int port) {
        this.root = root;
        this.process = process;
        this.port = port;
    }

    /** Fails the calling test, naming the package, when InfluxDB is missing; see {@link SystemPackages}. */
    public static void requireInstalled() {
        SystemPackages.require(BINARY);
    }

    public static InfluxDbServer start() {
        return start(false);
    }

    /**
     * Starts influxd with {@code auth-enabled} and creates {@code user} as admin; InfluxDB allows that one
     * statement without credentials while it has no user yet.
     */
    public static InfluxDbServer startWithAuth(String user, String password) {
        InfluxDbServer server = start(true);
        String created;
        try {
            created = server.query("", "CREATE USER \"" + user + "\" WITH PASSWORD '" + password
                    + "' WITH ALL PRIVILEGES");
        } catch (IOException e) {
            server.close();
            throw new IllegalStateException("cannot create the admin user of influxd", e);
        }
        if (created.contains("error")) {
            server.close();
            throw new IllegalStateException("influxd refused to create the admin user: " + created);
        }
        server.authorization = basic(user, password);
        return server;
    }

    private static InfluxDbServer start(boolean authEnabled) {
        requireInstalled();
        try {
            Path root = Files.createTempDirectory("mqttload-influxdb");
            List<Integer> ports = FreePorts.tcpPorts(2);
            int http = ports.get(0);
            String config = String.format(Locale.ROOT, "reporting-disabled = true%n"
                    + "bind-address = \"127.0.0.1:%d\"%n"
                    + "[meta]%n  dir = \"%s\"%n"
                    + "[data]%n  dir = \"%s\"%n  wal-dir = \"%s\"%n  query-log-enabled = false%n"
                    + "[http]%n  bind-address = \"127.0.0.1:%d\"%n  log-enabled = false%n  auth-enabled = %b%n"
                    + "[monitor]%n  store-enabled = false%n",
                    ports.get(1), root.resolve("meta"), root.resolve("data"), root.resolve("wal"), http, authEnabled);
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

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Runs an InfluxQL statement, as the admin user if started with auth, and returns the JSON answer. */
    public String query(String database, String influxQl) throws IOException {
        return query(authorization, database, influxQl);
    }

    /** Runs an InfluxQL statement as {@code user}, or without credentials if it is null, and returns the JSON answer. */
    public String queryAs(String user, String password, String database, String influxQl) throws IOException {
        return query(user == null ? null : basic(user, password), database, influxQl);
    }

    private String query(String auth, String database, String influxQl) throws IOException {
        String q = url() + "/query?db=" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "&q="
                + URLEncoder.encode(influxQl, StandardCharsets.UTF_8);
        HttpURLConnection c = (HttpURLConnection) URI.create(q).toURL().openConnection();
        c.setRequestMethod("POST");
        if (auth != null) {
            c.setRequestProperty("Authorization", auth);
        }
        c.setConnectTimeout(5000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()) {
            return in == null ? "HTTP " + c.getResponseCode() : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Posts line protocol to /write with millisecond precision; returns the HTTP status and body. */
    public String write(String database, String lines) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url() + "/write?precision=ms&db="
                + URLEncoder.encode(database, StandardCharsets.UTF_8)).toURL().openConnection();
        c.setRequestMethod("POST");
        if (authorization != null) {
            c.setRequestProperty("Authorization", authorization);
        }
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
        Processes.stop(process, Duration.ofSeconds(10));
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot delete " + root, e);
        }
    }
}
