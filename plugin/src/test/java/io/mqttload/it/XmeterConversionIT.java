package io.mqttload.it;

import static io.mqttload.convert.XmeterPlans.connect;
import static io.mqttload.convert.XmeterPlans.connectDefaults;
import static io.mqttload.convert.XmeterPlans.disconnect;
import static io.mqttload.convert.XmeterPlans.loop;
import static io.mqttload.convert.XmeterPlans.node;
import static io.mqttload.convert.XmeterPlans.plan;
import static io.mqttload.convert.XmeterPlans.pub;
import static io.mqttload.convert.XmeterPlans.str;
import static io.mqttload.convert.XmeterPlans.sub;
import static io.mqttload.convert.XmeterPlans.threadGroup;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mqttload.convert.XmeterPlans;
import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.measure.Count;
import io.mqttload.measure.Latency;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.Processes;
import io.mqttload.testsupport.RunResult;

/**
 * An XMeter pub/sub plan, converted by the command as users run it (the plugin jar alone, in a JVM of its own), then
 * run by JMeter against Mosquitto: every message the XMeter plan publishes is counted, received by both subscribers
 * and measured, and the added Run Report gives the verdict.
 */
class XmeterConversionIT {
    private static final int PUBLISHERS = 2;
    private static final int SUBSCRIBERS = 2;
    private static final int MESSAGES = 25;
    private static final Duration CONVERT_TIMEOUT = Duration.ofSeconds(60);

