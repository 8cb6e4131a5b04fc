package io.mqttload.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The rule of the unit tests ({@code *Test}, run by surefire): they start no process and open no socket; what needs a
 * broker, a server or a process is an {@code *IT}, and the engine is driven without a network through the in-memory
 * broker ({@code testsupport.memory}). Surefire registers this extension for every test class (JUnit's extension
 * autodetection, enabled in its configuration only); it installs a security manager that refuses a socket connect, a
 * listening socket and a process start, and fails the class that tried, even when the code under test caught the
 * refusal. Name resolution (port -1) is allowed: JMeter asks for the local host's name.
 *
 * <p>A JVM without a security manager (Java 24 and later) cannot be watched this way; the class says so once on the
 * console, and {@code ArchitectureTest}'s static rule (no {@code *Test} uses the process and socket helpers) still holds.
 */
public final class UnitTestIsolation implements BeforeAllCallback, AfterAllCallback {
    private static final List<String> ATTEMPTS = new CopyOnWriteArrayList<>();
    private static final Object LOCK = new Object();
    private static boolean installed;

    @Override
    public void beforeAll(ExtensionContext context) {
        synchronized (LOCK) {
            if (!installed) {
                installed = true;
                install();
            }
        }
        ATTEMPTS.clear();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!ATTEMPTS.isEmpty()) {
            List<String> seen = List.copyOf(ATTEMPTS);
            ATTEMPTS.clear();
            throw new AssertionError(context.getDisplayName() + " is a unit test (*Test) but " + String.join("; ", seen)
                    + ". A unit test starts no process and opens no socket: drive the engine through the in-memory"
                    + " broker, or make the class an *IT (CONTRIBUTING.md, \"Which test a change needs\").");
        }
    }

    @SuppressWarnings({"removal", "deprecation"})
    private static void install() {
        try {
            System.setSecurityManager(new Guard());
        } catch (UnsupportedOperationException noSecurityManager) {
            System.err.println("UnitTestIsolation: this JVM (Java " + Runtime.version().feature() + ") has no security"
                    + " manager; unit tests are not watched for sockets and processes at run time, only by"
                    + " ArchitectureTest's static rule");
        }
    }

    /** Refuses and records what a unit test may not do; allows everything else. */
    @SuppressWarnings({"removal", "deprecation"})
    private static final class Guard extends SecurityManager {
        @Override
        public void checkPermission(java.security.Permission permission) {
            // Everything else is allowed: the guard is about sockets and processes only.
        }

        @Override
        public void checkPermission(java.security.Permission permission, Object context) {
            // As above.
        }

        @Override
        public void checkConnect(String host, int port) {
            if (port != -1) {
                refuse("connected a socket to " + host + ":" + port);
            }
        }

        @Override
        public void checkConnect(String host, int port, Object context) {
            checkConnect(host, port);
        }

        @Override
        public void checkListen(int port) {
            refuse("bound a socket to port " + port);
        }

        @Override
        public void checkExec(String command) {
            refuse("started the process " + command);
        }

        private static void refuse(String what) {
            ATTEMPTS.add(what);
            throw new SecurityException("a unit test " + what + ": unit tests have no network and start no process");
        }
    }
}
