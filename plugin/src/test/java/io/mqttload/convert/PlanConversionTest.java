package io.mqttload.convert;

import static io.mqttload.convert.Converted.childrenOf;
import static io.mqttload.convert.Converted.prop;
import static io.mqttload.convert.XmeterPlans.bool;
import static io.mqttload.convert.XmeterPlans.connect;
import static io.mqttload.convert.XmeterPlans.connectDefaults;
import static io.mqttload.convert.XmeterPlans.constantTimer;
import static io.mqttload.convert.XmeterPlans.disconnect;
import static io.mqttload.convert.XmeterPlans.loop;
import static io.mqttload.convert.XmeterPlans.node;
import static io.mqttload.convert.XmeterPlans.plan;
import static io.mqttload.convert.XmeterPlans.pub;
import static io.mqttload.convert.XmeterPlans.str;
import static io.mqttload.convert.XmeterPlans.sub;
import static io.mqttload.convert.XmeterPlans.threadGroup;
import static io.mqttload.convert.XmeterPlans.xmeter;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.control.OnceOnlyController;
import org.apache.jmeter.sampler.TestAction;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.PostThreadGroup;
import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.jmeter.MqttDisconnectSampler;
import io.mqttload.jmeter.MqttPublishSampler;
import io.mqttload.jmeter.MqttRunEndSampler;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.jmeter.MqttSubscribeSampler;
import io.mqttload.testsupport.JMeterTestEngine;

/** The whole plan: what is kept, what is added, what is reported, the command's exit codes, and that JMeter loads it. */
class PlanConversionTest {
    @TempDir
    Path dir;

    /** XMeter's sample plan shape: a publisher group and a subscriber group, each Connect, loop, DisConnect. */
    static String pubSubPlan() {
        return plan(
                threadGroup("Pub Group", 2, 1,
                        connect("Connect", connectDefaults("${server}", "${port}", str("mqtt.client_id_prefix", "pub_"))),
                        loop("Loop", 10, pub("Publish Message", "test_topic_${__threadNum}", "1", true, "String", "1024",
                                "Plugin new version from thread ${__threadNum}.")),
                        disconnect("Disconnect", constantTimer("Delay between sampler", "300"))),
                threadGroup("Sub Group", 2, 1,
                        connect("Connect sub", connectDefaults("${server}", "${port}", str("mqtt.client_id_prefix", "sub_"))),
                        loop("Loop sub", 3, sub("Subscribe Message", "test_topic_${__threadNum}", "1", true,
                                SubscribeMapping.COUNT_MODE, "2")),
                        disconnect("Disconnect sub")));
    }

    @Test
    void everyOtherElement_staysAsItWasAndWhereItWas() {
        Converted c = Converted.convert(dir, pubSubPlan());

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(c.planText()).doesNotContain("net.xmeter");
        Element group = c.element("ThreadGroup", "Pub Group");
        assertThat(prop(group, "ThreadGroup.num_threads")).isEqualTo("2");
        assertThat(childrenOf(group)).extracting(e -> e.getAttribute("testname"))
                .containsExactly("Connect", "Loop", "Disconnect");
        assertThat(prop(c.element("LoopController", "Loop"), "LoopController.loops")).isEqualTo("10");
        Element disconnect = c.suite("MqttDisconnectSampler", "Disconnect");
        assertThat(childrenOf(disconnect)).extracting(e -> e.getAttribute("testname")).containsExactly("Delay between sampler");
        assertThat(prop(c.element("ConstantTimer", "Delay between sampler"), "ConstantTimer.delay")).isEqualTo("300");
        assertThat(c.element("TestPlan", "XMeter plan").getAttribute("guiclass")).isEqualTo("TestPlanGui");
        assertThat(c.out).contains("6 converted, 0 not converted").contains("report " + c.report);
    }