    private static MosquittoBroker mosquitto;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        MosquittoBroker.requireInstalled();
        mosquitto = MosquittoBroker.builder().start();
    }

    @AfterAll
    static void stopBroker() {
        if (mosquitto != null) {
            mosquitto.close();
        }
    }

    /**
     * A flow control action holding the suite's rendezvous timer: non-XMeter elements the converter keeps as they are.
     * The barriers keep the subscribers subscribed before the first publish and until the last, so the counts are exact.
     */
    private static String barrier(String name) {
        return node("<TestAction guiclass=\"TestActionGui\" testclass=\"TestAction\" testname=\"" + name + "\" enabled=\"true\">\n"
                + "  <intProp name=\"ActionProcessor.action\">1</intProp>\n"
                + "  <intProp name=\"ActionProcessor.target\">0</intProp>\n"
                + "  <stringProp name=\"ActionProcessor.duration\">0</stringProp>\n"
                + "</TestAction>",
                "<io.mqttload.jmeter.MqttRendezvousTimer guiclass=\"TestBeanGUI\" testclass=\"io.mqttload.jmeter.MqttRendezvousTimer\""
                        + " testname=\"rendezvous " + name + "\" enabled=\"true\">\n"
                        + str("barrierName", name) + "\n" + str("brokerHost", "") + "\n" + str("brokerPort", "1883") + "\n"
                        + str("groupSize", Integer.toString(PUBLISHERS + SUBSCRIBERS)) + "\n" + str("onTimeout", "STOP_TEST") + "\n"
                        + str("timeoutInMs", "30000") + "\n</io.mqttload.jmeter.MqttRendezvousTimer>\n<hashTree/>");
    }

    private static String xmeterPlan(String condition, String value) {
        return plan(
                threadGroup("Sub Group", SUBSCRIBERS, 1,
                        connect("Connect sub", connectDefaults("127.0.0.1", "${__P(mqtt.port)}",
                                str("mqtt.client_id_prefix", "sub_"))),
                        loop("Collect", 3, sub("Subscribe", "xmeter/it/1, xmeter/it/2", "1", true, condition, value)),
                        barrier("start"),
                        barrier("production over"),
                        disconnect("Disconnect sub")),
                threadGroup("Pub Group", PUBLISHERS, 1,
                        connect("Connect pub", connectDefaults("127.0.0.1", "${__P(mqtt.port)}",
                                str("mqtt.client_id_prefix", "pub_"), str("mqtt.reconn_attempt_max", "-1"))),
                        barrier("start"),
                        loop("Publish loop", MESSAGES, pub("Publish", "xmeter/it/${__threadNum}", "1", true, "String", "1024",
                                "Plugin new version from thread ${__threadNum}.")),
                        barrier("production over"),
                        disconnect("Disconnect pub")));
    }

    /** Runs the documented command: {@code java -cp mqtt-load-jmeter-<version>.jar io.mqttload.convert.XmeterConverter}. */
    private Path convert(Path input) throws Exception {
        Path output = dir.resolve("converted.jmx");
        Path log = dir.resolve("convert.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("plugin.jar"), "io.mqttload.convert.XmeterConverter", input.toString(), "-o",
                output.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(CONVERT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("the converter ends").isTrue();
        } finally {
            Processes.stop(p, Duration.ofSeconds(5));
        }
        String console = Processes.read(log);
        assertThat(p.exitValue()).as(console).isZero();
        assertThat(console).contains("6 converted, 0 not converted").contains("converted.conversion.md")
                .doesNotContain("not converted:");
        return output;
    }

    @ParameterizedTest(name = "subscribers in {0}")
    @ValueSource(strings = {"time mode", "count mode"})
    void convertedXmeterPlan_deliversEveryMessageToEverySubscriber(String mode) throws Exception {
        boolean time = mode.equals("time mode");
        Path input = XmeterPlans.write(dir, "xmeter.jmx", xmeterPlan(
                time ? "specified elapsed time (ms)" : "number of received messages", time ? "100" : "5"));
        Path converted = convert(input);

        HashTree plan = JMeterTestEngine.load(converted);
        String runId = "xmeter-it-" + (time ? "time" : "count");
        RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(120), Map.of("mqtt.port",
                Integer.toString(mosquitto.tcpPort()), "mqttload.resultsDir", dir.toString(), "mqttload.progressSeconds", "0",
                "mqttload.runId", runId));
        RunSummary summary = JvmRun.lastSummary();
        MergedReport report = MqttRunReport.lastReport();

        long published = (long) PUBLISHERS * MESSAGES;
        long deliveries = published * SUBSCRIBERS;
        assertThat(run.failures()).as(run.describe()).isEmpty();
        assertThat(run.byLabel("Publish")).hasSize((int) published);
        assertThat(run.byLabel("Subscribe")).as("once per subscriber thread").hasSize(SUBSCRIBERS);
        assertThat(run.byLabel("Connect sub")).hasSize(SUBSCRIBERS);
        assertThat(run.byLabel("Connect pub")).hasSize(PUBLISHERS);
        assertThat(run.byLabel("Disconnect sub")).hasSize(SUBSCRIBERS);
        assertThat(summary.count(Count.PUBLISHED)).isEqualTo(published);
        assertThat(summary.count(Count.ACKNOWLEDGED)).isEqualTo(published);
        assertThat(summary.delivery.expected).isEqualTo(deliveries);
        assertThat(summary.count(Count.RECEIVED)).isEqualTo(deliveries);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.count(Count.DUPLICATES)).isZero();
        assertThat(summary.latencyOf(Latency.PUB_TO_SUB).count).as("every message carried the header").isEqualTo(deliveries);
        assertThat(summary.latencyOf(Latency.CONNECT).count).isEqualTo(PUBLISHERS + SUBSCRIBERS);
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);

        List<SampleResult> ends = run.byLabel("MQTT Run End");
        assertThat(ends).hasSize(1);
        assertThat(ends.get(0).getResponseCode()).isEqualTo("NO_LOSS");
        assertThat(report.runId).isEqualTo(runId);
        assertThat(report.expected).isEqualTo(deliveries);
        assertThat(report.receivedOfExpected).isEqualTo(deliveries);
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(dir.resolve("report-" + runId + ".md")).exists();
    }
}
