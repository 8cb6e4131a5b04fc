package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.NullProperty;
import org.apache.jmeter.timers.Timer;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.mqttload.common.settings.BrokerMonitorSettings;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.ConnectionConfigSettings;
import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.OutageSettings;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.RendezvousSettings;
import io.mqttload.common.settings.SubscribeSettings;
import io.mqttload.common.settings.Setting;
import io.mqttload.testsupport.JMeterTestEngine;

/**
 * A shipped plan saved before a field of one of the suite's elements existed does not carry it, and JMeter sets such a field to "": each of
 * those fields must read "" as its default, or every sample of the plan fails on a setting its user never saw. And the
 * plans (shipped, and those the test-plans ITs run) publish on the Publish sampler's own schedule, never paced by a
 * throughput timer, whose intended send times lag without catching up (issue #42).
 */
class ShippedPlanSettingsTest {
    static Stream<Path> plans() throws IOException {
        return jmx("plans");
    }

    /** The shipped plans and the test-plans ITs' own. */
    static Stream<Path> allPlans() throws IOException {
        return Stream.concat(jmx("plans"), jmx("src/test/resources"));
    }

    private static Stream<Path> jmx(String folder) throws IOException {
        Path dir = Path.of(System.getProperty("project.basedir", "."), "..", "test-plans", folder).normalize();
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jmx = files.filter(p -> p.toString().endsWith(".jmx")).sorted().collect(Collectors.toList());
            return jmx.stream();
        }
    }

    @BeforeAll
    static void jmeter() {
        JMeterTestEngine.initialise();
    }

    /** Every element of the suite and the settings it declares. */
    private static final Map<Class<? extends TestElement>, List<Setting<?>>> ELEMENTS = Map.of(
            MqttConnectionConfig.class, ConnectionConfigSettings.ALL,
            MqttConnectSampler.class, ConnectSettings.ALL,
            MqttSubscribeSampler.class, SubscribeSettings.ALL,
            MqttPublishSampler.class, PublishSettings.ALL,
            MqttDisconnectSampler.class, DisconnectSettings.ALL,
            MqttOutageSampler.class, OutageSettings.ALL,
            MqttRendezvousTimer.class, RendezvousSettings.ALL,
            MqttBrokerMonitor.class, BrokerMonitorSettings.ALL);

    @ParameterizedTest
    @MethodSource("allPlans")
    void fieldsAPlanDoesNotCarry_readEmptyAsTheirDefault(Path plan) throws IOException {
        HashTree tree = JMeterTestEngine.load(plan);
        List<String> refused = new ArrayList<>();
        ELEMENTS.forEach((type, settings) -> {
            SearchByClass<? extends TestElement> search = new SearchByClass<>(type);
            tree.traverse(search);
            for (TestElement element : search.getSearchResults()) {
                for (Setting<?> setting : settings) {
                    if (element.getProperty(setting.name()) instanceof NullProperty && !readsEmptyAsDefault(setting)) {
                        refused.add("'" + element.getName() + "' without " + setting.name());
                    }
                }
            }
        });
        assertThat(refused).as(plan.getFileName() + ": fields the plan does not carry, which JMeter sets to '' and the"
                + " setting refuses (declare them emptyMeansDefault)").isEmpty();
    }

    private static boolean readsEmptyAsDefault(Setting<?> setting) {
        try {
            return Objects.equals(setting.parse(""), setting.parse(setting.defaultText()));
        } catch (RuntimeException e) {
            return false;
        }
    }

    @ParameterizedTest
    @MethodSource("allPlans")
    void noPublishIsPacedByAThroughputTimer(Path plan) throws IOException {
        List<String> paced = new ArrayList<>();
        pacedPublishes(JMeterTestEngine.load(plan), List.of(), paced);
        assertThat(paced).as(plan.getFileName() + ": Publish samplers in a throughput timer's scope (give the sampler a"
                + " rate instead)").isEmpty();
    }

    /**
     * Adds each Publish sampler in the scope of a throughput timer, as JMeter scopes timers: a timer applies to the
     * samplers beside it and below them, and to a sampler it is the child of.
     */
    private static void pacedPublishes(HashTree tree, List<Timer> outer, List<String> paced) {
        List<Timer> inScope = new ArrayList<>(outer);
        inScope.addAll(throughputTimers(tree));
        for (Object key : tree.list()) {
            if (key instanceof TestElement && !((TestElement) key).isEnabled()) {
                continue;
            }
            HashTree below = tree.getTree(key);
            if (key instanceof MqttPublishSampler) {
                List<Timer> pacing = new ArrayList<>(inScope);
                pacing.addAll(throughputTimers(below));
                pacing.forEach(t -> paced.add("'" + ((MqttPublishSampler) key).getName() + "' by '"
                        + ((TestElement) t).getName() + "' (" + t.getClass().getSimpleName() + ")"));
            } else if (below != null) {
                pacedPublishes(below, inScope, paced);
            }
        }
    }

    /** The enabled timers of this level that set a throughput (JMeter's Constant and Precise Throughput Timers...). */
    private static List<Timer> throughputTimers(HashTree level) {
        List<Timer> timers = new ArrayList<>();
        for (Object key : level == null ? List.of() : level.list()) {
            if (key instanceof Timer && ((TestElement) key).isEnabled()
                    && key.getClass().getSimpleName().contains("Throughput")) {
                timers.add((Timer) key);
            }
        }
        return timers;
    }
}
