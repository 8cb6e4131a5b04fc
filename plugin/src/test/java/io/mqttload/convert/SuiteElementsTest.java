package io.mqttload.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.InfluxSettings;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.Setting;
import io.mqttload.common.settings.SubscribeSettings;
import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.jmeter.MqttDisconnectSampler;
import io.mqttload.jmeter.MqttPublishSampler;
import io.mqttload.jmeter.MqttRunEndSampler;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.jmeter.MqttSubscribeSampler;

/**
 * The converter writes every field of the suite's elements with its default (JMeter sets a field a plan leaves out to
 * empty, which the newer fields may refuse); this holds its list to the elements' BeanInfo, so a field added to an
 * element fails here until the converter writes it too.
 */
class SuiteElementsTest {
    static Stream<Arguments> elements() throws Exception {
        SuiteElements suite = new SuiteElements(DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument());
        return Stream.of(
                Arguments.of(MqttConnectionConfig.class, (Function<String, SuiteElements.Bean>) n -> suite.connection(n, true)),
                Arguments.of(MqttConnectSampler.class, (Function<String, SuiteElements.Bean>) n -> suite.connect(n, true)),
                Arguments.of(MqttSubscribeSampler.class, (Function<String, SuiteElements.Bean>) n -> suite.subscribe(n, true)),
                Arguments.of(MqttPublishSampler.class, (Function<String, SuiteElements.Bean>) n -> suite.publish(n, true)),
                Arguments.of(MqttDisconnectSampler.class, (Function<String, SuiteElements.Bean>) n -> suite.disconnect(n, true)),
                Arguments.of(MqttRunReport.class, (Function<String, SuiteElements.Bean>) suite::runReport),
                Arguments.of(MqttRunEndSampler.class, (Function<String, SuiteElements.Bean>) suite::runEnd));
    }

    static Stream<Arguments> declaredElements() throws Exception {
        SuiteElements suite = new SuiteElements(DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument());
        return Stream.of(Arguments.of(suite.connection("x", true), ConnectionConfigSettings.ALL),
                Arguments.of(suite.publish("x", true), PublishSettings.ALL),
                Arguments.of(suite.connect("x", true), ConnectSettings.ALL),
                Arguments.of(suite.subscribe("x", true), SubscribeSettings.ALL),
                Arguments.of(suite.disconnect("x", true), DisconnectSettings.ALL),
                Arguments.of(suite.runReport("x"), InfluxSettings.REPORT));
    }

    @ParameterizedTest
    @MethodSource("declaredElements")
    void defaults_areTheDeclarations(SuiteElements.Bean bean, List<Setting<?>> declared) {
        Map<String, String> expected = new TreeMap<>();
        for (Setting<?> s : declared) {
            expected.put(s.name(), s.defaultText());
        }

        assertThat(new TreeMap<>(bean.fields())).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("elements")
    void fieldsAndDefaults_areThoseOfTheElementsBeanInfo(Class<?> element, Function<String, SuiteElements.Bean> make)
            throws Exception {
        BeanInfo info = Introspector.getBeanInfo(element);
        Map<String, Object> expected = new TreeMap<>();
        for (PropertyDescriptor p : info.getPropertyDescriptors()) {
            if (!TestBeanHelper.isDescriptorIgnored(p)) {
                expected.put(p.getName(), p.getValue(GenericTestBeanCustomizer.DEFAULT));
            }
        }

        SuiteElements.Bean bean = make.apply("x");

        assertThat(new TreeMap<String, Object>(bean.fields())).as(element.getSimpleName()).isEqualTo(expected);
        assertThat(bean.build().getTagName()).isEqualTo(element.getName());
    }
}
