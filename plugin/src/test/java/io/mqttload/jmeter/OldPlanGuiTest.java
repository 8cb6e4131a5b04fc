package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.testsupport.JMeterTestEngine;

/**
 * A plan saved before MQTT Run Report, MQTT Publish and MQTT Run End had panels of their own names JMeter's generic
 * bean editor for them; read now, each element names its own panel, which JMeter's GUI then opens.
 */
class OldPlanGuiTest {
    private static final String OLD_PLAN = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\">\n  <hashTree>\n"
            + "    <TestPlan guiclass=\"TestPlanGui\" testclass=\"TestPlan\" testname=\"old\" enabled=\"true\"/>\n"
            + "    <hashTree>\n"
            + "      <io.mqttload.jmeter.MqttRunReport guiclass=\"TestBeanGUI\" testclass=\"io.mqttload.jmeter.MqttRunReport\""
            + " testname=\"MQTT Run Report\" enabled=\"true\"/>\n      <hashTree/>\n"
            + "      <io.mqttload.jmeter.MqttPublishSampler guiclass=\"TestBeanGUI\""
            + " testclass=\"io.mqttload.jmeter.MqttPublishSampler\" testname=\"MQTT Publish\" enabled=\"true\"/>\n"
            + "      <hashTree/>\n"
            + "      <io.mqttload.jmeter.MqttRunEndSampler guiclass=\"TestBeanGUI\""
            + " testclass=\"io.mqttload.jmeter.MqttRunEndSampler\" testname=\"MQTT Run End\" enabled=\"true\"/>\n"
            + "      <hashTree/>\n    </hashTree>\n  </hashTree>\n</jmeterTestPlan>\n";

    @BeforeAll
    static void jmeter() {
        JMeterTestEngine.initialise();
    }

    @Test
    void planSavedWithTheGenericBeanEditor_opensEachElementWithItsOwnPanel(@TempDir Path dir) throws IOException {
        Path plan = dir.resolve("old.jmx");
        Files.writeString(plan, OLD_PLAN, StandardCharsets.UTF_8);

        HashTree tree = JMeterTestEngine.load(plan);

        Map<Class<? extends TestElement>, Class<?>> panels = Map.of(MqttRunReport.class, MqttRunReportGui.class,
                MqttPublishSampler.class, MqttPublishSamplerGui.class, MqttRunEndSampler.class, MqttRunEndSamplerGui.class);
        panels.forEach((element, panel) -> {
            SearchByClass<? extends TestElement> search = new SearchByClass<>(element);
            tree.traverse(search);
            assertThat(search.getSearchResults()).as(element.getSimpleName()).hasSize(1);
            assertThat(search.getSearchResults().iterator().next().getPropertyAsString(TestElement.GUI_CLASS))
                    .as(element.getSimpleName()).isEqualTo(panel.getName());
        });
    }
}
