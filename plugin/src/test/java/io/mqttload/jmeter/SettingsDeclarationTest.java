package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.BrokerMonitorSettings;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.OutageSettings;
import io.mqttload.common.settings.InfluxSettings;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.RendezvousSettings;
import io.mqttload.common.settings.Setting;
import io.mqttload.common.settings.SubscribeSettings;
import io.mqttload.testsupport.JMeterTestEngine;

/**
 * Holds each element with a settings declaration to it: the declaration is the element's fields (names, defaults,
 * editors, choices), its defaults pass their own checks, its resource text covers every setting and nothing else, and
 * every value a check refuses fails the element with the one error that names the field and the value, and nothing
 * outside the declaration checks a declared field again. Iterates the declaration, so a new setting is covered when it
 * is declared. The converter's defaults are {@code SuiteElementsTest}'s.
 */
class SettingsDeclarationTest {
    static Stream<Arguments> declaredElements() {
        return Stream.of(Arguments.of(MqttConnectionConfig.class, ConnectionConfigSettings.ALL),
                Arguments.of(MqttPublishSampler.class, PublishSettings.ALL),
                Arguments.of(MqttConnectSampler.class, ConnectSettings.ALL),
                Arguments.of(MqttSubscribeSampler.class, SubscribeSettings.ALL),
                Arguments.of(MqttDisconnectSampler.class, DisconnectSettings.ALL),
                Arguments.of(MqttOutageSampler.class, OutageSettings.ALL),
                Arguments.of(MqttRendezvousTimer.class, RendezvousSettings.ALL),
                Arguments.of(MqttMetricsConfig.class, InfluxSettings.METRICS),
                Arguments.of(MqttRunReport.class, InfluxSettings.REPORT),
                Arguments.of(MqttBrokerMonitor.class, BrokerMonitorSettings.ALL));
    }

