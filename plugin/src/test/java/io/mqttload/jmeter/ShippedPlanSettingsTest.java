package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.jmeter.testelement.property.NullProperty;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.Setting;
import io.mqttload.testsupport.JMeterTestEngine;

/**
 * A shipped plan saved before a Publish field existed does not carry it, and JMeter sets such a field to "": each of
 * those fields must read "" as its default, or every sample of the plan fails on a setting its user never saw.
 */
class ShippedPlanSettingsTest {
    static Stream<Path> plans() throws IOException {
        Path dir = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans", "plans").normalize();
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jmx = files.filter(p -> p.toString().endsWith(".jmx")).sorted().collect(Collectors.toList());
            return jmx.stream();
        }
    }

    @BeforeAll
    static void jmeter() {
        JMeterTestEngine.initialise();
    }

    @ParameterizedTest
    @MethodSource("plans")
    void publishFieldsAPlanDoesNotCarry_readEmptyAsTheirDefault(Path plan) throws IOException {
        HashTree tree = JMeterTestEngine.load(plan);
        SearchByClass<MqttPublishSampler> search = new SearchByClass<>(MqttPublishSampler.class);
        tree.traverse(search);
        for (MqttPublishSampler sampler : search.getSearchResults()) {
            for (Setting<?> setting : PublishSettings.ALL) {
                if (sampler.getProperty(setting.name()) instanceof NullProperty) {
                    assertThatCode(() -> assertThat(setting.parse("")).isEqualTo(setting.parse(setting.defaultText())))
                            .as(plan.getFileName() + " '" + sampler.getName() + "' without " + setting.name())
                            .doesNotThrowAnyException();
                }
            }
        }
    }
}
