package io.mqttload.jmeter;

import java.util.Locale;
import java.util.ResourceBundle;

import org.apache.jmeter.util.JMeterUtils;

/**
 * The MQTT Run End sampler has no fields: the engine properties set its waits. Its panel ({@link MqttRunEndSamplerGui},
 * listed in place of the generic bean editor) shows the bean's description, from the resources' shortDescription.
 */
public class MqttRunEndSamplerBeanInfo extends MqttBeanInfoSupport {
    public MqttRunEndSamplerBeanInfo() {
        super(MqttRunEndSampler.class);
        Locale locale = JMeterUtils.getLocale();
        getBeanDescriptor().setShortDescription(ResourceBundle.getBundle(MqttRunEndSampler.class.getName() + "Resources",
                locale == null ? Locale.ROOT : locale).getString("shortDescription"));
        getBeanDescriptor().setHidden(true);
    }
}
