package io.mqttload.report.prometheus;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpServer;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.engine.IntervalListener;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Interval;
import io.mqttload.summary.RunSummary;

import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.exporter.pushgateway.Format;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import io.prometheus.metrics.exporter.pushgateway.Scheme;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Serves {@link PrometheusMetrics} on {@code /metrics} and pushes them to a Pushgateway, for one run of one engine.
 * The endpoint lives as long as the run: at the run's end it waits, within {@link PrometheusSettings#finalScrapeSeconds},
 * for one scrape that carries the final figures (the counts computed at the end, the verdict, the last second's
 * latency), so that a run ending between two scrapes does not lose them; a Pushgateway gets them pushed in any case.
 * What happened is counted in the summary and said on the console.
 */
public final class PrometheusExport implements IntervalListener {
    private static final Logger log = LoggerFactory.getLogger(PrometheusExport.class);
    private static final int PUSH_ATTEMPTS = 3;
    private static final Duration PUSH_TIMEOUT = Duration.ofSeconds(3);

    private final PrometheusSettings settings;
    private final PrometheusMetrics metrics;
    private final HttpServer server;
    private final ExecutorService serverThreads;
    private final PushGateway gateway;
    private final ScheduledExecutorService pusher;
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong pushesFailed = new AtomicLong();
    private final CountDownLatch finalScraped = new CountDownLatch(1);
    private volatile String lastPushError;

