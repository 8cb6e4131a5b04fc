package io.mqttload.jmeter;

import java.awt.Component;
import java.util.Locale;
import java.util.Arrays;

import javax.swing.JComboBox;
import javax.swing.JTextArea;

import org.apache.jmeter.testelement.TestElement;

/**
 * MQTT Publish's panel: JMeter's bean editor, showing of the payload fields only the one the payload type uses (the
 * text area only for a TEXT payload), so that a RANDOM publisher's flow control and MQTT 5 groups are not pushed
 * below a large empty text area.
 */
public class MqttPublishSamplerGui extends MqttBeanGui {
    private static final long serialVersionUID = 1L;
    /** The field each payload type reads; a type given as an expression may be any, and shows them all. */
    /** Text areas a few lines high (JMeter's are 20): a longer text scrolls inside them. */
    private static final int TEXT_ROWS = 6;
    private static final int USER_PROPERTY_ROWS = 3;
    private transient JComboBox<?> type;

    public MqttPublishSamplerGui() {
        super(MqttPublishSampler.class);
    }

    @Override
    public void configure(TestElement element) {
        super.configure(element);
        if (type == null) {
            type = combo(field("payloadType"));
            if (type != null) {
                type.addActionListener(e -> showPayloadFieldsOf(String.valueOf(type.getSelectedItem())));
            }
            shorten("payloadText", TEXT_ROWS);
            shorten("userProperties", USER_PROPERTY_ROWS);
        }
        showPayloadFieldsOf(element.getPropertyAsString("payloadType"));
    }

    /** The field each payload type reads; the others are hidden while it is chosen. */
    private enum PayloadField {
        RANDOM("payloadSize"), TEXT("payloadText"), FILE("payloadFile");

        final String property;

        PayloadField(String property) {
            this.property = property;
        }
    }

    private void showPayloadFieldsOf(String payloadType) {
        String type = payloadType == null ? "" : payloadType.trim().toUpperCase(Locale.ROOT);
        boolean known = Arrays.stream(PayloadField.values()).anyMatch(f -> f.name().equals(type));
        for (PayloadField field : PayloadField.values()) {
            for (Component c : field(field.property)) {
                c.setVisible(!known || field.name().equals(type));
            }
        }
        revalidate();
        repaint();
    }

    private void shorten(String property, int rows) {
        Component[] f = field(property);
        JTextArea area = f.length == 0 ? null : find(JTextArea.class, f[1]);
        if (area != null) {
            area.setRows(rows);
        }
    }

    private static JComboBox<?> combo(Component[] field) {
        return field.length == 0 ? null : find(JComboBox.class, field[1]);
    }

    private static <T> T find(Class<T> type, Component c) {
        if (type.isInstance(c)) {
            return type.cast(c);
        }
        if (c instanceof java.awt.Container) {
            for (Component child : ((java.awt.Container) c).getComponents()) {
                T found = find(type, child);
                if (found != null) {
                    return found;
                }
            }
        }
        if (c instanceof javax.swing.JScrollPane) {
            return find(type, ((javax.swing.JScrollPane) c).getViewport().getView());
        }
        return null;
    }
}
