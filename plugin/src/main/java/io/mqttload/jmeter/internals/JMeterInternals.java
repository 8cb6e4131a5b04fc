package io.mqttload.jmeter.internals;

import java.lang.reflect.Field;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jorphan.collections.HashTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only reads of JMeter's private state, by reflection, each for what JMeter 5.6.3 tells its elements no other way:
 * whether the running test was stopped (its engine's static {@code engine} field, cleared by every stop and by nothing
 * else), and the running Test Plan element's name (the tree in the engine's {@code test} field). Should a later JMeter
 * rename a field, the read gives nothing and a warning says once what the reports then lack; nothing fails.
 */
public final class JMeterInternals {
    private static final Logger log = LoggerFactory.getLogger(JMeterInternals.class);
    private static final Field ENGINE = field("engine", "cannot tell a stopped test from one that ran to its end in this"
            + " JMeter ({}): a stopped run's verdict will not say it was stopped");
    private static final Field TREE = field("test", "cannot read the Test Plan's name in this JMeter ({}): reports name"
            + " the plan file only");

    private JMeterInternals() {
    }

    /** JMeter's engine of the running test, or null (stopped, none, or the field not readable). */
    public static Object runningEngine() {
        if (ENGINE == null) {
            return null;
        }
        try {
            return ENGINE.get(null);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    /** The name of the Test Plan that {@code engine} runs, or empty when there is none or its tree cannot be read. */
    public static String testPlanName(Object engine) {
        if (engine == null || TREE == null) {
            return "";
        }
        try {
            Object tree = TREE.get(engine);
            if (tree instanceof HashTree) {
                for (Object top : ((HashTree) tree).list()) {
                    if (top instanceof TestPlan) {
                        return ((TestPlan) top).getName();
                    }
                }
            }
        } catch (IllegalAccessException | RuntimeException e) {
            log.debug("the running test plan's name cannot be read: {}", e.toString());
        }
        return "";
    }

    private static Field field(String name, String missing) {
        try {
            Field f = StandardJMeterEngine.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            log.warn("MQTT: " + missing, e.toString());
            return null;
        }
    }
}
