package io.mqttload.jmeter;

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
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import org.apache.jmeter.engine.TreeCloner;
import org.apache.jmeter.gui.action.Command;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.PlanBuilder;

/**
 * The run id a GUI controller's Remote Start gives the MQTT elements goes where RemoteStart sends the plan (two
 * clones, as RemoteStart and ClientJMeterEngine make them, then RMI's serialisation) and never into a saved plan.
 * The GUI itself: DistributedRunIdIT in test-plans.
 */
class RemoteStartRunIdTest {
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

    @Test
    void theId_goesThroughBothClonesAndSerialisation_toEveryMqttElement() throws Exception {
        HashTree plan = planWithEveryElement();
        List<MqttTestStateListener> inGui = mqttElements(plan);
        assertThat(inGui).extracting(e -> e.getClass().getSimpleName()).contains("MqttConnectionConfig",
                "MqttMetricsConfig", "MqttBrokerMonitor", "MqttConnectSampler", "MqttSubscribeSampler",
                "MqttPublishSampler", "MqttRendezvousTimer", "MqttDisconnectSampler", "MqttRunEndSampler");
        inGui.forEach(e -> e.runIdFromController("run-gui-1"));

        HashTree sent = cloned(cloned(plan));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(sent);
        }
        HashTree received;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            received = (HashTree) in.readObject();
        }

        List<MqttTestStateListener> onEngine = mqttElements(received);
        assertThat(onEngine).hasSameSizeAs(inGui).allSatisfy(e -> assertThat(e.runIdFromController()).isEqualTo("run-gui-1"));
    }

    @Test
    void theId_isNotSavedWithThePlan(@TempDir Path dir) throws IOException {
        HashTree plan = planWithEveryElement();
        mqttElements(plan).forEach(e -> e.runIdFromController("run-gui-unsaved"));

        Path jmx = dir.resolve("plan.jmx");
        JMeterTestEngine.save(plan, jmx);

        assertThat(Files.readString(jmx, StandardCharsets.UTF_8)).contains("MqttRendezvousTimer")
                .doesNotContain("run-gui-unsaved");
    }

    @Test
    void theGui_findsTheHookAmongItsCommands() {
        // What ActionRouter.populateCommandMap reads first (JMeterUtils.loadServicesAndScanJars with ServiceLoader).
        List<String> commands = ServiceLoader.load(Command.class).stream().map(p -> p.type().getName())
                .collect(Collectors.toList());

        assertThat(commands).contains(RemoteStartRunId.class.getName());
    }
}
