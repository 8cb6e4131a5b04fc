package io.mqttload.testsupport;

import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/**
 * Records every log event of every thread while open, so a test can check what a run logged: an invalid
 * setting reported at test start, or that nothing was logged with a stack trace.
 *
 * <pre>{@code
 * try (LogCapture log = LogCapture.start()) {
 *     JMeterTestEngine.run(plan, Duration.ofSeconds(30));
 *     assertThat(log.withStackTraces()).isEmpty();
 * }
 * }</pre>
 *
 * <p>In tests SLF4J logs through logback (see logback-test.xml), so the appender goes on logback's root
 * logger; events below the levels configured there are never created and so not recorded.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger root;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private LogCapture(Logger root) {
        this.root = root;
        appender.setName("mqttload-test-log-capture");
        appender.setContext(root.getLoggerContext());
        appender.start();
        root.addAppender(appender);
    }

    public static LogCapture start() {
        org.slf4j.Logger root = LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (!(root instanceof Logger)) {
            throw new IllegalStateException("SLF4J does not log through logback in this JVM but through "
                    + root.getClass().getName() + "; LogCapture cannot record");
        }
        return new LogCapture((Logger) root);
    }

    /** Events recorded so far, in the order they were logged. */
    public List<ILoggingEvent> events() {
        synchronized (appender) {
            return List.copyOf(appender.list);
        }
    }

    /** "LEVEL logger: message" of each event at {@code level} or above. */
    public List<String> messagesAtLeast(Level level) {
        return events().stream().filter(e -> e.getLevel().isGreaterOrEqual(level))
                .map(e -> e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage())
                .collect(Collectors.toList());
    }

    /** "logger: message [exception]" of each event that carries a throwable, i.e. would print a stack trace. */
    public List<String> withStackTraces() {
        return events().stream().filter(e -> e.getThrowableProxy() != null)
                .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage() + " [" + e.getThrowableProxy().getClassName()
                        + ": " + e.getThrowableProxy().getMessage() + "]")
                .collect(Collectors.toList());
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }
}
