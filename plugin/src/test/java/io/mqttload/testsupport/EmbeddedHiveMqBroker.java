package io.mqttload.testsupport;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;

import org.xml.sax.SAXException;

import com.hivemq.configuration.service.InternalConfigurations;
import com.hivemq.embedded.EmbeddedExtension;
import com.hivemq.embedded.EmbeddedHiveMQ;
import com.hivemq.embedded.EmbeddedHiveMQBuilder;
import com.hivemq.exceptions.UnrecoverableException;
import com.hivemq.extension.sdk.api.ExtensionMain;

/**
 * HiveMQ Community Edition running inside the test JVM, listening on 127.0.0.1 only, with its configuration,
 * data and extension folders in a fresh temporary directory that {@link #close()} deletes.
 *
 * <pre>{@code
 * try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.builder().withWebSocket().start()) {
 *     connect(broker.host(), broker.tcpPort());
 * }
 * }</pre>
 */
public final class EmbeddedHiveMqBroker implements AutoCloseable {
    public static final String WEBSOCKET_PATH = "/mqtt";

    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long STOP_TIMEOUT_SECONDS = 60;
    private static final int PERSISTENCE_SHUTDOWN_GRACE_MILLIS = 100;
    // A port found free can be taken by another process before HiveMQ binds it; new ports fix that.
    private static final int START_ATTEMPTS = 3;
    // HiveMQ reads these JVM-wide system properties while starting and writes them back.
    private static final String HOME_PROPERTY = "hivemq.home";
    private static final String LOG_FOLDER_PROPERTY = "hivemq.log.folder";

    private final Path root;
    private final EmbeddedHiveMQ hiveMq;
    private final int tcpPort;
    private final int webSocketPort;
    private final int tlsPort;
    private final int secureWebSocketPort;
    private boolean closed;

