package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * Every shipped plan as a user runs it on several engines: two jmeter-server engines started with ports only, one
 * controller with {@code -R} and the broker's address (and nothing else), one plan after the other on the same engines.
 * Each run is one run id over both engines, merged, with the true verdict: no message is lost on a healthy broker.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShippedPlansOnTwoEnginesIT {
    private static final Pattern CONTROLLER_GIVES = Pattern.compile("this controller gives its engines run id ([^,\\s]+)");
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);
    /**
     * Plans whose subscribers on one engine also receive the other engine's publishers (one shared subscription
     * group over both engines): what is owed across engines is the cross-engine ledger's to decide, so until it
     * decides per message these may be uncertain, never LOSS.
     */
    private static final Set<String> CROSSING = Set.of("emq-sharedsub");
    /** Connection plans publish nothing: their true verdict is that there was nothing to check. */
    private static final Set<String> CONNECTIONS_ONLY = Set.of("emq-conn-rate", "rabbitmq-idle-connections");

    private MosquittoBroker broker;
    private JMeterEngines engines;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        MosquittoBroker.requireInstalled();
        // Unlimited queues: Mosquitto's default of 1000 drops QoS 1/2 messages of a subscriber that falls behind.
        broker = MosquittoBroker.builder().withSetting("max_queued_messages 0").start();
        engines = JMeterEngines.startWithoutIdentity(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 2, false,
                Duration.ofSeconds(90), Map.of("mqttload.resultsDir", dir.resolve("results").toString()));
    }

    @AfterAll
    void stop() {
        if (engines != null) {
            engines.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"quickstart-p2p", "emq-conn-rate", "emq-fanout", "emq-p2p", "emq-sharedsub",
            "jorammq-multi-publisher", "jorammq-multi-subscriber", "jorammq-multi-subscription", "mqtt-bm-latency",
            "multi-publisher", "rabbitmq-idle-connections", "rabbitmq-one-to-one", "scalagent-multi-publisher",
            "stress-max-rate"})
    void plan_onTwoEnginesStartedWithR_oneRunMergedWithNoLoss(String plan) throws Exception {
        Path jmx = Path.of(System.getProperty("project.basedir", "."), "plans", plan + ".jmx");
        JMeterEngines.Run run = engines.run(jmx, Map.of("mqtt.host", JMeterEngines.HOST, "mqtt.port",
                Integer.toString(broker.tcpPort())), Map.of(), RUN_TIMEOUT,
                false);

        Matcher given = CONTROLLER_GIVES.matcher(run.output);
        assertThat(given.find()).as("%s: the controller names the run id it gives: %s", plan, run.output).isTrue();
        String runId = given.group(1);
        assertThat(run.output).as(plan).contains("gives its engines run id " + runId + ", 2 engine(s)")
                .contains("MQTT run " + runId + "  scenario ").contains("  engines 2")
                .doesNotContain("summaries of different runs");
        if (CONNECTIONS_ONLY.contains(plan)) {
            assertThat(run.output).as(plan).contains("verdict (all engines): NOTHING TO CHECK");
        } else if (CROSSING.contains(plan)) {
            assertThat(run.output).as(plan).containsAnyOf("verdict (all engines): NO LOSS",
                    "verdict (all engines): LOSS (UNCERTAIN)");
        } else {
            assertThat(run.output).as(plan).contains("verdict (all engines): NO LOSS");
        }
    }
}
