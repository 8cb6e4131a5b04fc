package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.loop;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runEnd;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static io.mqttload.testsupport.MqttElements.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSetup;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * The report opens with the run's setup, read from the plan as it ran and from the broker: what a reader needs to
 * compare two reports without their plans (Mosquitto announces its version on {@code $SYS}).
 */
class RunSetupIT {
    private static final int THREADS = 4;
    private static final int CLIENTS_PER_THREAD = 2;
    private static final int PAYLOAD = 128;

    @TempDir
    Path results;

    @Test
    void theReportNamesThePlanEachSamplersSettingsAndClientsAndTheBrokersVersion() throws Exception {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            HashTree plan = PlanBuilder.testPlan("Fan-in, Mosquitto")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_3_1_1"))
                    .config(runReport())
                    .threadGroup("devices", THREADS, 1)
                    .add(connect("dev", CLIENTS_PER_THREAD, "{engine}-su-{thread}-{client}"))
                    .add(subscribe("dev", "setup/{thread}/#", 1))
                    // Four messages a sample round-robin over the thread's two clients: both publish.
                    .add(loop(5), with(with(publish("dev", "setup/{thread}/{client}", 0, 4, "SYNC"), "payloadSize",
                            Integer.toString(PAYLOAD)), "payloadType", "RANDOM"))
                    .and()
                    .tearDownThreadGroup("end").add(runEnd()).build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(60), Map.of("mqttload.resultsDir",
                    results.toString(), "mqttload.progressSeconds", "0", "mqttload.runId", "setup-it"));

            assertThat(run.failures()).as(run.describe()).isEmpty();
            MergedReport report = MqttRunReport.lastReport();
            RunSetup setup = report.setup;
            assertThat(setup.getTestPlan()).isEqualTo("Fan-in, Mosquitto");
            assertThat(setup.steps.stream().map(s -> s.role + " '" + s.sampler + "' " + s.clients)
                    .collect(Collectors.toList())).containsExactly(
                            "connect 'connect dev' " + THREADS * CLIENTS_PER_THREAD,
                            "subscribe 'subscribe dev' " + THREADS * CLIENTS_PER_THREAD,
                            "publish 'publish dev' " + THREADS * CLIENTS_PER_THREAD);
            String endpoint = "tcp://127.0.0.1:" + broker.tcpPort();
            assertThat(setup.steps.get(0).settings).containsEntry("MQTT", "3.1.1").containsEntry("broker", endpoint)
                    .containsEntry("clients per thread", Integer.toString(CLIENTS_PER_THREAD));
            assertThat(setup.steps.get(1).settings).containsEntry("filter", "setup/{thread}/#").containsEntry("QoS", "1");
            assertThat(setup.steps.get(2).settings).containsEntry("topic", "setup/{thread}/{client}")
                    .containsEntry("QoS", "0").containsEntry("payload", PAYLOAD + " B random")
                    .containsEntry("messages per sample", "4");
            assertThat(setup.brokers).containsOnlyKeys(endpoint);
            assertThat(setup.brokers.get(endpoint)).matches("mosquitto version \\d+\\.\\d+\\.\\d+");
            String version = setup.brokers.get(endpoint);

            String text = Files.readString(results.resolve("report-setup-it.txt"), StandardCharsets.UTF_8);
            assertThat(text).contains("test plan    'Fan-in, Mosquitto'")
                    .contains("publish      'publish dev' on 8 client(s): topic setup/{thread}/{client}, QoS 0, payload "
                            + PAYLOAD + " B random")
                    .contains("broker       " + endpoint + " " + version);
            String markdown = Files.readString(results.resolve("report-setup-it.md"), StandardCharsets.UTF_8);
            assertThat(markdown).contains("## Setup").contains("Test plan **Fan-in, Mosquitto**")
                    .contains("| subscribe | subscribe dev | 8 | filter setup/{thread}/#, QoS 1 |")
                    .contains("| " + endpoint + " | " + version + " |");
            String html = Files.readString(results.resolve("report-setup-it.html"), StandardCharsets.UTF_8);
            assertThat(html).contains("<h2>Setup</h2>").contains("<strong>Fan-in, Mosquitto</strong>")
                    .contains("<td>" + endpoint + "</td><td>" + version + "</td>");
            JsonNode json = new ObjectMapper().readTree(results.resolve("report-setup-it.json").toFile());
            assertThat(json.path("setup").path("brokers").path(endpoint).asText()).isEqualTo(version);
            assertThat(json.path("setup").path("steps").get(2).path("clients").asLong())
                    .isEqualTo(THREADS * CLIENTS_PER_THREAD);
            assertThat(List.of(json.path("setup").path("testPlan").asText())).containsExactly("Fan-in, Mosquitto");
        }
    }
}
