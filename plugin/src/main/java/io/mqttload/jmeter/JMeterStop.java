package io.mqttload.jmeter;

import java.lang.reflect.Field;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether JMeter was asked to stop the running test before the plan's end: the GUI's Stop or Shutdown,
 * {@code stoptest.sh}/{@code shutdown.sh}, a remote stop, a Thread Group's on-error action, or an element that stops
 * the test. JMeter 5.6.3 tells its elements nothing of it: {@code testEnded} is the same after a stop as after the
 * plan's own end. Every stop goes through {@code StandardJMeterEngine.stopTest}, whose first step clears the
 * engine's static {@code engine} field (and nothing else clears it: each run's engine sets it when made); that field
 * is private, so it is read here by reflection. Should a later JMeter rename it, stops are not seen (the verdict is
 * then what it was before this check) and a warning says so once. Only a run that JMeter's engine started can have
 * been stopped: elements driven without one (the field already empty at test start) never read as stopped.
 */
final class JMeterStop {
    private static final Logger log = LoggerFactory.getLogger(JMeterStop.class);
    private static final Field ENGINE = engineField();
    /** Whether JMeter's engine was there when the running test started. */
    private static volatile boolean engineAtStart;

    private JMeterStop() {
    }

    /** Notes, at test start, whether JMeter's engine runs this test. */
    static void testStarted() {
        engineAtStart = engine() != null;
    }

    /** True once JMeter has been asked to stop the test that is running in this JVM. */
    static boolean asked() {
        return engineAtStart && engine() == null;
    }

    /** JMeter's engine of the running test, or null (stopped, none, or the field not readable). */
    static Object engine() {
        if (ENGINE == null) {
            return null;
        }
        try {
            return ENGINE.get(null);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    private static Field engineField() {
        try {
            Field f = StandardJMeterEngine.class.getDeclaredField("engine");
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            log.warn("MQTT: cannot tell a stopped test from one that ran to its end in this JMeter ({}): a stopped run's"
                    + " verdict will not say it was stopped", e.toString());
            return null;
        }
    }
}
