package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.BorderLayout;
import java.awt.Component;
import java.awt.Rectangle;

import javax.swing.JComponent;
import javax.swing.JPanel;
import javax.swing.JToggleButton;
import javax.swing.SwingConstants;
import javax.swing.border.TitledBorder;

import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mqttload.testsupport.JMeterTestEngine;

/** JMeter offers the Run Report once, with the live panel, and a report made there opens there again; the run comes first. */
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
    void runPanel_isLaidOutAboveTheFoldedFieldsOnceJMeterConfiguresTheElement() {
        MqttRunReportGui gui = new MqttRunReportGui();
        TestElement element = gui.createTestElement();

        gui.configure(element);
        gui.configure(element);

        BorderLayout layout = (BorderLayout) gui.getLayout();
        JPanel page = (JPanel) layout.getLayoutComponent(BorderLayout.CENTER);
        BorderLayout pageLayout = (BorderLayout) page.getLayout();
        assertThat(((JComponent) pageLayout.getLayoutComponent(BorderLayout.CENTER)).getBorder())
                .isInstanceOf(TitledBorder.class);
        JPanel below = (JPanel) pageLayout.getLayoutComponent(BorderLayout.SOUTH);
        Component fields = ((BorderLayout) below.getLayout()).getLayoutComponent(BorderLayout.CENTER);
        assertThat(fields.isVisible()).isFalse();
        ((JToggleButton) ((BorderLayout) below.getLayout()).getLayoutComponent(BorderLayout.NORTH)).doClick();
        assertThat(fields.isVisible()).isTrue();
        // The title panel and the page: configuring again lays nothing out twice.
        assertThat(gui.getComponentCount()).isEqualTo(2);
    }

    @Test
    void panel_takesTheScrollPanesWidth_andScrollsALineANotch() {
        MqttRunReportGui gui = new MqttRunReportGui();

        assertThat(gui.getScrollableTracksViewportWidth()).isTrue();
        assertThat(gui.getScrollableUnitIncrement(new Rectangle(0, 0, 800, 600), SwingConstants.VERTICAL, 1))
                .isGreaterThanOrEqualTo(16);
    }

    @Test
    void menus_listThePanelAndNotTheGenericBeanEditor() {
        assertThat(new MqttRunReportGui().isHidden()).isFalse();
        assertThat(new TestBeanGUI(MqttRunReport.class).isHidden()).isTrue();
        assertThat(new MqttPublishSamplerGui().isHidden()).isFalse();
        assertThat(new TestBeanGUI(MqttPublishSampler.class).isHidden()).isTrue();
        assertThat(new MqttRunEndSamplerGui().isHidden()).isFalse();
        assertThat(new TestBeanGUI(MqttRunEndSampler.class).isHidden()).isTrue();
    }
}
