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
import java.util.stream.Collectors;
import java.util.stream.Stream;


import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Debian's Prometheus ({@code prometheus}) or Pushgateway ({@code prometheus-pushgateway}) on a free loopback port with
 * its data in a temporary folder, for tests that are scraped or pushed to for real and query back what Prometheus holds.
 */
public final class PrometheusServer implements AutoCloseable {
    private static final String PROMETHEUS = "/usr/bin/prometheus";
    private static final String PUSHGATEWAY = "/usr/bin/prometheus-pushgateway";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final Process process;
    private final int port;

    private PrometheusServer(Path root, Process process, int port) {
        this.root = root;
        this.process = process;
        this.port = port;
    }

    /** Fails the calling test, naming the packages, when Prometheus or its Pushgateway is missing. */
    public static void requireInstalled() {
        SystemPackages.require(PROMETHEUS);
        SystemPackages.require(PUSHGATEWAY);
    }

    /**
     * A scrape job of a Prometheus configuration: {@code honorLabels} keeps the labels the target gives (what a
     * Pushgateway's job needs, so the pushing engine's labels stay).
     */
    public static String scrapeJob(String name, boolean honorLabels, List<String> targets) {
        return String.format(Locale.ROOT, "  - job_name: %s%n    honor_labels: %b%n    static_configs:%n      - targets: [%s]%n",
                name, honorLabels, targets.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", ")));
    }

    /** Prometheus scraping {@code jobs} (see {@link #scrapeJob}) every {@code interval}. */
    public static PrometheusServer startPrometheus(Duration interval, String... jobs) {
        requireInstalled();
        try {
            Path root = Files.createTempDirectory("mqttload-prometheus");
            int port = FreePorts.tcpPort();
            String seconds = interval.toMillis() + "ms";
            Files.writeString(root.resolve("prometheus.yml"), "global:\n  scrape_interval: " + seconds
                    + "\n  scrape_timeout: " + seconds + "\n  evaluation_interval: " + seconds + "\nscrape_configs:\n"
                    + String.join("", jobs));
            return start(root, port, "/-/ready", PROMETHEUS, "--config.file=" + root.resolve("prometheus.yml"),
                    "--storage.tsdb.path=" + root.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                    "--web.enable-admin-api");
        } catch (IOException e) {
            throw new IllegalStateException("cannot start prometheus", e);
        }
    }

    /**
     * A Pushgateway, which keeps what is pushed in memory only. Debian's build persists to
     * /var/lib/prometheus/pushgateway.data by default, which every earlier run on the machine filled with its groups:
     * loaded at start, each push's consistency check and each scrape went through all of them, until pushes on a busy
     * machine outlasted their timeout.
     */
    public static PrometheusServer startPushgateway() {
        requireInstalled();
        try {
            Path root = Files.createTempDirectory("mqttload-pushgateway");
            int port = FreePorts.tcpPort();
            return start(root, port, "/-/ready", PUSHGATEWAY, "--web.listen-address=127.0.0.1:" + port,
                    "--persistence.file=");
        } catch (IOException e) {
            throw new IllegalStateException("cannot start prometheus-pushgateway", e);
        }
    }

    private static PrometheusServer start(Path root, int port, String ready, String... command) throws IOException {
        Path log = root.resolve("server.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusServer server = new PrometheusServer(root, p, port);
        await(command[0] + " to be ready").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> !p.isAlive() || server.status(ready) == 200);
        if (!p.isAlive()) {
            throw new IllegalStateException(command[0] + " exited while starting: " + Processes.read(log));
        }
        return server;
    }

    public int port() {
        return port;
    }

    /** {@code host:port}, as a scrape target or a Pushgateway address. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    public String url() {
        return "http://" + address();
    }

    public String log() {
        return Processes.read(root.resolve("server.log"));
    }

    private int status(String path) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url() + path).toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(1000);
            return c.getResponseCode();
        } catch (IOException e) {
            return -1;
        }
    }

    /** An instant PromQL query at {@code timeSeconds}: the {@code data.result} array; a query error fails. */
    public JsonNode query(String promQl, double timeSeconds) throws IOException {
        return api("/api/v1/query", "query=" + encode(promQl) + "&time=" + String.format(Locale.ROOT, "%.3f", timeSeconds));
    }

    /** A range PromQL query: the {@code data.result} array of matrices. */
    public JsonNode queryRange(String promQl, double startSeconds, double endSeconds, String step) throws IOException {
        return api("/api/v1/query_range", "query=" + encode(promQl) + String.format(Locale.ROOT,
                "&start=%.3f&end=%.3f&step=%s", startSeconds, endSeconds, step));
    }

    /** A label's values over every series Prometheus holds for {@code match}. */
    public JsonNode labelValues(String label, String match) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url() + "/api/v1/label/" + label + "/values?match[]="
                + encode(match)).toURL().openConnection();
        return answer(c);
    }

    /** The text a Pushgateway (or any exporter) serves on /metrics. */
    public String metricsText() throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url() + "/metrics").toURL().openConnection();
        c.setConnectTimeout(5000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private JsonNode api(String path, String form) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url() + path).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setRequestProperty("Content-Type", "application/x-www-form-urlencoded");
        c.setDoOutput(true);
        c.setConnectTimeout(5000);
        c.setReadTimeout(30_000);
        try (OutputStream out = c.getOutputStream()) {
            out.write(form.getBytes(StandardCharsets.UTF_8));
        }
        return answer(c);
    }

    private static JsonNode answer(HttpURLConnection c) throws IOException {
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            JsonNode json = body.isEmpty() ? JSON.createObjectNode() : JSON.readTree(body);
            if (status >= 400 || !"success".equals(json.path("status").asText())) {
                throw new IOException("HTTP " + status + ": " + body);
            }
            JsonNode data = json.path("data");
            return data.has("result") ? data.path("result") : data;
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
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