    @Test
    void aPlanJMeterSaved_isWrittenByteForByte_butForTheConvertedElement() throws Exception {
        Path shipped = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans", "plans", "quickstart-p2p.jmx");
        String original = Files.readString(shipped);
        String anchor = "        <hashTree/>\n      </hashTree>\n      <PostThreadGroup";
        assertThat(original).contains(anchor);
        String xmeterLine = "        <net.xmeter.samplers.DisConnectSampler guiclass=\"net.xmeter.gui.DisConnectSamplerUI\""
                + " testclass=\"net.xmeter.samplers.DisConnectSampler\" testname=\"XMeter disconnect\" enabled=\"true\"/>\n"
                + "        <hashTree/>\n";
        String input = original.replace(anchor, "        <hashTree/>\n" + xmeterLine + "      </hashTree>\n      <PostThreadGroup");

        Converted c = Converted.convert(dir, input);

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Matcher converted = Pattern.compile("        <io\\.mqttload\\.jmeter\\.MqttDisconnectSampler [^>]*testname=\"XMeter "
                + "disconnect\".*?</io\\.mqttload\\.jmeter\\.MqttDisconnectSampler>\n        <hashTree/>\n", Pattern.DOTALL)
                .matcher(c.planText());
        assertThat(converted.find()).as(c.planText()).isTrue();
        assertThat(converted.group()).startsWith("        <io.mqttload.jmeter.MqttDisconnectSampler guiclass=\"TestBeanGUI\""
                + " testclass=\"io.mqttload.jmeter.MqttDisconnectSampler\" testname=\"XMeter disconnect\" enabled=\"true\">\n"
                + "          <stringProp name=\"clientGroup\">default</stringProp>\n");
        // The plan has a Run Report and a Run End already: nothing is added, and the rest is as JMeter saved it.
        assertThat(c.planText().replace(converted.group(), xmeterLine)).isEqualTo(input);
    }

    @Test
    void runReportAndRunEnd_areAddedOnce() {
        Converted c = Converted.convert(dir, pubSubPlan());

        Element report = c.suite("MqttRunReport", "MQTT Run Report");
        assertThat(report.getAttribute("guiclass")).isEqualTo("io.mqttload.jmeter.MqttRunReportGui");
        Element tearDown = c.element("PostThreadGroup", "MQTT run end");
        assertThat(childrenOf(tearDown)).extracting(Element::getTagName).containsExactly("io.mqttload.jmeter.MqttRunEndSampler");
        assertThat(c.reportText()).contains("## Added by the converter").contains("MQTT Run Report").contains("MQTT Run End");

        // A plan converted again (the suite's elements kept, XMeter's replaced) gets neither a second time.
        Path again = dir.resolve("again");
        assertThat(again.toFile().mkdirs()).isTrue();
        String withBoth = c.planText().replace("</hashTree>\n  </hashTree>\n</jmeterTestPlan>",
                "  " + XmeterPlans.threadGroup("More", 1, 1, disconnect("Bye")) + "\n</hashTree>\n  </hashTree>\n</jmeterTestPlan>");
        Converted second = Converted.convert(again, withBoth);
        assertThat(second.exitCode).as(second.out + second.err).isZero();
        assertThat(second.all("io.mqttload.jmeter.MqttRunReport")).hasSize(1);
        assertThat(second.all("io.mqttload.jmeter.MqttRunEndSampler")).hasSize(1);
        assertThat(second.reportText()).doesNotContain("## Added by the converter");
    }

    @Test
    void convertedPlan_loadsInJMeter_withTheSuitesElements() {
        Converted c = Converted.convert(dir, pubSubPlan());

        HashTree tree = JMeterTestEngine.load(c.plan);
        assertThat(find(tree, MqttConnectSampler.class)).extracting(TestElement::getName)
                .containsExactlyInAnyOrder("Connect", "Connect sub");
        List<MqttConnectionConfig> connections = find(tree, MqttConnectionConfig.class);
        assertThat(connections).hasSize(2);
        assertThat(connections.get(0).getPropertyAsString("host")).isEqualTo("${server}");
        assertThat(connections.get(0).getPropertyAsString("mqttVersion")).isEqualTo("MQTT_3_1_1");
        MqttPublishSampler publish = find(tree, MqttPublishSampler.class).get(0);
        assertThat(publish.getPropertyAsString("measureLatency")).isEqualTo("true");
        assertThat(publish.getPropertyAsString("mode")).isEqualTo("SYNC");
        assertThat(find(tree, MqttSubscribeSampler.class)).hasSize(1);
        assertThat(find(tree, OnceOnlyController.class)).hasSize(1);
        assertThat(find(tree, TestAction.class)).hasSize(1);
        assertThat(find(tree, MqttDisconnectSampler.class)).hasSize(2);
        assertThat(find(tree, ConstantTimer.class)).hasSize(1);
        assertThat(find(tree, LoopController.class)).extracting(TestElement::getName).contains("Loop", "Loop sub");
        assertThat(find(tree, MqttRunReport.class)).hasSize(1);
        assertThat(find(tree, PostThreadGroup.class)).hasSize(1);
        assertThat(find(tree, MqttRunEndSampler.class)).hasSize(1);
    }