    private PrometheusExport(PrometheusSettings settings, PrometheusMetrics metrics, RunConfig config) {
        this.settings = settings;
        this.metrics = metrics;
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(metrics::collect);
        // The gateway first: it starts nothing, so a failure there leaves no server bound.
        gateway = settings.pushgatewayAddress == null ? null : PushGateway.builder()
                // The text format: the protobuf one (the client's default) serves native histograms, which the suite has not.
                .format(Format.PROMETHEUS_TEXT).address(settings.pushgatewayAddress)
                .scheme("https".equals(settings.pushgatewayScheme) ? Scheme.HTTPS : Scheme.HTTP).job(settings.job)
                .groupingKey("run", config.runId()).groupingKey("engine", config.engineId()).registry(registry)
                .connectionTimeout(PUSH_TIMEOUT).readTimeout(PUSH_TIMEOUT).build();
        if (settings.port > 0) {
            server = bind(settings);
            serverThreads = Executors.newFixedThreadPool(2, daemon("mqttload-prometheus-http"));
            MetricsHandler handler = new MetricsHandler(registry);
            server.createContext("/metrics", exchange -> {
                // Read before the answer is made: only an answer begun after the end carries the final figures.
                boolean afterEnd = metrics.ended();
                try {
                    handler.handle(exchange);
                } finally {
                    exchange.close();
                }
                scrapes.incrementAndGet();
                if (afterEnd) {
                    finalScraped.countDown();
                }
            });
            server.setExecutor(serverThreads);
            server.start();
        } else {
            server = null;
            serverThreads = null;
        }
        pusher = gateway == null ? null : Executors.newSingleThreadScheduledExecutor(daemon("mqttload-prometheus-push"));
        if (pusher != null && settings.pushSeconds > 0) {
            pusher.scheduleWithFixedDelay(this::pushQuietly, settings.pushSeconds, settings.pushSeconds, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts the export these settings ask for, or returns null when they ask for none. A port that cannot be bound is
     * refused naming the property, the value and why.
     */
    public static PrometheusExport start(PrometheusSettings settings, EngineMetrics engineMetrics, RunConfig config) {
        if (!settings.enabled()) {
            return null;
        }
        PrometheusExport export = new PrometheusExport(settings, new PrometheusMetrics(engineMetrics, config), config);
        String where = export.server == null ? "" : "on http://" + settings.host + ":" + settings.port + "/metrics";
        String push = export.gateway == null ? "" : (where.isEmpty() ? "" : ", ") + "pushing to "
                + settings.pushgatewayScheme + "://" + settings.pushgatewayAddress + " (job " + settings.job + ")";
        say("MQTT metrics for Prometheus " + where + push);
        return export;
    }

    private static HttpServer bind(PrometheusSettings settings) {
        InetSocketAddress address = new InetSocketAddress(settings.host, settings.port);
        if (address.isUnresolved()) {
            throw new InvalidSettingException(PrometheusSettings.HOST, settings.host, "no such host");
        }
        try {
            return HttpServer.create(address, 16);
        } catch (BindException e) {
            throw new InvalidSettingException(PrometheusSettings.PORT, settings.port, "cannot listen on " + settings.host
                    + ":" + settings.port + " (" + e.getMessage() + "): another process has it, or give each engine on"
                    + " this host a port of its own", e);
        } catch (IOException e) {
            throw new InvalidSettingException(PrometheusSettings.PORT, settings.port, "cannot listen on " + settings.host
                    + ":" + settings.port + ": " + e, e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void onInterval(Interval interval) {
        metrics.onInterval(interval);
    }

    @Override
    public void onBrokerSample(String broker, io.mqttload.broker.BrokerSample sample) {
        metrics.onBrokerSample(broker, sample);
    }

    /** Pushes now; a failure is counted and kept for the end-of-run line, and the next push tries again. */
    private boolean pushQuietly() {
        try {
            gateway.push();
            return true;
        } catch (IOException | RuntimeException e) {
            pushesFailed.incrementAndGet();
            lastPushError = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            log.warn("Prometheus: push to {} failed: {}", settings.pushgatewayAddress, lastPushError);
            return false;
        }
    }

    /**
     * The final figures: pushed (tried {@value #PUSH_ATTEMPTS} times), and served until a scrape took them or the
     * wait ran out; then the endpoint closes. Bounded by the push timeouts and {@link PrometheusSettings#finalScrapeSeconds}.
     */
    @Override
    public void onRunEnd(RunSummary summary) {
        metrics.onRunEnd(summary);
        boolean pushed = false;
        if (gateway != null) {
            pusher.shutdownNow();
            for (int attempt = 0; attempt < PUSH_ATTEMPTS && !pushed; attempt++) {
                pushed = pushQuietly();
            }
        }
        boolean scraped = false;
        if (server != null) {
            try {
                scraped = finalScraped.await(settings.finalScrapeSeconds, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.stop(0);
            serverThreads.shutdownNow();
        }
        summary.counts.put(Count.PROMETHEUS_SCRAPES, scrapes.get());
        summary.counts.put(Count.PROMETHEUS_PUSHES_FAILED, pushesFailed.get());
        summary.counts.put(Count.PROMETHEUS_FINAL_MISSED, pushed || scraped ? 0L : 1L);
        say(endLine(pushed, scraped));
    }

    private String endLine(boolean pushed, boolean scraped) {
        StringBuilder s = new StringBuilder("MQTT metrics for Prometheus: ");
        if (server != null) {
            s.append(String.format(Locale.ROOT, "scraped %d times, the final figures %s", scrapes.get(), scraped
                    ? "included" : "NOT scraped within " + settings.finalScrapeSeconds + " s ("
                    + PrometheusSettings.FINAL_SCRAPE_SECONDS + ")" + (pushed ? " but pushed" : ": the run's last seconds,"
                    + " its end-of-run counts and verdict are missing from Prometheus")));
        }
        if (gateway != null) {
            s.append(server != null ? "; " : "").append(pushed ? "final figures pushed to the Pushgateway"
                    : "final push FAILED (" + lastPushError + ")");
            if (pushesFailed.get() > 0) {
                s.append(", ").append(pushesFailed.get()).append(" push(es) failed");
            }
        }
        return s.toString();
    }

    private static void say(String line) {
        log.info(line);
        System.out.println(line);
    }
}
