package io.mqttload.jmeter.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import org.apache.jmeter.engine.TreeCloner;
import org.apache.jmeter.gui.action.Command;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.engine.RunConfig;
import io.mqttload.jmeter.gui.RemoteStartRunId;
import io.mqttload.jmeter.MqttBrokerMonitor;
import io.mqttload.jmeter.MqttMetricsConfig;
import io.mqttload.jmeter.MqttRendezvousTimer;
import io.mqttload.jmeter.MqttTestStateListener;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;

/**
 * What a controller gives its engines goes where JMeter sends the plan: the GUI's and the headless controller's clones
 * (RemoteStart or JMeter.runNonGui, then ClientJMeterEngine.configure), then one RMI serialisation per engine, one
 * after the other, each through its own stream; and never into a saved plan. The real controllers: DistributedRunIdIT
 * in test-plans.
 */
class ControllerStampTest {
    @AfterEach
    void endTheStart() {
        ControllerStamp.end();
    }

    private static HashTree planWithEveryElement() {
        PlanBuilder plan = PlanBuilder.testPlan("carry")
                .config(io.mqttload.testsupport.MqttElements.connection("127.0.0.1", 1883, "MQTT_5"))
                .config(PlanBuilder.testBean(new MqttMetricsConfig(), "metrics"))
                .config(PlanBuilder.testBean(new MqttBrokerMonitor(), "monitor"));
        plan.threadGroup("g", 1, 1)
                .add(io.mqttload.testsupport.MqttElements.connect("c", 1, "{engine}-{thread}"))
                .add(io.mqttload.testsupport.MqttElements.subscribe("c", "t/#", 1))
                .add(io.mqttload.testsupport.MqttElements.publish("c", "t/1", 1, 1, "SYNC"),
                        PlanBuilder.testBean(new MqttRendezvousTimer(), "start"))
                .add(io.mqttload.testsupport.MqttElements.disconnect("c"));
        plan.tearDownThreadGroup("end").add(io.mqttload.testsupport.MqttElements.runEnd());
        return plan.build();
    }

    private static List<MqttTestStateListener> mqttElements(HashTree tree) {
        SearchByClass<MqttTestStateListener> search = new SearchByClass<>(MqttTestStateListener.class);
        tree.traverse(search);
        return List.copyOf(search.getSearchResults());
    }

    private static HashTree cloned(HashTree tree) {
        TreeCloner cloner = new TreeCloner(false);
        tree.traverse(cloner);
        return cloner.getClonedTree();
    }

