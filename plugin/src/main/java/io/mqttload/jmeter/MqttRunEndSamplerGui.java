package io.mqttload.jmeter;

import java.awt.BorderLayout;
import java.awt.Component;
import java.beans.IntrospectionException;
import java.beans.Introspector;

import javax.swing.BorderFactory;
import javax.swing.JPanel;
import javax.swing.JTextArea;
import javax.swing.UIManager;


/** MQTT Run End's panel: the element has no fields, so the panel says what it does and where it belongs. */
public class MqttRunEndSamplerGui extends MqttBeanGui {
    private static final long serialVersionUID = 1L;
    private final JTextArea what = new JTextArea();

    public MqttRunEndSamplerGui() {
        super(MqttRunEndSampler.class);
        what.setText(description());
        what.setEditable(false);
        what.setLineWrap(true);
        what.setWrapStyleWord(true);
        what.setOpaque(false);
        what.setFont(UIManager.getFont("Label.font"));
        what.setBorder(BorderFactory.createEmptyBorder(8, 4, 8, 4));
    }

    /** The description above the bean editor, which is empty. */
    @Override
    protected Component page(Component fields) {
        JPanel page = new JPanel(new BorderLayout());
        page.add(what, BorderLayout.NORTH);
        page.add(fields, BorderLayout.CENTER);
        return page;
    }

    /** The bean's description from its resources (see {@link MqttRunEndSamplerBeanInfo}). */
    private static String description() {
        try {
            return Introspector.getBeanInfo(MqttRunEndSampler.class).getBeanDescriptor().getShortDescription();
        } catch (IntrospectionException e) {
            return e.getMessage();
        }
    }
}
