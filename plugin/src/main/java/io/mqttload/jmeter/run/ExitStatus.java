package io.mqttload.jmeter.run;

import java.rmi.NotBoundException;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.ClientJMeterEngine;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.delivery.Verdict;

/**
 * The exit status of a headless JMeter for CI: with {@code -Jmqttload.failExitCode=N} (N from 1 to 255), a
 * {@code jmeter -n} run whose verdict is not one of {@code mqttload.passVerdicts} (default NO_LOSS) exits with N.
 * JMeter itself always exits with 0 once its threads are done, so the exit comes from a thread of ours that
 * waits until JMeter has finished its own end of test (the other listeners, the JTL, the {@code -e -o}
 * dashboard, all of which run on JMeter's engine thread after the plan's listeners) and then exits.
 */
public final class ExitStatus {
    static final String FAIL_EXIT_CODE = "mqttload.failExitCode";
    static final String PASS_VERDICTS = "mqttload.passVerdicts";
    /** The controller's own end-of-test thread in distributed mode (JMeter's ListenToTest). */
    private static final String REMOTE_TEST_STOPPER = "RemoteTestStopper";
    /** Bounds the wait for JMeter's own end of test; a dashboard of a very long run may take minutes. */
    private static final long JMETER_END_TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(30);
    private static final long STOPPER_APPEAR_TIMEOUT_MILLIS = 30_000;
    private static final Logger log = LoggerFactory.getLogger(ExitStatus.class);

    private ExitStatus() {
    }

    /**
     * The exit code configured, or 0 when none is; fails naming the property when its value is not one.
     */
    public static int configuredCode() {
        String text = JMeterUtils.getPropDefault(FAIL_EXIT_CODE, "0").trim();
        int code;
        try {
            code = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(FAIL_EXIT_CODE, text, "must be a whole number from 0 (off) to 255", e);
        }
        if (code < 0 || code > 255) {
            throw new InvalidSettingException(FAIL_EXIT_CODE, text, "must be a whole number from 0 (off) to 255");
        }
        return code;
    }

    public static List<Verdict> passVerdicts() {
        List<Verdict> pass = new ArrayList<>();
        for (String name : JMeterUtils.getPropDefault(PASS_VERDICTS, "NO_LOSS").split("[,\\s]+")) {
            if (name.isEmpty()) {
                continue;
            }
            try {
                pass.add(Verdict.of(name));
            } catch (IllegalArgumentException e) {
                throw new InvalidSettingException(PASS_VERDICTS, name, "not a verdict; use names such as NO_LOSS,"
                        + " NOTHING_TO_CHECK", e);
            }
        }
        return pass;
    }

    /** Checks both properties at test start, so a mistyped one is reported before the first sample. */
    public static void validate() {
        configuredCode();
        passVerdicts();
    }

    /**
     * A local headless run ended on this (JMeter's engine) thread: once that thread has finished every other
     * listener and the dashboard, exit with the configured code if the verdict does not pass.
     */
    public static void afterLocalRun(RunState run) {
        if (!gateWanted() || !run.armExit()) {
            return;
        }
        Thread jmeterEnd = Thread.currentThread();
        startExitThread(run, () -> join(jmeterEnd));
    }

    /** On a headless controller, every engine has ended: exit once JMeter's own end of test (RemoteTestStopper) is done. */
    public static void afterControllerRun(RunState run) {
        if (!gateWanted() || !run.armExit()) {
            return;
        }
        startExitThread(run, () -> {
            long deadline = System.currentTimeMillis() + STOPPER_APPEAR_TIMEOUT_MILLIS;
            Thread stopper = null;
            while (stopper == null && System.currentTimeMillis() < deadline) {
                stopper = thread(REMOTE_TEST_STOPPER);
                if (stopper == null) {
                    pause(100);
                }
            }
            if (stopper != null) {
                join(stopper);
            }
        });
    }

    /**
     * The controller cannot end by itself: an engine died, and JMeter waits for it forever. Having written the
     * report, it exits with the configured code, or 1 when none is set, after the pause JMeter itself leaves for
     * listeners to close their files.
     */
    public static void endControllerWithoutEngine(RunState run, String why, Collection<String> survivors) {
        if (!JMeter.isNonGUI() || !run.armExit()) {
            return;
        }
        if (remoteExitRequested()) {
            // What JMeter does at the end of a -X run, which it never reaches while it waits for the dead engine.
            for (String host : survivors) {
                try {
                    new ClientJMeterEngine(host).exit();
                } catch (RemoteException | NotBoundException | RuntimeException e) {
                    log.warn("MQTT: engine {} could not be asked to exit: {}", host, e.toString());
                }
            }
        }
        int configured = safeCode();
        int code = configured > 0 ? configured : 1;
        String line = "MQTT Run Report: " + why + "; the controller exits with status " + code
                + " (JMeter would wait for the missing engine forever)";
        log.error(line);
        System.out.println(line);
        Thread t = new Thread(() -> {
            pause(5_000);
            System.exit(code);
        }, "mqttload-controller-exit");
        t.setDaemon(false);
        t.start();
    }

    /** Whether the controller was started with -X (--remoteexit): JMeter keeps that option to itself. */
    private static boolean remoteExitRequested() {
        String[] args = ProcessHandle.current().info().arguments().orElse(new String[0]);
        for (String a : args) {
            if (a.equals("-X") || a.equals("--remoteexit")) {
                return true;
            }
        }
        return false;
    }

    /** A headless run with an exit code set: otherwise no thread of ours waits for JMeter's end. */
    private static boolean gateWanted() {
        return JMeter.isNonGUI() && safeCode() > 0;
    }

    private static void startExitThread(RunState run, Runnable waitForJMeter) {
        Thread t = new Thread(() -> {
            waitForJMeter.run();
            Verdict v = run.verdict();
            int code = safeCode();
            if (v == null || passes(v)) {
                return;
            }
            String line = String.format(Locale.ROOT, "MQTT: verdict %s is not one of %s=%s: exiting with status %d",
                    v.name(), PASS_VERDICTS, JMeterUtils.getPropDefault(PASS_VERDICTS, "NO_LOSS"), code);
            log.info(line);
            System.out.println(line);
            System.exit(code);
        }, "mqttload-exit-status");
        t.setDaemon(false);
        t.start();
    }

    /** Whether the verdict passes the gate; a mistyped gate passes nothing (it was reported at test start). */
    private static boolean passes(Verdict v) {
        try {
            return passVerdicts().contains(v);
        } catch (InvalidSettingException e) {
            log.error("MQTT: {}", e.getMessage());
            return false;
        }
    }

    private static int safeCode() {
        try {
            return configuredCode();
        } catch (InvalidSettingException e) {
            log.error("MQTT: {}", e.getMessage());
            return 1;
        }
    }

    private static void join(Thread t) {
        try {
            t.join(JMETER_END_TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread thread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (name.equals(t.getName())) {
                return t;
            }
        }
        return null;
    }
}
