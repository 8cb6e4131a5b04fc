package io.mqttload.jmeter;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.FileEditor;
import org.apache.jmeter.testbeans.gui.PasswordEditor;
import org.apache.jmeter.testbeans.gui.TextAreaEditor;

import io.mqttload.common.settings.InfluxSettings;
import io.mqttload.common.settings.SamplerSettings;
import io.mqttload.common.settings.Setting;

/**
 * The few kinds of field the MQTT elements have. Every field accepts JMeter expressions such as
 * {@code ${__P(clients,100)}}, so plans scale by properties; choices offer their values in a list.
 */
abstract class MqttBeanInfoSupport extends BeanInfoSupport {
    protected MqttBeanInfoSupport(Class<? extends TestBean> beanClass) {
        super(beanClass);
    }

    /** A property group of declared settings, each with its declared default and editor. */
    protected void group(String name, Setting<?>... settings) {
        String[] names = new String[settings.length];
        for (int i = 0; i < settings.length; i++) {
            names[i] = settings[i].name();
        }
        createPropertyGroup(name, names);
        for (Setting<?> s : settings) {
            field(s);
        }
    }

    private void field(Setting<?> s) {
        switch (s.editor()) {
            case MULTI_LINE:
                multiLine(s.name(), s.defaultText());
                break;
            case FILE:
                file(s.name());
                break;
            case SECRET:
                secret(s.name());
                break;
            case CHOICE:
                choice(s.name(), s.defaultText(), s.choices().toArray(new String[0]));
                break;
            default:
                text(s.name(), s.defaultText());
                break;
        }
    }

    protected PropertyDescriptor text(String name, String defaultValue) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, defaultValue);
        return p;
    }

    protected void multiLine(String name, String defaultValue) {
        text(name, defaultValue).setPropertyEditorClass(TextAreaEditor.class);
    }

    protected void secret(String name) {
        text(name, "").setPropertyEditorClass(PasswordEditor.class);
    }

    protected void file(String name) {
        text(name, "").setPropertyEditorClass(FileEditor.class);
    }

    protected void choice(String name, String defaultValue, String... values) {
        PropertyDescriptor p = text(name, defaultValue);
        p.setValue(TAGS, values);
        // Other values stay allowed so that a plan can set the choice with ${__P(...)}.
        p.setValue(NOT_OTHER, Boolean.FALSE);
    }

    /**
     * Where to write in InfluxDB: URL, database and retention policy (with {@code more} fields of the element's
     * own in the same group), and the authentication group. MQTT Metrics and MQTT Run Report share the names,
     * so one ${__P(...)} sets both.
     */
    protected void influxFields(Setting<?>... more) {
        Setting<?>[] influx = new Setting<?>[3 + more.length];
        influx[0] = InfluxSettings.INFLUX_URL;
        influx[1] = InfluxSettings.INFLUX_DATABASE;
        influx[2] = InfluxSettings.RETENTION_POLICY;
        System.arraycopy(more, 0, influx, 3, more.length);
        group("influx", influx);
        group("auth", InfluxSettings.AUTHENTICATION, InfluxSettings.USERNAME, InfluxSettings.PASSWORD,
                InfluxSettings.TOKEN);
    }

    /** The group of the client-group field every sampler has. */
    protected void clientGroupField() {
        group("threadClients", SamplerSettings.CLIENT_GROUP);
    }
}
