package io.mqttload.convert;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Plans in XMeter's on-disk format, written here for the tests: the tags, attributes and property types XMeter's GUI
 * saves (see docs/xmeter-migration.md), assembled from strings so that each test shows the XML it converts.
 */
public final class XmeterPlans {
    private XmeterPlans() {
    }

    /** A whole .jmx: a Test Plan holding {@code nodes}. */
    public static String plan(String... nodes) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\">\n"
                + "  <hashTree>\n"
                + "    <TestPlan guiclass=\"TestPlanGui\" testclass=\"TestPlan\" testname=\"XMeter plan\" enabled=\"true\">\n"
                + "      <elementProp name=\"TestPlan.user_defined_variables\" elementType=\"Arguments\" guiclass=\"ArgumentsPanel\""
                + " testclass=\"Arguments\" testname=\"User Defined Variables\" enabled=\"true\">\n"
                + "        <collectionProp name=\"Arguments.arguments\"/>\n"
                + "      </elementProp>\n"
                + "      <boolProp name=\"TestPlan.functional_mode\">false</boolProp>\n"
                + "      <boolProp name=\"TestPlan.serialize_threadgroups\">false</boolProp>\n"
                + "    </TestPlan>\n"
                + "    " + tree(nodes) + "\n"
                + "  </hashTree>\n"
                + "</jmeterTestPlan>\n";
    }

    public static Path write(Path dir, String name, String xml) {
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, xml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** An element and its children: {@code element<hashTree>children</hashTree>}. */
    public static String node(String element, String... children) {
        return element + "\n" + tree(children);
    }

    private static String tree(String... children) {
        if (children.length == 0) {
            return "<hashTree/>";
        }
        return "<hashTree>\n" + String.join("\n", children) + "\n</hashTree>";
    }

    public static String threadGroup(String name, int threads, int loops, String... children) {
        return node("<ThreadGroup guiclass=\"ThreadGroupGui\" testclass=\"ThreadGroup\" testname=\"" + name + "\" enabled=\"true\">\n"
                + "  <stringProp name=\"ThreadGroup.on_sample_error\">continue</stringProp>\n"
                + "  <elementProp name=\"ThreadGroup.main_controller\" elementType=\"LoopController\" guiclass=\"LoopControlPanel\""
                + " testclass=\"LoopController\" testname=\"Loop Controller\" enabled=\"true\">\n"
                + "    <boolProp name=\"LoopController.continue_forever\">false</boolProp>\n"
                + "    <stringProp name=\"LoopController.loops\">" + loops + "</stringProp>\n"
                + "  </elementProp>\n"
                + "  <stringProp name=\"ThreadGroup.num_threads\">" + threads + "</stringProp>\n"
                + "  <stringProp name=\"ThreadGroup.ramp_time\">0</stringProp>\n"
                + "  <boolProp name=\"ThreadGroup.scheduler\">false</boolProp>\n"
                + "  <stringProp name=\"ThreadGroup.duration\"></stringProp>\n"
                + "  <stringProp name=\"ThreadGroup.delay\"></stringProp>\n"
                + "</ThreadGroup>", children);
    }

    public static String loop(String name, int loops, String... children) {
        return node("<LoopController guiclass=\"LoopControlPanel\" testclass=\"LoopController\" testname=\"" + name
                + "\" enabled=\"true\">\n"
                + "  <boolProp name=\"LoopController.continue_forever\">true</boolProp>\n"
                + "  <stringProp name=\"LoopController.loops\">" + loops + "</stringProp>\n"
                + "</LoopController>", children);
    }

    public static String constantTimer(String name, String delay) {
        return node("<ConstantTimer guiclass=\"ConstantTimerGui\" testclass=\"ConstantTimer\" testname=\"" + name
                + "\" enabled=\"true\">\n"
                + "  <stringProp name=\"ConstantTimer.delay\">" + delay + "</stringProp>\n"
                + "</ConstantTimer>");
    }

    /** An XMeter element of {@code net.xmeter.samplers.<type>} with its GUI class and the given properties. */
    public static String xmeter(String type, String name, String... props) {
        return "<net.xmeter.samplers." + type + " guiclass=\"net.xmeter.gui." + type + "UI\" testclass=\"net.xmeter.samplers."
                + type + "\" testname=\"" + escape(name) + "\" enabled=\"true\">\n" + String.join("\n", props) + "\n</net.xmeter.samplers."
                + type + ">";
    }

    public static String str(String name, String value) {
        return "  <stringProp name=\"" + name + "\">" + escape(value) + "</stringProp>";
    }

    public static String bool(String name, boolean value) {
        return "  <boolProp name=\"" + name + "\">" + value + "</boolProp>";
    }

    /** The ConnectSampler properties as the 2.0.x GUI saves a new element (released 2.0.2: "attampt"). */
    public static String[] connectDefaults(String host, String port, String... more) {
        String[] base = {
            str("mqtt.server", host), str("mqtt.port", port), str("mqtt.version", "3.1"), str("mqtt.conn_timeout", "10"),
            str("mqtt.protocol", "TCP"), str("mqtt.ws_path", ""), bool("mqtt.dual_ssl_authentication", false),
            str("mqtt.clientcert_file_path", ""), str("mqtt.clientcert_password", ""), str("mqtt.user_name", ""),
            str("mqtt.password", ""), str("mqtt.client_id_prefix", "conn_"), bool("mqtt.client_id_suffix", true),
            str("mqtt.conn_keep_alive", "300"), str("mqtt.conn_attampt_max", "0"), str("mqtt.reconn_attampt_max", "0"),
            str("mqtt.conn_clean_session", "true"),
        };
        return concat(base, more);
    }

    public static String connect(String name, String... props) {
        return node(xmeter("ConnectSampler", name, props));
    }

    public static String pub(String name, String topic, String qos, boolean timestamp, String type, String length,
            String message, String... more) {
        String[] base = {
            str("mqtt.topic_name", topic), str("mqtt.qos_level", qos), bool("mqtt.add_timestamp", timestamp),
            str("mqtt.message_type", type), str("mqtt.message_type_fixed_length", length),
            str("mqtt.message_to_sent", message), bool("mqtt.retained_message", false),
        };
        return node(xmeter("PubSampler", name, concat(base, more)));
    }

    public static String sub(String name, String topics, String qos, boolean timestamp, String condition, String value,
            String... more) {
        String[] base = {
            str("mqtt.topic_name", topics), str("mqtt.qos_level", qos), bool("mqtt.add_timestamp", timestamp),
            bool("mqtt.debug_response", false), str("mqtt.sample_condition", condition),
            str("mqtt.sample_condition_value", value),
        };
        return node(xmeter("SubSampler", name, concat(base, more)));
    }

    public static String disconnect(String name, String... children) {
        return node("<net.xmeter.samplers.DisConnectSampler guiclass=\"net.xmeter.gui.DisConnectSamplerUI\""
                + " testclass=\"net.xmeter.samplers.DisConnectSampler\" testname=\"" + name + "\" enabled=\"true\"/>", children);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
