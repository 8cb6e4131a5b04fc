package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Collections;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.testsupport.JMeterTestEngine;

/** Like JMeter's own PackageTest: every TestBean's bundle has exactly the keys its GUI needs. */
class ResourceBundleTest {
    static Stream<Class<?>> testBeans() {
        return Stream.of(MqttConnectionConfig.class, MqttConnectSampler.class, MqttPublishSampler.class,
                MqttSubscribeSampler.class, MqttDisconnectSampler.class, MqttMetricsConfig.class,
                MqttRendezvousTimer.class, MqttRunEndSampler.class, MqttRunReport.class, MqttBrokerMonitor.class,
                MqttOutageSampler.class);
    }

    /**
     * The menu JMeter's GUI files each element under (Add ▸ Sampler / Timer / Listener / Config Element):
     * TestBeanGUI decides it from the interfaces; a listener that is not a Visualizer gets no menu at all.
     */
    @ParameterizedTest
    @MethodSource("testBeans")
    void guiMenu_isTheElementsKind(Class<?> bean) {
        JMeterTestEngine.initialise();
        String expected = org.apache.jmeter.samplers.Sampler.class.isAssignableFrom(bean) ? MenuFactory.SAMPLERS
                : org.apache.jmeter.timers.Timer.class.isAssignableFrom(bean) ? MenuFactory.TIMERS
                        : org.apache.jmeter.samplers.SampleListener.class.isAssignableFrom(bean) ? MenuFactory.LISTENERS
                                : MenuFactory.CONFIG_ELEMENTS;
        assertThat(new TestBeanGUI(bean).getMenuCategories()).as(bean.getSimpleName()).containsExactly(expected);
    }

    @ParameterizedTest
    @MethodSource("testBeans")
    void bundle_hasEveryKeyTheGuiNeeds_andNoUnusedKey(Class<?> bean) throws Exception {
        BeanInfo info = Introspector.getBeanInfo(bean);
        ResourceBundle bundle = ResourceBundle.getBundle(bean.getName() + "Resources", Locale.ROOT);
        Set<String> needed = new TreeSet<>();
        needed.add("displayName");
        if (bean == MqttRunEndSampler.class) {
            // A bean with no fields: its panel says what it does instead.
            needed.add("shortDescription");
        }
        for (PropertyDescriptor p : info.getPropertyDescriptors()) {
            if (TestBeanHelper.isDescriptorIgnored(p)) {
                continue;
            }
            needed.add(p.getName() + ".displayName");
            needed.add(p.getName() + ".shortDescription");
            Object group = p.getValue(GenericTestBeanCustomizer.GROUP);
            assertThat(group).as("property %s of %s belongs to a group", p.getName(), bean.getSimpleName()).isNotNull();
            needed.add(group + ".displayName");
        }

        Set<String> present = new TreeSet<>(Collections.list(bundle.getKeys()));

        assertThat(present).as("keys of %sResources", bean.getSimpleName()).containsAll(needed);
        assertThat(needed).as("keys of %sResources used by its GUI", bean.getSimpleName()).containsAll(present);
        for (String key : present) {
            assertThat(bundle.getString(key)).as(key).isNotBlank();
        }
    }
}