    private EmbeddedHiveMqBroker(Path root, EmbeddedHiveMQ hiveMq, int tcpPort, int webSocketPort, int tlsPort,
            int secureWebSocketPort) {
        this.root = root;
        this.hiveMq = hiveMq;
        this.tcpPort = tcpPort;
        this.webSocketPort = webSocketPort;
        this.tlsPort = tlsPort;
        this.secureWebSocketPort = secureWebSocketPort;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A broker with only the plain TCP listener. */
    public static EmbeddedHiveMqBroker start() {
        return builder().start();
    }

    public String host() {
        return FreePorts.LOOPBACK;
    }

    public int tcpPort() {
        return tcpPort;
    }

    /** The WebSocket listener's port; its path is {@link #WEBSOCKET_PATH}. */
    public int webSocketPort() {
        if (webSocketPort < 0) {
            throw new IllegalStateException("this broker was built without withWebSocket()");
        }
        return webSocketPort;
    }

    public int tlsPort() {
        if (tlsPort < 0) {
            throw new IllegalStateException("this broker was built without withTls(...)");
        }
        return tlsPort;
    }

    /** The TLS WebSocket listener's port (built with both withWebSocket() and withTls(...)); path {@link #WEBSOCKET_PATH}. */
    public int secureWebSocketPort() {
        if (secureWebSocketPort < 0) {
            throw new IllegalStateException("this broker was built without both withWebSocket() and withTls(...)");
        }
        return secureWebSocketPort;
    }

    /** Stops HiveMQ (bounded) and deletes its temporary folders. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            closeBounded(hiveMq);
        } finally {
            deleteRecursively(root);
        }
    }

    private static void closeBounded(EmbeddedHiveMQ hiveMq) {
        // EmbeddedHiveMQ.close() blocks without a limit, so it runs on another thread that is waited for.
        CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
            try {
                hiveMq.close();
            } catch (ExecutionException e) {
                throw new IllegalStateException("HiveMQ failed to stop", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while HiveMQ was stopping", e);
            }
        });
        try {
            closing.get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("HiveMQ did not stop within " + STOP_TIMEOUT_SECONDS + " s", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("HiveMQ failed to stop", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for HiveMQ to stop", e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            List<Path> deepestFirst = new ArrayList<>();
            paths.sorted(Comparator.reverseOrder()).forEach(deepestFirst::add);
            for (Path path : deepestFirst) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete HiveMQ's temporary folder " + root, e);
        }
    }

    /** Client-certificate policy of the TLS listener; the names are HiveMQ's configuration values. */
    public enum ClientAuthentication {
        NONE, OPTIONAL, REQUIRED
    }

    public static final class Builder {
        private boolean webSocket;
        private Path tlsKeyStore;
        private Path tlsTrustStore;
        private ClientAuthentication clientAuthentication = ClientAuthentication.NONE;
        private final List<String> extraConfig = new ArrayList<>();
        private ExtensionMain extension;

        private Builder() {
        }

        /** Runs {@code main} as an embedded extension, e.g. to make the broker refuse some subscriptions. */
        public Builder withExtension(ExtensionMain main) {
            extension = main;
            return this;
        }

        /** Adds a WebSocket listener on a free port, path {@value #WEBSOCKET_PATH}. */
        public Builder withWebSocket() {
            webSocket = true;
            return this;
        }

        /** Adds a TLS TCP listener presenting {@link TestCertificates#serverKeyStoreJks()}. */
        public Builder withTls(TestCertificates certificates) {
            return withTls(certificates.serverKeyStoreJks());
        }

        /**
         * Adds a TLS TCP listener presenting the key in {@code jksKeyStore}, whose store and key password is
         * {@link TestCertificates#PASSWORD}. It must be JKS: HiveMQ CE ignores the file name and reads it as JKS.
         */
        public Builder withTls(Path jksKeyStore) {
            tlsKeyStore = jksKeyStore.toAbsolutePath();
            return this;
        }

        /** Makes the TLS listener ask for client certificates issued by the test CA. */
        public Builder withClientCertificates(TestCertificates certificates, ClientAuthentication mode) {
            tlsTrustStore = certificates.trustStoreJks().toAbsolutePath();
            clientAuthentication = mode;
            return this;
        }

        /**
         * Adds a top-level element to config.xml, e.g.
         * {@code <mqtt><queued-messages><max-queue-size>100000</max-queue-size></queued-messages></mqtt>}.
         * HiveMQ's schema allows each top-level element once; {@code listeners}, {@code persistence} and
         * {@code anonymous-usage-statistics} are already written by this class.
         */
        public Builder withConfig(String xmlElement) {
            extraConfig.add(xmlElement);
            return this;
        }

        /** Starts HiveMQ and returns once every listener accepts connections. */
        public EmbeddedHiveMqBroker start() {
            if (tlsTrustStore != null && tlsKeyStore == null) {
                throw new IllegalStateException("withClientCertificates(...) needs withTls(...)");
            }
            // HiveMQ would only log an unreadable store and start without the TLS listener.
            for (Path store : new Path[] {tlsKeyStore, tlsTrustStore}) {
                if (store != null && !Files.isReadable(store)) {
                    throw new IllegalArgumentException("TLS store " + store + " does not exist or is not readable");
                }
            }
            IllegalStateException failure = null;
            for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
                try {
                    return startOnce();
                } catch (PortTakenException e) {
                    failure = e;
                }
            }
            throw failure;
        }

        private EmbeddedHiveMqBroker startOnce() {
            List<Integer> ports = FreePorts.tcpPorts(4);
            int tcp = ports.get(0);
            int ws = webSocket ? ports.get(1) : -1;
            int tls = tlsKeyStore != null ? ports.get(2) : -1;
            int wss = webSocket && tlsKeyStore != null ? ports.get(3) : -1;
            String config = configXml(tcp, ws, tls, wss);
            validate(config);
            Path root;
            try {
                root = Files.createTempDirectory("mqttload-hivemq-");
                Files.createDirectories(root.resolve("conf"));
                Files.createDirectories(root.resolve("data"));
                Files.createDirectories(root.resolve("extensions"));
                Files.write(root.resolve("conf").resolve("config.xml"), config.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot prepare HiveMQ's temporary folders", e);
            }

            EmbeddedHiveMQ hiveMq = startHiveMq(root, extension);
            EmbeddedHiveMqBroker broker = new EmbeddedHiveMqBroker(root, hiveMq, tcp, ws, tls, wss);
            for (int port : new int[] {tcp, ws, tls, wss}) {
                // HiveMQ logs a listener that cannot bind and still reports a successful start.
                if (port >= 0 && !FreePorts.isListening(port)) {
                    broker.close();
                    throw new PortTakenException("HiveMQ reported its start but nothing listens on port " + port
                            + " (another process may have taken it; HiveMQ's log above says why)");
                }
            }
            return broker;
        }

        private static EmbeddedHiveMQ startHiveMq(Path root, ExtensionMain extension) {
            String previousHome = System.getProperty(HOME_PROPERTY);
            String previousLogFolder = System.getProperty(LOG_FOLDER_PROPERTY);
            Thread.UncaughtExceptionHandler previousHandler = Thread.getDefaultUncaughtExceptionHandler();
            // Without a home HiveMQ uses the folder of its jar in the Maven repository.
            System.setProperty(HOME_PROPERTY, root.toString());
            // Every stop otherwise waits 2 s for in-flight persistence writes that a test never needs.
            InternalConfigurations.PERSISTENCE_SHUTDOWN_GRACE_PERIOD_MSEC.set(PERSISTENCE_SHUTDOWN_GRACE_MILLIS);
            EmbeddedHiveMQBuilder builder = EmbeddedHiveMQ.builder()
                    .withConfigurationFolder(root.resolve("conf"))
                    .withDataFolder(root.resolve("data"))
                    .withExtensionsFolder(root.resolve("extensions"))
                    // HiveMQ's logging bootstrap detaches the root logger's appenders and installs a JUL
                    // bridge, JVM-wide; logback-test.xml configures its loggers instead.
                    .withoutLoggingBootstrap();
            if (extension != null) {
                builder.withEmbeddedExtension(EmbeddedExtension.builder().withId("mqttload-test")
                        .withName("mqttload test extension").withVersion("1").withAuthor("mqttload")
                        .withPriority(0).withStartPriority(0).withExtensionMain(extension).build());
            }
            EmbeddedHiveMQ hiveMq = builder.build();
            try {
                hiveMq.start().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                return hiveMq;
            } catch (TimeoutException e) {
                closeAfterFailedStart(hiveMq, root);
                throw new IllegalStateException("HiveMQ did not start within " + START_TIMEOUT_SECONDS + " s", e);
            } catch (ExecutionException e) {
                String config = readConfig(root);
                closeAfterFailedStart(hiveMq, root);
                if (e.getCause() instanceof UnrecoverableException) {
                    // With a valid config.xml this is HiveMQ's "Could not bind any listener".
                    throw new PortTakenException("HiveMQ could not bind any listener; its log above says why");
                }
                throw new IllegalStateException("HiveMQ failed to start with config.xml:\n" + config, e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closeAfterFailedStart(hiveMq, root);
                throw new IllegalStateException("interrupted while HiveMQ was starting", e);
            } finally {
                restoreProperty(HOME_PROPERTY, previousHome);
                restoreProperty(LOG_FOLDER_PROPERTY, previousLogFolder);
                // HiveMQ installs a JVM-wide handler that calls System.exit(1) on its "unrecoverable" errors,
                // which would kill the test JVM instead of failing one test.
                Thread.setDefaultUncaughtExceptionHandler(previousHandler);
            }
        }

        private static void closeAfterFailedStart(EmbeddedHiveMQ hiveMq, Path root) {
            try {
                closeBounded(hiveMq);
            } finally {
                deleteRecursively(root);
            }
        }

        private static String readConfig(Path root) {
            try {
                return new String(Files.readAllBytes(root.resolve("conf").resolve("config.xml")),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(unreadable: " + e.getMessage() + ")";
            }
        }

        private static void restoreProperty(String name, String previous) {
            if (previous == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, previous);
            }
        }

        private String configXml(int tcp, int ws, int tls, int wss) {
            StringBuilder xml = new StringBuilder(1024);
            xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                    .append("<hivemq xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"")
                    .append(" xsi:noNamespaceSchemaLocation=\"config.xsd\">\n")
                    .append("  <listeners>\n")
                    .append(String.format(Locale.ROOT, "    <tcp-listener>\n"
                            + "      <port>%d</port>\n"
                            + "      <bind-address>%s</bind-address>\n"
                            + "    </tcp-listener>\n", tcp, FreePorts.LOOPBACK));
            if (ws >= 0) {
                xml.append(String.format(Locale.ROOT, "    <websocket-listener>\n"
                        + "      <port>%d</port>\n"
                        + "      <bind-address>%s</bind-address>\n"
                        + "      <path>%s</path>\n"
                        + "    </websocket-listener>\n", ws, FreePorts.LOOPBACK, WEBSOCKET_PATH));
            }
            if (tls >= 0) {
                xml.append(String.format(Locale.ROOT, "    <tls-tcp-listener>\n"
                        + "      <port>%d</port>\n"
                        + "      <bind-address>%s</bind-address>\n"
                        + "      <tls>\n"
                        + "        <keystore>\n"
                        + "          <path>%s</path>\n"
                        + "          <password>%s</password>\n"
                        + "          <private-key-password>%s</private-key-password>\n"
                        + "        </keystore>\n", tls, FreePorts.LOOPBACK, escape(tlsKeyStore.toString()),
                        TestCertificates.PASSWORD, TestCertificates.PASSWORD));
                if (tlsTrustStore != null) {
                    xml.append(String.format(Locale.ROOT, "        <truststore>\n"
                            + "          <path>%s</path>\n"
                            + "          <password>%s</password>\n"
                            + "        </truststore>\n", escape(tlsTrustStore.toString()), TestCertificates.PASSWORD));
                }
                xml.append(String.format(Locale.ROOT, "        <client-authentication-mode>%s</client-authentication-mode>\n"
                        + "      </tls>\n"
                        + "    </tls-tcp-listener>\n", clientAuthentication.name()));
            }
            if (wss >= 0) {
                xml.append(String.format(Locale.ROOT, "    <tls-websocket-listener>\n"
                        + "      <port>%d</port>\n"
                        + "      <bind-address>%s</bind-address>\n"
                        + "      <path>%s</path>\n"
                        + "      <tls>\n"
                        + "        <keystore>\n"
                        + "          <path>%s</path>\n"
                        + "          <password>%s</password>\n"
                        + "          <private-key-password>%s</private-key-password>\n"
                        + "        </keystore>\n"
                        + "      </tls>\n"
                        + "    </tls-websocket-listener>\n", wss, FreePorts.LOOPBACK, WEBSOCKET_PATH,
                        escape(tlsKeyStore.toString()), TestCertificates.PASSWORD, TestCertificates.PASSWORD));
            }
            xml.append("  </listeners>\n")
                    // Nothing has to survive a test, and in-memory mode needs no data-folder lock or RocksDB.
                    .append("  <persistence>\n    <mode>in-memory</mode>\n  </persistence>\n")
                    .append("  <anonymous-usage-statistics>\n    <enabled>false</enabled>\n"
                            + "  </anonymous-usage-statistics>\n");
            for (String element : extraConfig) {
                xml.append("  ").append(element).append('\n');
            }
            return xml.append("</hivemq>\n").toString();
        }

        /**
         * HiveMQ reads config.xml with JAXB but without its schema: unknown elements are silently ignored and an
         * unparsable file makes it fall back to a default listener on 0.0.0.0:1883. Its own schema catches both.
         */
        private static void validate(String config) {
            URL xsd = EmbeddedHiveMQ.class.getResource("/config.xsd");
            if (xsd == null) {
                throw new IllegalStateException("config.xsd is missing from HiveMQ's jar");
            }
            try {
                Schema schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(xsd);
                schema.newValidator().validate(new StreamSource(new StringReader(config)));
            } catch (SAXException e) {
                throw new IllegalArgumentException("invalid HiveMQ config.xml: " + e.getMessage() + "\n" + config, e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read HiveMQ's config.xsd", e);
            }
        }

        private static String escape(String text) {
            return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        }
    }

    private static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }
}
