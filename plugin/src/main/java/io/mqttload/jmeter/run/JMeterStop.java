package io.mqttload.jmeter.run;

import io.mqttload.jmeter.internals.JMeterInternals;

/**
 * Whether JMeter was asked to stop the running test before the plan's end: the GUI's Stop or Shutdown,
 * {@code stoptest.sh}/{@code shutdown.sh}, a remote stop, a Thread Group's on-error action, or an element that stops
 * the test. JMeter 5.6.3 tells its elements nothing of it: {@code testEnded} is the same after a stop as after the
 * plan's own end. Every stop goes through {@code StandardJMeterEngine.stopTest}, whose first step clears the
 * engine's static {@code engine} field (and nothing else clears it: each run's engine sets it when made); that field
 * is private, so {@link JMeterInternals} reads it by reflection. Should a later JMeter rename it, stops are not seen
 * (the verdict is then what it was before this check) and a warning says so once. Only a run that JMeter's engine
 * started can have been stopped: elements driven without one (the field already empty at test start) never read as
 * stopped.
 */
public final class JMeterStop {
    private JMeterStop() {
    }

    /** Notes in the run, at test start, whether JMeter's engine runs this test. */
    static void testStarted() {
        JvmRun.current().jmeterEngineAtStart(JMeterInternals.runningEngine() != null);
    }

    /** True once JMeter has been asked to stop the test that is running in this JVM. */
    public static boolean asked() {
        return JvmRun.current().jmeterEngineAtStart() && JMeterInternals.runningEngine() == null;
    }
}
