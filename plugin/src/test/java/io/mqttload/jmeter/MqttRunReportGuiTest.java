package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.BorderLayout;

import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mqttload.testsupport.JMeterTestEngine;

/** JMeter offers the Run Report once, with the live panel, and a report made there opens there again. */
class MqttRunReportGuiTest {
    @BeforeAll
    static void jmeter() {
        JMeterTestEngine.initialise();
    }

    @Test
    void elementMadeInThePanel_isARunReportSavedWithThePanelAsItsGui() {
        MqttRunReportGui gui = new MqttRunReportGui();

        TestElement element = gui.createTestElement();

        assertThat(element).isInstanceOf(MqttRunReport.class);
        assertThat(element.getPropertyAsString(TestElement.GUI_CLASS)).isEqualTo(MqttRunReportGui.class.getName());
    }

    @Test
    void runPanel_isLaidOutBelowTheFieldsOnceJMeterConfiguresTheElement() {
        MqttRunReportGui gui = new MqttRunReportGui();
        TestElement element = gui.createTestElement();

        gui.configure(element);
        gui.configure(element);

        BorderLayout layout = (BorderLayout) gui.getLayout();
        assertThat(layout.getLayoutComponent(BorderLayout.SOUTH)).isNotNull();
        assertThat(gui.getComponentCount()).isEqualTo(3);
    }

    @Test
    void menus_listThePanelAndNotTheGenericBeanEditor() {
        assertThat(new MqttRunReportGui().isHidden()).isFalse();
        assertThat(new TestBeanGUI(MqttRunReport.class).isHidden()).isTrue();
    }
}
