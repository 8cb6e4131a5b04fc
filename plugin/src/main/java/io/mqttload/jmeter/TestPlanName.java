package io.mqttload.jmeter;

import java.lang.reflect.Field;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jorphan.collections.HashTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The name of the running Test Plan element, for the report's setup. JMeter gives its elements the plan's file name
 * only ({@code FileServer}, also what {@code __TestPlanName} returns); the element's own name is in the tree the
 * engine runs, held in {@code StandardJMeterEngine}'s private {@code test} field, read here by reflection (a remote
 * engine holds the tree its controller sent). Should a later JMeter rename the field, the report names the plan file
 * only and a warning says so once.
 */
final class TestPlanName {
    private static final Logger log = LoggerFactory.getLogger(TestPlanName.class);
    private static final Field TREE = treeField();

    private TestPlanName() {
    }

    /** The running Test Plan's name, or empty when there is no running engine or its tree cannot be read. */
    static String current() {
        Object engine = JMeterStop.engine();
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

    private static Field treeField() {
        try {
            Field f = StandardJMeterEngine.class.getDeclaredField("test");
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            log.warn("MQTT: cannot read the Test Plan's name in this JMeter ({}): reports name the plan file only",
                    e.toString());
            return null;
        }
    }
}
