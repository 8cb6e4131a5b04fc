package io.mqttload.report.influx;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.Errors;
import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;

/**
 * Sends line protocol to InfluxDB's v1 {@code /write} endpoint (InfluxDB 1.x, 2.x through DBRP, 3.x)
 * from its own thread: callers only offer points to a bounded buffer and never wait. Batches are
 * retried with backoff; what cannot be buffered or written is counted as dropped, never lost silently.
 */
public final class InfluxWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(InfluxWriter.class);
    private static final int BATCH_LINES = 5000;
    private static final int MAX_ATTEMPTS = 4;

    public enum Auth { NONE, BASIC, TOKEN }

    private final URI writeUri;
    private final String authorization;
    private final HttpClient http;
    private final BlockingQueue<String> buffer;
    private final Thread sender;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private volatile boolean closing;

    /**
     * @param url             e.g. http://127.0.0.1:8086
     * @param retentionPolicy empty for the database's default
     * @param credentials     "user:password" for BASIC, the token for TOKEN, ignored for NONE
     * @param bufferedLines   points kept while InfluxDB is slow or away; MQTT Metrics' {@code bufferedPoints}, in the
     *                        range its declaration ({@code InfluxSettings.BUFFERED_POINTS}) checks
     */
    public InfluxWriter(String url, String database, String retentionPolicy, Auth auth, String credentials,
            int bufferedLines) {
        String base = Checks.notBlank("influxUrl", url).replaceAll("/+$", "");
        if (!base.startsWith("http://") && !base.startsWith("https://")) {
            throw new InvalidSettingException("influxUrl", url, "must start with http:// or https://");
        }
        String db = Checks.notBlank("influxDatabase", database);
        StringBuilder query = new StringBuilder("/write?precision=ms&db=").append(encode(db));
        if (retentionPolicy != null && !retentionPolicy.trim().isEmpty()) {
            query.append("&rp=").append(encode(retentionPolicy.trim()));
        }
        try {
            this.writeUri = URI.create(base + query);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException("influxUrl", url, "not a valid URL: " + e.getMessage());
        }
        if (writeUri.getRawUserInfo() != null) {
            // HttpClient does not send credentials given in the URL, and the URL is logged with write failures.
            throw new InvalidSettingException("influxUrl", url.replace(writeUri.getRawUserInfo(), "***"),
                    "credentials do not belong in the URL; use authentication BASIC with username and password");
        }
        switch (auth) {
            case BASIC:
                this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                        (credentials == null ? "" : credentials).getBytes(StandardCharsets.UTF_8));
                break;
            case TOKEN:
                this.authorization = "Token " + Checks.notBlank("influxToken", credentials);
                break;
            default:
                this.authorization = null;
        }
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.buffer = new ArrayBlockingQueue<>(bufferedLines);
        this.sender = new Thread(this::sendLoop, "mqttload-influx");
        sender.setDaemon(true);
        sender.start();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Buffers one point (one line, ending with a newline); never blocks. Returns false when it was dropped. */
    public boolean offer(String line) {
        if (closing || !buffer.offer(line)) {
            dropped.incrementAndGet();
            return false;
        }
        return true;
    }

    private void sendLoop() {
        List<String> batch = new ArrayList<>(BATCH_LINES);
        while (!closing || !buffer.isEmpty()) {
            try {
                String first = buffer.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                buffer.drainTo(batch, BATCH_LINES - 1);
                send(batch);
                batch.clear();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void send(List<String> batch) throws InterruptedException {
        StringBuilder body = new StringBuilder(batch.size() * 200);
        batch.forEach(body::append);
        HttpRequest.Builder request = HttpRequest.newBuilder(writeUri).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        long backoff = 100;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status / 100 == 2) {
                    written.addAndGet(batch.size());
                    return;
                }
                fail("HTTP " + status + ": " + response.body().trim());
                if (status / 100 == 4 && status != 429) {
                    // A client error (bad database, auth, syntax) will not succeed on retry; 429 (InfluxDB 2.x/3.x
                    // rate limiting) will once the server has caught up.
                    break;
                }
            } catch (IOException e) {
                // The JDK's HTTP client throws a ConnectException without a message for a refused connection.
                fail(e instanceof ConnectException && e.getMessage() == null
                        ? "connection refused by " + writeUri.getHost() + ":" + writeUri.getPort() : Errors.describe(e));
            }
            if (attempt < MAX_ATTEMPTS && !closing) {
                TimeUnit.MILLISECONDS.sleep(backoff);
                backoff = Math.min(backoff * 4, 5_000);
            }
        }
        dropped.addAndGet(batch.size());
    }

    private void fail(String error) {
        if (lastError.getAndSet(error) == null) {
            log.warn("MQTT metrics: InfluxDB write to {} failed (first failure; the summary counts all): {}",
                    writeUri, error);
        }
    }

    public long written() {
        return written.get();
    }

    public long dropped() {
        return dropped.get();
    }

    /** The last write error, or null. */
    public String lastError() {
        return lastError.get();
    }

    /** Flushes what is buffered, bounded by {@code timeoutMillis}; what is left then counts as dropped. */
    public void close(long timeoutMillis) {
        closing = true;
        try {
            sender.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
        }
        dropped.addAndGet(buffer.size());
        buffer.clear();
    }

    @Override
    public void close() {
        close(10_000);
    }
}
