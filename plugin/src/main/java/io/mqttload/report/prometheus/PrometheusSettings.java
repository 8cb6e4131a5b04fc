package io.mqttload.report.prometheus;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.function.Function;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;

/**
 * Engine properties that turn on the Prometheus export: a {@code /metrics} endpoint ({@value #PORT}) and pushes to a
 * Pushgateway ({@value #PUSHGATEWAY}); either, both or neither (the default). Engine properties rather than fields of
 * an element, so that every engine of a plan can be scraped without editing the plan, and each engine on one host
 * gets a port of its own ({@code -J} on each {@code jmeter-server}).
 */
public final class PrometheusSettings {
    public static final String PORT = "mqttload.prometheus.port";
    public static final String HOST = "mqttload.prometheus.host";
    public static final String PUSHGATEWAY = "mqttload.prometheus.pushgateway";
    public static final String PUSH_SECONDS = "mqttload.prometheus.pushSeconds";
    public static final String JOB = "mqttload.prometheus.job";
    public static final String FINAL_SCRAPE_SECONDS = "mqttload.prometheus.finalScrapeSeconds";

    /** 0: no endpoint. */
    public final int port;
    public final String host;
    /** The Pushgateway's address ({@code host:port}), or null. */
    public final String pushgatewayAddress;
    /** {@code http} or {@code https}. */
    public final String pushgatewayScheme;
    /** Between pushes while the run goes; 0: only the run's final figures are pushed. */
    public final int pushSeconds;
    public final String job;
    /** At the run's end, how long the endpoint waits for a scrape of the final figures. */
    public final int finalScrapeSeconds;

    private PrometheusSettings(int port, String host, String pushgatewayAddress, String pushgatewayScheme,
            int pushSeconds, String job, int finalScrapeSeconds) {
        this.port = port;
        this.host = host;
        this.pushgatewayAddress = pushgatewayAddress;
        this.pushgatewayScheme = pushgatewayScheme;
        this.pushSeconds = pushSeconds;
        this.job = job;
        this.finalScrapeSeconds = finalScrapeSeconds;
    }

    /** Whether anything is exported at all. */
    public boolean enabled() {
        return port > 0 || pushgatewayAddress != null;
    }

    /** Reads the properties; a value that cannot work is refused naming the property and the value. */
    public static PrometheusSettings from(Function<String, String> property) {
        String portText = text(property, PORT, "");
        int port = portText.isEmpty() ? 0 : (int) number(PORT, portText, 1, 65_535);
        String host = text(property, HOST, "127.0.0.1");
        if (host.isEmpty()) {
            throw new InvalidSettingException(HOST, host, "give the address to serve /metrics on (127.0.0.1, 0.0.0.0, a"
                    + " host name)");
        }
        String gateway = text(property, PUSHGATEWAY, "");
        String address = null;
        String scheme = null;
        if (!gateway.isEmpty()) {
            URI uri = pushgatewayUri(gateway);
            scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            address = uri.getHost() + ":" + (uri.getPort() > 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 9091);
        }
        int push = (int) number(PUSH_SECONDS, text(property, PUSH_SECONDS, "10"), 0, 3600);
        String job = text(property, JOB, "mqttload");
        if (!job.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new InvalidSettingException(JOB, job, "use 1 to 64 letters, digits, '_', '.' or '-'");
        }
        int finalScrape = (int) number(FINAL_SCRAPE_SECONDS, text(property, FINAL_SCRAPE_SECONDS, "15"), 0, 3600);
        return new PrometheusSettings(port, host, address, scheme, push, job, finalScrape);
    }

    private static URI pushgatewayUri(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new InvalidSettingException(PUSHGATEWAY, text, "not a URL: " + e.getReason(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new InvalidSettingException(PUSHGATEWAY, text, "expected http://host:port or https://host:port");
        }
        if (uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/")) {
            throw new InvalidSettingException(PUSHGATEWAY, text, "give the Pushgateway's address without a path: the"
                    + " engine adds /metrics/job/<job>/run/<run>/engine/<engine>");
        }
        return uri;
    }

    private static String text(Function<String, String> property, String name, String fallback) {
        String v = property.apply(name);
        return v == null ? fallback : v.trim();
    }

    private static long number(String name, String text, long min, long max) {
        try {
            return Checks.between(name, Long.parseLong(text), min, max);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(name, text, "not a whole number", e);
        }
    }
}