    /** What one engine receives: the tree as RMI's rconfigure marshals it, through a stream of its own. */
    private static HashTree sentToOneEngine(HashTree tree) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(tree);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (HashTree) in.readObject();
        }
    }

    private static List<RunConfig.FromController> given(HashTree received) {
        return mqttElements(received).stream().map(e -> e.controllerStamp().given()).collect(Collectors.toList());
    }

    @Test
    void twoEngines_getOneRunId_numbers1And2_andTheirCount() throws Exception {
        HashTree plan = planWithEveryElement();
        assertThat(mqttElements(plan)).extracting(e -> e.getClass().getSimpleName()).contains("MqttConnectionConfig",
                "MqttMetricsConfig", "MqttBrokerMonitor", "MqttConnectSampler", "MqttSubscribeSampler",
                "MqttPublishSampler", "MqttRendezvousTimer", "MqttDisconnectSampler", "MqttRunEndSampler");
        ControllerStamp.begin("run-c-1", 2);

        HashTree sent = cloned(cloned(plan));
        List<RunConfig.FromController> first = given(sentToOneEngine(sent));
        List<RunConfig.FromController> second = given(sentToOneEngine(sent));

        assertThat(first).hasSize(mqttElements(plan).size()).allSatisfy(g -> {
            assertThat(g.runId).isEqualTo("run-c-1");
            assertThat(g.engineNumber).isEqualTo(1);
            assertThat(g.engines).isEqualTo(2);
        });
        assertThat(second).hasSameSizeAs(first).allSatisfy(g -> {
            assertThat(g.runId).isEqualTo("run-c-1");
            assertThat(g.engineNumber).isEqualTo(2);
            assertThat(g.engines).isEqualTo(2);
        });
    }

    @Test
    void theEngine_takesWhatItWasGiven_unlessAPropertySaysOtherwise() throws Exception {
        ControllerStamp.begin("run-c-2", 2);
        HashTree sent = cloned(planWithEveryElement());
        sentToOneEngine(sent);
        RunConfig.FromController second = given(sentToOneEngine(sent)).get(0);

        RunConfig plain = RunConfig.from(Map.<String, String>of()::get, "s", second);
        RunConfig explicit = RunConfig.from(Map.of(RunConfig.RUN_ID, "mine", RunConfig.ENGINE_NUMBER, "9",
                RunConfig.ENGINES, "3")::get, "s", second);

        assertThat(plain.runId()).isEqualTo("run-c-2");
        assertThat(plain.engineId()).isEqualTo("engine-2");
        assertThat(plain.engineNumber()).isEqualTo(2);
        assertThat(plain.engines()).isEqualTo(2);
        assertThat(explicit.runId()).isEqualTo("mine");
        assertThat(explicit.engineNumber()).isEqualTo(9);
        assertThat(explicit.engines()).isEqualTo(3);
    }

    @Test
    void aHeadlessController_makesOneRunIdAtItsFirstSend_forEveryEngine() throws Exception {
        HashTree sent = cloned(planWithEveryElement());

        RunConfig.FromController first = given(sentToOneEngine(sent)).get(0);
        RunConfig.FromController second = given(sentToOneEngine(sent)).get(0);

        assertThat(first.runId).matches("r[0-9a-z]{9}").isEqualTo(second.runId);
        assertThat(List.of(first.engineNumber, second.engineNumber)).containsExactly(1, 2);
        // This JVM was not started with -R: the count is left to the engines' properties.
        assertThat(first.engines).isZero();
    }

    @Test
    void twoStarts_neverShareARunId() throws Exception {
        HashTree sent = cloned(planWithEveryElement());
        ControllerStamp.begin(RunConfig.newRunId(), 1);
        RunConfig.FromController one = given(sentToOneEngine(sent)).get(0);
        ControllerStamp.begin(RunConfig.newRunId(), 1);
        RunConfig.FromController other = given(sentToOneEngine(sent)).get(0);

        assertThat(one.runId).isNotEqualTo(other.runId);
        assertThat(List.of(one.engineNumber, other.engineNumber)).containsExactly(1, 1);
    }

    @Test
    void thePlan_savedDuringAStart_carriesNothing_andTakesNoEngineNumber(@TempDir Path dir) throws Exception {
        HashTree plan = planWithEveryElement();
        ControllerStamp.begin("run-c-unsaved", 2);

        Path jmx = dir.resolve("plan.jmx");
        JMeterTestEngine.save(plan, jmx);
        RunConfig.FromController firstSent = given(sentToOneEngine(cloned(plan))).get(0);

        assertThat(Files.readString(jmx, StandardCharsets.UTF_8)).contains("MqttRendezvousTimer")
                .doesNotContain("run-c-unsaved").doesNotContain("ControllerStamp");
        assertThat(firstSent.engineNumber).as("SaveService wrote no Java serialisation").isEqualTo(1);
    }

    @Test
    void anEngineCount_isReadFromTheCommandLine_asJMeterReadsIt() {
        Map<String, String> hosts = Map.of(RemoteHosts.PROPERTY, "h1:1099, h2:1099,h3");

        assertThat(RemoteHosts.count(List.of("-n", "-t", "p.jmx", "-R", "h1,h2", "-X"), hosts::get)).isEqualTo(2);
        assertThat(RemoteHosts.count(List.of("-n", "-Rh1:1,h2:2,h1:1"), hosts::get)).as("one listed twice").isEqualTo(2);
        assertThat(RemoteHosts.count(List.of("--remotestart=h1"), hosts::get)).isEqualTo(1);
        assertThat(RemoteHosts.count(List.of("--remotestart", "a,b,c"), hosts::get)).isEqualTo(3);
        assertThat(RemoteHosts.count(List.of("-n", "-r"), hosts::get)).isEqualTo(3);
        assertThat(RemoteHosts.count(List.of("-n", "-r"), Map.<String, String>of()::get)).as("JMeter's default")
                .isEqualTo(1);
        assertThat(RemoteHosts.count(List.of("-n", "-t", "p.jmx"), hosts::get)).isZero();
    }

    @Test
    void theGui_findsTheHookAmongItsCommands() {
        // What ActionRouter.populateCommandMap reads first (JMeterUtils.loadServicesAndScanJars with ServiceLoader).
        List<String> commands = ServiceLoader.load(Command.class).stream().map(p -> p.type().getName())
                .collect(Collectors.toList());

        assertThat(commands).contains(RemoteStartRunId.class.getName());
    }
}
