package io.mqttload.jmeter.run;

import io.mqttload.jmeter.internals.JMeterInternals;

/**
 * The name of the running Test Plan element, for the report's setup. JMeter gives its elements the plan's file name
 * only ({@code FileServer}, also what {@code __TestPlanName} returns); the element's own name is in the tree the
 * engine runs, held in {@code StandardJMeterEngine}'s private {@code test} field, read by {@link JMeterInternals} (a
 * remote engine holds the tree its controller sent). Should a later JMeter rename the field, the report names the plan
 * file only and a warning says so once.
 */
final class TestPlanName {
    private TestPlanName() {
    }

    /** The running Test Plan's name, or empty when there is no running engine or its tree cannot be read. */
    static String current() {
        return JMeterInternals.testPlanName(JMeterInternals.runningEngine());
    }
}
