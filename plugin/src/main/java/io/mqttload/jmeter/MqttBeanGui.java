package io.mqttload.jmeter;

import java.awt.BorderLayout;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.Rectangle;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;

import javax.swing.JLabel;
import javax.swing.JViewport;
import javax.swing.Scrollable;
import javax.swing.SwingConstants;

import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;

/**
 * A TestBean panel that scrolls as a page should in JMeter's editing pane. JMeter puts each element's panel in one
 * scroll pane whose scroll bars move by their default unit of one pixel, so a mouse-wheel notch moved a TestBean
 * panel by three pixels; a {@link Scrollable} panel gives the pane its own unit. The panel also takes the pane's width,
 * so wrapped text wraps at the window's edge instead of widening the panel into a horizontal scroll.
 */
abstract class MqttBeanGui extends TestBeanGUI implements Scrollable {
    private static final long serialVersionUID = 1L;
    /** About a line of text and a half: three of them a notch, as a browser scrolls. */
    private static final int WHEEL_UNIT_PIXELS = 24;

    private final Class<?> beanClass;
    private boolean laidOut;

    protected MqttBeanGui(Class<?> beanClass) {
        super(beanClass);
        this.beanClass = beanClass;
    }

    /**
     * The GUI class a plan's element gets when it is read: plans saved before an element had a panel of its own name
     * JMeter's generic bean editor ({@code guiclass="TestBeanGUI"}), which would show the element without it.
     */
    static String guiClassAsRead(String property, String value, Class<? extends MqttBeanGui> gui) {
        return TestElement.GUI_CLASS.equals(property) && TestBeanGUI.class.getName().equals(value) ? gui.getName() : value;
    }

    /**
     * TestBeanGUI lays its bean editor out in the middle of the panel at the first configure: {@link #page} may then put
     * it into a page of its own, once.
     */
    @Override
    public void configure(TestElement element) {
        super.configure(element);
        if (!laidOut) {
            laidOut = true;
            Component fields = ((BorderLayout) getLayout()).getLayoutComponent(BorderLayout.CENTER);
            if (fields != null) {
                remove(fields);
                add(page(fields), BorderLayout.CENTER);
            }
        }
    }

    /** The middle of the panel, made around the bean editor's fields: by default the fields alone. */
    protected Component page(Component fields) {
        return fields;
    }

    /** JMeter lists this panel in its Add menu in place of the generic bean editor, which the bean info hides. */
    @Override
    public boolean isHidden() {
        return false;
    }

    /**
     * The bean editor's components for a field (its label and its editor), found by the field's label once the editor
     * is laid out (after the first configure), or an empty array when the editor does not show the field.
     */
    protected Component[] field(String property) {
        String label;
        try {
            label = displayName(property);
        } catch (IntrospectionException e) {
            return new Component[0];
        }
        JLabel found = findLabel(this, label);
        return found == null || found.getLabelFor() == null ? new Component[0]
                : new Component[] {found, found.getLabelFor()};
    }

    private String displayName(String property) throws IntrospectionException {
        for (PropertyDescriptor p : Introspector.getBeanInfo(beanClass).getPropertyDescriptors()) {
            if (p.getName().equals(property)) {
                return p.getDisplayName();
            }
        }
        throw new IntrospectionException("no field " + property);
    }

    /** JMeter's labels read the display name and a colon. */
    private static JLabel findLabel(Container parent, String displayName) {
        for (Component c : parent.getComponents()) {
            if (c instanceof JLabel && ((JLabel) c).getText() != null && ((JLabel) c).getText().startsWith(displayName)
                    && ((JLabel) c).getText().length() <= displayName.length() + 1) {
                return (JLabel) c;
            }
            if (c instanceof Container) {
                JLabel inside = findLabel((Container) c, displayName);
                if (inside != null) {
                    return inside;
                }
            }
        }
        return null;
    }

    @Override
    public Dimension getPreferredScrollableViewportSize() {
        return getPreferredSize();
    }

    @Override
    public int getScrollableUnitIncrement(Rectangle visible, int orientation, int direction) {
        return WHEEL_UNIT_PIXELS;
    }

    @Override
    public int getScrollableBlockIncrement(Rectangle visible, int orientation, int direction) {
        int page = orientation == SwingConstants.VERTICAL ? visible.height : visible.width;
        return Math.max(WHEEL_UNIT_PIXELS, page - WHEEL_UNIT_PIXELS);
    }

    @Override
    public boolean getScrollableTracksViewportWidth() {
        return true;
    }

    /** Fills a pane taller than the panel (as JMeter's panels do), and scrolls in one shorter. */
    @Override
    public boolean getScrollableTracksViewportHeight() {
        return getParent() instanceof JViewport && getParent().getHeight() > getPreferredSize().height;
    }
}