    @Test
    void everyKindOfElement_loadsInJMeter() {
        String plan = plan(threadGroup("All", 1, 1,
                connect("Connect", connectDefaults("h", "8883", str("mqtt.protocol", "WSS"), str("mqtt.ws_path", "/ws"))),
                pub("Text", "t", "0", true, "String", "1", "0123456789abcdefXYZ"),
                pub("Random", "t", "1", true, "Random string with fixed length", "64", ""),
                pub("Hex", "t", "2", false, "Hex string", "1", "cafe"),
                sub("Time", "t,u", "1", false, SubscribeMapping.TIME_MODE, "200"),
                sub("Count", "t", "1", false, SubscribeMapping.COUNT_MODE, "1"),
                node(xmeter("EfficientConnectSampler", "Batch", str("mqtt.conn_capacity", "3"),
                        bool("mqtt.sub_when_connected", true), str("mqtt.topic_name", "e"))),
                node("<net.xmeter.samplers.EfficientDisConnectSampler guiclass=\"net.xmeter.gui.EfficientDisConnectSamplerUI\""
                        + " testclass=\"net.xmeter.samplers.EfficientDisConnectSampler\" testname=\"Batch off\" enabled=\"true\"/>"),
                disconnect("Bye")));
        Converted c = Converted.convert(dir, plan);

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        HashTree tree = JMeterTestEngine.load(c.plan);
        assertThat(find(tree, MqttConnectSampler.class)).hasSize(2);
        assertThat(find(tree, MqttPublishSampler.class)).extracting(e -> e.getPropertyAsString("payloadType"))
                .containsExactly("TEXT", "RANDOM", "FILE");
        assertThat(find(tree, MqttSubscribeSampler.class)).hasSize(3);
        assertThat(find(tree, MqttDisconnectSampler.class)).extracting(e -> e.getPropertyAsString("clientGroup"))
                .containsExactly("efficient", "default");
    }

