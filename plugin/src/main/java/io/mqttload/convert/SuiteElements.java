package io.mqttload.convert;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.InfluxSettings;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.Setting;
import io.mqttload.common.settings.SubscribeSettings;

/**
 * This suite's elements (and the few JMeter ones the conversion needs) as JMeter 5.6.3 saves them: TestBean fields
 * as {@code stringProp}s in name order, every field written, defaults included, so the plan opens in the GUI with
 * each field shown and runs without relying on defaults (JMeter sets a field the plan leaves out to empty). The
 * defaults are the elements' declarations ({@code io.mqttload.common.settings}), which {@code SuiteElementsTest} holds
 * to the elements' BeanInfo.
 */
final class SuiteElements {
    private static final String PKG = "io.mqttload.jmeter.";
    private static final String BEAN_GUI = "TestBeanGUI";

    private final Document doc;

    SuiteElements(Document doc) {
        this.doc = doc;
    }

    /** A TestBean element: its fields start at their defaults and {@link Bean#set} overrides them. */
    final class Bean {
        private final String className;
        private final String guiclass;
        private final String testname;
        private final boolean enabled;
        private final Map<String, String> fields = new TreeMap<>();
        private String comments;

        private Bean(String className, String guiclass, String testname, boolean enabled) {
            this.className = className;
            this.guiclass = guiclass;
            this.testname = testname;
            this.enabled = enabled;
        }

        Bean set(String field, String value) {
            if (!fields.containsKey(field)) {
                throw new IllegalArgumentException(className + " has no field " + field);
            }
            fields.put(field, value == null ? "" : value);
            return this;
        }

        String get(String field) {
            return fields.get(field);
        }

        /** Every field with its value: the defaults, as far as nothing was set. */
        Map<String, String> fields() {
            return Collections.unmodifiableMap(fields);
        }

        Bean comments(String text) {
            comments = text;
            return this;
        }

        /** Every declared setting at its declared default. */
        private Bean declared(List<Setting<?>> settings) {
            for (Setting<?> setting : settings) {
                fields.put(setting.name(), setting.defaultText());
            }
            return this;
        }

        Element build() {
            Element e = Jmx.testElement(doc, PKG + className, guiclass, PKG + className, testname, enabled);
            fields.forEach((k, v) -> Jmx.prop(e, "stringProp", k, v));
            if (comments != null && !comments.isEmpty()) {
                Jmx.prop(e, "stringProp", XmeterElement.COMMENTS, comments);
            }
            return e;
        }
    }

    Bean connection(String testname, boolean enabled) {
        return new Bean("MqttConnectionConfig", BEAN_GUI, testname, enabled).declared(ConnectionConfigSettings.ALL);
    }

    Bean connect(String testname, boolean enabled) {
        return new Bean("MqttConnectSampler", BEAN_GUI, testname, enabled).declared(ConnectSettings.ALL);
    }

    Bean subscribe(String testname, boolean enabled) {
        return new Bean("MqttSubscribeSampler", BEAN_GUI, testname, enabled).declared(SubscribeSettings.ALL);
    }

    Bean publish(String testname, boolean enabled) {
        return new Bean("MqttPublishSampler", PKG + "MqttPublishSamplerGui", testname, enabled)
                .declared(PublishSettings.ALL);
    }

    Bean disconnect(String testname, boolean enabled) {
        return new Bean("MqttDisconnectSampler", BEAN_GUI, testname, enabled).declared(DisconnectSettings.ALL);
    }

    Bean runReport(String testname) {
        return new Bean("MqttRunReport", PKG + "MqttRunReportGui", testname, true).declared(InfluxSettings.REPORT);
    }

    Bean runEnd(String testname) {
        return new Bean("MqttRunEndSampler", PKG + "MqttRunEndSamplerGui", testname, true);
    }

    /** JMeter's Once Only Controller: its children run on the first pass of each thread (of each run of its loop). */
    Element onceOnly(String testname, boolean enabled) {
        return Jmx.testElement(doc, "OnceOnlyController", "OnceOnlyControllerGui", "OnceOnlyController", testname, enabled);
    }

    /** JMeter's Flow Control Action set to pause the current thread for {@code durationMs} (text: may be an expression). */
    Element pause(String testname, boolean enabled, String durationMs) {
        Element e = Jmx.testElement(doc, "TestAction", "TestActionGui", "TestAction", testname, enabled);
        // ActionProcessor.action 1 is PAUSE; target 0 is the current thread.
        Jmx.prop(e, "intProp", "ActionProcessor.action", "1");
        Jmx.prop(e, "intProp", "ActionProcessor.target", "0");
        Jmx.prop(e, "stringProp", "ActionProcessor.duration", durationMs);
        return e;
    }

    /** A disabled Simple Controller standing where an element was that could not be converted; its comment says what. */
    Element placeholder(String testname, String comments) {
        Element e = Jmx.testElement(doc, "GenericController", "LogicControllerGui", "GenericController", testname, false);
        Jmx.prop(e, "stringProp", XmeterElement.COMMENTS, comments);
        return e;
    }

    /** A tearDown Thread Group of one thread, one loop, as the suite's plans have it for MQTT Run End. */
    Element tearDownThreadGroup(String testname) {
        Element e = Jmx.testElement(doc, "PostThreadGroup", "PostThreadGroupGui", "PostThreadGroup", testname, true);
        Jmx.prop(e, "stringProp", "ThreadGroup.num_threads", "1");
        Jmx.prop(e, "intProp", "ThreadGroup.ramp_time", "0");
        Jmx.prop(e, "boolProp", "ThreadGroup.scheduler", "false");
        Jmx.prop(e, "boolProp", "ThreadGroup.same_user_on_next_iteration", "true");
        Jmx.prop(e, "stringProp", "ThreadGroup.on_sample_error", "continue");
        Element loop = Jmx.prop(e, "elementProp", "ThreadGroup.main_controller", null);
        loop.setTextContent("");
        loop.setAttribute("elementType", "LoopController");
        loop.setAttribute("guiclass", "LoopControlPanel");
        loop.setAttribute("testclass", "LoopController");
        loop.setAttribute("testname", "Loop Controller");
        loop.setAttribute("enabled", "true");
        Jmx.prop(loop, "intProp", "LoopController.loops", "1");
        Jmx.prop(loop, "boolProp", "LoopController.continue_forever", "false");
        return e;
    }
}
