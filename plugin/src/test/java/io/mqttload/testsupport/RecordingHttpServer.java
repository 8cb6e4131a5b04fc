package io.mqttload.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A JDK HTTP server on loopback that records every request and answers the n-th with the n-th of the given statuses
 * (the last one from then on): what an InfluxDB writer sends, seen without an InfluxDB.
 */
public final class RecordingHttpServer implements AutoCloseable {
    public final List<Request> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final int[] statuses;
    private final AtomicInteger count = new AtomicInteger();

    private RecordingHttpServer(int... statuses) throws IOException {
        this.statuses = statuses;
        this.server = HttpServer.create(new InetSocketAddress(FreePorts.LOOPBACK, 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    public static RecordingHttpServer start(int... statuses) {
        try {
            return new RecordingHttpServer(statuses);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the recording HTTP server", e);
        }
    }

    public String url() {
        return "http://" + FreePorts.LOOPBACK + ":" + server.getAddress().getPort();
    }

    /** Every request's body, in the order they arrived. */
    public String bodies() {
        return requests.stream().map(r -> r.body).collect(Collectors.joining());
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            requests.add(new Request(exchange, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            int status = statuses[Math.min(count.getAndIncrement(), statuses.length - 1)];
            if (status == 204) {
                exchange.sendResponseHeaders(204, -1);
                return;
            }
            byte[] body = ("{\"error\":\"status " + status + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** One request as the server saw it. */
    public static final class Request {
        public final String method;
        public final String path;
        public final Map<String, String> query;
        public final String authorization;
        public final String body;

        Request(HttpExchange exchange, String body) {
            this.method = exchange.getRequestMethod();
            this.path = exchange.getRequestURI().getPath();
            String raw = exchange.getRequestURI().getRawQuery();
            this.query = raw == null ? Map.of() : Stream.of(raw.split("&")).map(p -> p.split("=", 2))
                    .collect(Collectors.toMap(p -> decode(p[0]), p -> p.length > 1 ? decode(p[1]) : ""));
            this.authorization = exchange.getRequestHeaders().getFirst("Authorization");
            this.body = body;
        }

        private static String decode(String s) {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        }
    }
}