    @Test
    void unknownOption_isListed_andTheExitCodeIsTwo() {
        Converted c = Converted.convert(dir, plan(threadGroup("G", 1, 1,
                connect("Connect", str("mqtt.server", "h"), str("mqtt.conn_frobnicate", "60")),
                pub("Publish", "t", "1", false, "String", "1", "x", str("mqtt.topic_alias", "5")))));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.out).contains("not converted: XMeter plan > G > Connect [net.xmeter.samplers.ConnectSampler]: "
                + "mqtt.conn_frobnicate = 60: unknown stringProp of samplers.ConnectSampler")
                .contains("not converted: XMeter plan > G > Publish [net.xmeter.samplers.PubSampler]: "
                        + "mqtt.topic_alias = 5")
                .contains("2 option(s) not converted");
        assertThat(c.reportText()).contains("| `mqtt.conn_frobnicate` | `60` | not converted |");
        // Converted nonetheless: the rest of the plan is usable.
        assertThat(c.suite("MqttPublishSampler", "Publish").getAttribute("enabled")).isEqualTo("true");
    }

    @Test
    void unknownAndLegacyElements_becomeDisabledPlaceholders() {
        String unknown = node("<net.xmeter.configs.XmCSVDataSet guiclass=\"TestBeanGUI\" testclass=\"net.xmeter.configs.XmCSVDataSet\""
                + " testname=\"Devices\" enabled=\"true\">\n" + str("filename", "devices.csv") + "\n"
                + str("rowsPerThread", "10") + "\n</net.xmeter.configs.XmCSVDataSet>");
        String legacy = node(xmeter("ConnectionSampler", "Old connection", str("mqtt.server", "h"), str("mqtt.keep_time", "60")),
                constantTimer("Kept", "5"));
        String legacyPub = node(xmeter("PubSampler", "Old pub", str("mqtt.server", "h"), str("mqtt.topic_name", "t")));
        Converted c = Converted.convert(dir, plan(unknown, threadGroup("G", 1, 1, legacy, legacyPub)));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.out).contains("not converted: XMeter plan > Devices [net.xmeter.configs.XmCSVDataSet]: "
                + "an XMeter element this converter does not know")
                .contains("not converted: XMeter plan > G > Old connection [net.xmeter.samplers.ConnectionSampler]")
                .contains("not converted: XMeter plan > G > Old pub [net.xmeter.samplers.PubSampler]: a pre-1.0");
        Element placeholder = c.element("GenericController", "NOT CONVERTED: Devices");
        assertThat(placeholder.getAttribute("enabled")).isEqualTo("false");
        assertThat(prop(placeholder, "TestPlan.comments")).contains("net.xmeter.configs.XmCSVDataSet")
                .contains("rowsPerThread = 10");
        assertThat(childrenOf(c.element("GenericController", "NOT CONVERTED: Old connection")))
                .extracting(e -> e.getAttribute("testname")).containsExactly("Kept");
        assertThat(c.reportText()).contains("| `rowsPerThread` | `10` | not converted |");
        assertThat(JMeterTestEngine.load(c.plan)).isNotNull();
    }

    @Test
    void disabledElements_stayDisabled_andCommentsStay() {
        String disabledSub = node(xmeter("SubSampler", "Off", str("mqtt.topic_name", "a"), str("TestPlan.comments", "kept"))
                .replace("enabled=\"true\"", "enabled=\"false\""));
        Converted c = Converted.convert(dir, plan(threadGroup("G", 1, 1, connect("Connect", str("mqtt.server", "h")),
                disabledSub)));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(c.element("OnceOnlyController", "Off: subscribe once").getAttribute("enabled")).isEqualTo("false");
        Element subscribe = c.suite("MqttSubscribeSampler", "Off");
        assertThat(subscribe.getAttribute("enabled")).isEqualTo("false");
        assertThat(prop(subscribe, "TestPlan.comments")).isEqualTo("kept");
        assertThat(c.element("TestAction", "Off: collect").getAttribute("enabled")).isEqualTo("false");
        assertThat(c.reportText()).contains("| `TestPlan.comments` | `kept` | mapped |");
    }

    @Test
    void defaultOutput_isNextToTheInput() {
        Path in = XmeterPlans.write(dir, "plan.jmx", pubSubPlan());

        Converted c = Converted.run(dir.resolve("plan.mqttload.jmx"), in.toString());

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(dir.resolve("plan.mqttload.jmx")).isRegularFile();
        assertThat(dir.resolve("plan.mqttload.conversion.md")).isRegularFile();
    }

    @Test
    void badInput_exitsWithOne_namingTheFileAndTheFault_withoutAStackTrace() throws Exception {
        Path notXml = XmeterPlans.write(dir, "notxml.jmx", "this is not <xml");
        Path notPlan = XmeterPlans.write(dir, "notplan.jmx", "<?xml version=\"1.0\"?><project><hashTree/></project>");
        Path noXmeter = XmeterPlans.write(dir, "plain.jmx", plan(threadGroup("G", 1, 1)));
        Path doctype = XmeterPlans.write(dir, "doctype.jmx", "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM "
                + "\"file:///etc/passwd\">]><jmeterTestPlan>&e;</jmeterTestPlan>");

        Converted missing = Converted.run(dir.resolve("o.jmx"), dir.resolve("missing.jmx").toString());
        assertThat(missing.exitCode).isEqualTo(1);
        assertThat(missing.err).contains("missing.jmx: no such file");

        Converted xml = Converted.run(dir.resolve("o.jmx"), notXml.toString());
        assertThat(xml.exitCode).isEqualTo(1);
        assertThat(xml.err).contains("notxml.jmx is not well-formed XML: line 1");

        Converted plan = Converted.run(dir.resolve("o.jmx"), notPlan.toString());
        assertThat(plan.exitCode).isEqualTo(1);
        assertThat(plan.err).contains("notplan.jmx is not a JMeter plan: its root element is <project>");

        Converted nothing = Converted.run(dir.resolve("o.jmx"), noXmeter.toString());
        assertThat(nothing.exitCode).isEqualTo(1);
        assertThat(nothing.err).contains("plain.jmx holds no XMeter element");

        Converted entity = Converted.run(dir.resolve("o.jmx"), doctype.toString());
        assertThat(entity.exitCode).isEqualTo(1);
        assertThat(entity.err).contains("doctype.jmx is not well-formed XML").doesNotContain("root:");

        Converted same = Converted.run(dir.resolve("o.jmx"), noXmeter.toString(), "-o", noXmeter.toString());
        assertThat(same.exitCode).isEqualTo(1);
        assertThat(same.err).contains("the output would overwrite the input");

        Converted usage = Converted.run(dir.resolve("o.jmx"));
        assertThat(usage.exitCode).isEqualTo(1);
        assertThat(usage.err).contains("Missing required parameter: 'PLAN.jmx'");

        for (Converted c : List.of(missing, xml, plan, nothing, entity, same, usage)) {
            assertThat(c.err).doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(c.out).isEmpty();
        }
        assertThat(dir.resolve("o.jmx")).doesNotExist();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                .noneMatch(n -> n.endsWith(".conversion.md"));
    }

    @Test
    void help_describesTheCommandAndItsExitCodes() {
        Converted help = Converted.run(dir.resolve("o.jmx"), "--help");

        assertThat(help.exitCode).isZero();
        assertThat(help.out).contains("PLAN.jmx").contains("-o, --output=OUT.jmx").contains("Exit code: 0 converted");
    }

    private static <T> List<T> find(HashTree tree, Class<T> type) {
        SearchByClass<T> search = new SearchByClass<>(type);
        tree.traverse(search);
        return List.copyOf(search.getSearchResults());
    }

    @Test
    void secrets_areMasked_inTheReport_theConsole_andThePlaceholdersComment() {
        String unknown = node("<net.xmeter.configs.Vault guiclass=\"TestBeanGUI\" testclass=\"net.xmeter.configs.Vault\""
                + " testname=\"Vault\" enabled=\"true\">\n" + str("db.Password", "hunter2") + "\n"
                + str("apiToken", "tok-123") + "\n" + str("user", "alice") + "\n</net.xmeter.configs.Vault>");
        Converted c = Converted.convert(dir, plan(unknown, threadGroup("G", 1, 1,
                connect("Connect", str("mqtt.server", "h"), str("mqtt.client_secret", "s3cr3t"),
                        str("mqtt.key_passphrase", "${pass}")))));

        assertThat(c.exitCode).isEqualTo(2);
        for (String text : List.of(c.out, c.reportText(), c.planText())) {
            assertThat(text).doesNotContain("hunter2").doesNotContain("tok-123").doesNotContain("s3cr3t");
        }
        assertThat(c.out).contains("mqtt.client_secret = ******").contains("mqtt.key_passphrase = ${pass}");
        assertThat(prop(c.element("GenericController", "NOT CONVERTED: Vault"), "TestPlan.comments"))
                .contains("db.Password = ******").contains("apiToken = ******").contains("user = alice");
    }

    @Test
    void aPlanWithCrlfLines_isWrittenWithCrlfLines() {
        String input = plan(threadGroup("G", 1, 1, connect("Connect", str("mqtt.server", "h")))).replace("\n", "\r\n");

        Converted c = Converted.convert(dir, input);

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        String text = c.planText();
        assertThat(text).contains("\r\n");
        assertThat(text.replace("\r\n", "")).doesNotContain("\n");
        assertThat(JMeterTestEngine.load(c.plan)).isNotNull();
    }
}