    @BeforeAll
    static void jmeter() {
        JMeterTestEngine.initialise();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("declaredElements")
    void defaults_passTheirOwnChecks(Class<?> element, List<Setting<?>> declared) {
        for (Setting<?> s : declared) {
            assertThat(s.defaultValue()).as("%s.%s", element.getSimpleName(), s.name()).isNotNull();
            assertThat(s.refusedExamples()).as("%s refuses its own default", s.name()).doesNotContain(s.defaultText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("declaredElements")
    void beanInfoAndFields_areTheDeclaration(Class<?> element, List<Setting<?>> declared) throws Exception {
        Map<String, PropertyDescriptor> properties = properties(element);
        Object fresh = element.getDeclaredConstructor().newInstance();

        assertThat(properties.keySet()).as("%s's fields", element.getSimpleName())
                .containsExactlyInAnyOrderElementsOf(names(declared));
        for (Setting<?> s : declared) {
            PropertyDescriptor p = properties.get(s.name());
            assertThat(p.getValue(GenericTestBeanCustomizer.DEFAULT)).as("BeanInfo default of %s", s.name())
                    .isEqualTo(s.defaultText());
            assertThat(p.getReadMethod().invoke(fresh)).as("initial value of %s", s.name()).isEqualTo(s.defaultText());
            String[] tags = (String[]) p.getValue(GenericTestBeanCustomizer.TAGS);
            assertThat(tags == null ? List.of() : List.of(tags)).as("choices of %s", s.name()).isEqualTo(s.choices());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("declaredElements")
    void resources_describeEverySetting_andNoOther(Class<?> element, List<Setting<?>> declared) throws Exception {
        ResourceBundle bundle = ResourceBundle.getBundle(element.getName() + "Resources", Locale.ROOT);
        Set<String> groups = new TreeSet<>();
        for (PropertyDescriptor p : properties(element).values()) {
            groups.add((String) p.getValue(GenericTestBeanCustomizer.GROUP));
        }
        Set<String> described = new TreeSet<>();
        for (String key : Collections.list(bundle.getKeys())) {
            int dot = key.lastIndexOf('.');
            String subject = dot < 0 ? "" : key.substring(0, dot);
            if (!subject.isEmpty() && !groups.contains(subject)) {
                described.add(subject);
            }
        }

        for (Setting<?> s : declared) {
            assertThat(bundle.containsKey(s.name() + ".displayName")).as("%s.displayName", s.name()).isTrue();
            assertThat(bundle.containsKey(s.name() + ".shortDescription")).as("%s.shortDescription", s.name()).isTrue();
        }
        assertThat(described).as("fields %sResources describes", element.getSimpleName())
                .containsExactlyInAnyOrderElementsOf(names(declared));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("declaredElements")
    void everyRefusedValue_failsTheElement_withTheOneErrorNamingFieldAndValue(Class<?> element,
            List<Setting<?>> declared) throws Exception {
        Map<String, PropertyDescriptor> properties = properties(element);
        List<String> checked = new ArrayList<>();
        for (Setting<?> s : declared) {
            for (String refused : s.refusedExamples()) {
                assertThatThrownBy(() -> s.parse(refused)).as("the declaration's own check")
                        .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                            assertThat(e.field()).isEqualTo(s.name());
                            assertThat(e.value()).isEqualTo(refused);
                        })
                        .hasMessageStartingWith(s.name() + " = '" + refused + "': ");
                if (AbstractMqttSampler.class.isAssignableFrom(element)) {
                    // A sampler checks its fields before its first sample; the other elements parse them as they
                    // start or delay, in a running test, with these same declarations.
                    AbstractMqttSampler sampler = (AbstractMqttSampler) element.getDeclaredConstructor().newInstance();
                    properties.get(s.name()).getWriteMethod().invoke(sampler, refused);

                    assertThatThrownBy(sampler::validate).as("%s = '%s'", s.name(), refused)
                            .isInstanceOf(InvalidSettingException.class)
                            .hasMessage(messageOf(s, refused));
                } else if (element == MqttConnectionConfig.class) {
                    MqttConnectionConfig config = new MqttConnectionConfig();
                    if (s == ConnectionConfigSettings.VERIFY_HOSTNAME) {
                        // Read only for a secure transport, where it applies.
                        config.setTransport("TLS");
                    }
                    properties.get(s.name()).getWriteMethod().invoke(config, refused);

                    assertThatThrownBy(config::settings).as("%s = '%s'", s.name(), refused)
                            .isInstanceOf(InvalidSettingException.class)
                            .hasMessage(messageOf(s, refused));
                }
            }
            if (!s.refusedExamples().isEmpty()) {
                checked.add(s.name());
            }
        }
        assertThat(checked).as("settings of %s with a check", element.getSimpleName()).isNotEmpty();
    }

    /**
     * A setting with a check is checked by its declaration alone: no main class outside the declarations calls
     * {@code Checks} or {@code SettingText} (whose checks take the field's name first) with the name of such a setting.
     * A second check is how a range changed in one place came to disagree with the other.
     */
    @Test
    void noCheckedSetting_isCheckedAgain_outsideItsDeclaration() throws IOException {
        Set<String> checkedNames = new TreeSet<>();
        declaredElements().forEach(a -> {
            @SuppressWarnings("unchecked")
            List<Setting<?>> declared = (List<Setting<?>>) a.get()[1];
            for (Setting<?> s : declared) {
                if (!s.refusedExamples().isEmpty()) {
                    checkedNames.add(s.name());
                }
            }
        });
        Pattern check = Pattern.compile("\\b(?:Checks|SettingText)\\.\\w+\\(\\s*\"(\\w+)\"");
        Path main = Path.of("src", "main", "java");
        Path declarations = main.resolve(Path.of("io", "mqttload", "common", "settings"));
        List<String> again = new ArrayList<>();
        try (Stream<Path> files = Files.walk(main)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(declarations))
                    .collect(Collectors.toList())) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = check.matcher(lines.get(i));
                    while (m.find()) {
                        if (checkedNames.contains(m.group(1))) {
                            again.add(main.relativize(file) + ":" + (i + 1) + " checks " + m.group(1));
                        }
                    }
                }
            }
        }

        assertThat(checkedNames).contains("port", "keepAliveSeconds", "receiveMaximum", "bufferedPoints");
        assertThat(again).as("declared settings checked again").isEmpty();
    }

    private static String messageOf(Setting<?> s, String refused) {
        try {
            s.parse(refused);
            throw new AssertionError(s.name() + " took " + refused);
        } catch (InvalidSettingException e) {
            return e.getMessage();
        }
    }

    /** The element's fields, by name, as JMeter's GUI and plan loading see them. */
    private static Map<String, PropertyDescriptor> properties(Class<?> element) throws Exception {
        BeanInfo info = Introspector.getBeanInfo(element);
        Map<String, PropertyDescriptor> byName = new LinkedHashMap<>();
        for (PropertyDescriptor p : info.getPropertyDescriptors()) {
            if (!TestBeanHelper.isDescriptorIgnored(p)) {
                byName.put(p.getName(), p);
            }
        }
        return new TreeMap<>(byName);
    }

    private static List<String> names(List<Setting<?>> declared) {
        return declared.stream().map(Setting::name).collect(Collectors.toList());
    }
}
