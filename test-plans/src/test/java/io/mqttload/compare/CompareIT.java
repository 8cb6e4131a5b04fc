package io.mqttload.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.testsupport.JMeterEngines;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.TcpProxy;

/**
 * test-plans/compare/compare.sh as a user runs it, on the build's JMeter home, against known answers (issue 41): one
 * Mosquitto reached directly (A) and through a proxy that holds every byte from the broker for a fixed delay (B),
 * and directly again (A2), 3 interleaved rounds of short runs at a paced QoS 0 rate. B's pub-to-sub p50 must be
 * REGRESSED with an interval of the difference that holds the delay the proxy added, its delivered rate SAME or
 * undecided, never a change; A2 against A nothing REGRESSED or IMPROVED. One comparison of three sides is both
 * questions in nine runs, which keeps the class within its share of CI.
 */
class CompareIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DELAY = Duration.ofMillis(25);
    private static final int ROUNDS = 3;

    private static Path basedir() {
        return Path.of(System.getProperty("project.basedir", "."));
    }

    @Test
    void delayedBroker_p50Regressed_byTheDelay_rateNotChanged_andAAgainstA_unchanged(@TempDir Path dir)
            throws Exception {
        MosquittoBroker.requireInstalled();
        Path out = dir.resolve("compare");
        Path log = dir.resolve("compare.out");
        double shortest;
        double longest;
        int exit;
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 0")
                .withSetting("set_tcp_nodelay true").start();
                TcpProxy proxy = TcpProxy.delaying(broker.host(), broker.tcpPort(), DELAY)) {
            List<String> command = new ArrayList<>(List.of("bash", basedir().resolve("compare/compare.sh").toString(),
                    "--jmeter-home", JMeterEngines.homeFromBuild().toString(),
                    "--plan", basedir().resolve("plans/multi-publisher.jmx").toString(),
                    "--side", "A:mqtt.port=" + broker.tcpPort(), "--side", "B:mqtt.port=" + proxy.port(),
                    "--side", "A2:mqtt.port=" + broker.tcpPort(), "--rounds", Integer.toString(ROUNDS),
                    "-Jmqtt.host=" + broker.host(), "-Jpartitions=1", "-JpublishersPerPartition=5",
                    "-JdurationSeconds=3", "-Jmqttload.warmupSeconds=1", "-Jqos=0", "-Jmqttload.progressSeconds=0",
                    // The broker is monitored (its CPU and memory are figures) but not waited for between runs: these
                    // small runs leave it idle, and its 3 quiet seconds before each of 8 runs would double the class.
                    "--broker-pid", Long.toString(broker.pid()), "--settle-seconds", "0",
                    "--heap", "-Xmx256m", "--step-timeout", "90", "--compare-id", "compare-it",
                    // Each run's own judgement is not the point: a busy CI machine must not fail a run's step.
                    "--max-saturated", "100", "--sla-p99-ms", "60000",
                    // Three rounds of 2 s windows on a machine that may be busy: latency percentiles move by up to a
                    // quarter with a run's place in the order (A2/A p50 0.746 [0.649..0.944] with one core kept busy),
                    // so every figure's threshold is that noise; the delivered rate's stays the default 5 %. The 25 ms
                    // delay is five times the p50 and clears it.
                    "--threshold", "30", "--threshold", "deliveredRate=5", "--out", out.toString()));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("compare finished").isTrue();
                exit = p.exitValue();
            } finally {
                p.destroyForcibly();
            }
            shortest = proxy.shortestHoldMillis();
            longest = proxy.longestHoldMillis();
        }
        String console = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(exit).as(console).isEqualTo(1);
        JsonNode f = JSON.readTree(out.resolve("compare.json").toFile());
        assertThat(f.path("formatVersion").asInt()).isEqualTo(1);
        for (JsonNode side : f.path("sides")) {
            // A busy machine may mark a run saturated (named, figures marked); a run that lost or failed is a fault.
            for (JsonNode mark : side.path("marks")) {
                assertThat(mark.asText()).as(console).contains("saturated");
            }
            assertThat(side.path("runs")).hasSize(ROUNDS);
        }
        // Interleaved: A B A2, round after round, in the order recorded (a disturbed run made again takes the next
        // place, so the places rise but may skip).
        int previous = 0;
        for (int round = 0; round < ROUNDS; round++) {
            for (JsonNode side : f.path("sides")) {
                int sequence = side.path("runs").get(round).path("sequence").asInt();
                assertThat(sequence).as(console).isGreaterThan(previous);
                previous = sequence;
            }
        }
        JsonNode p50 = entry(f, "B", "pubToSubP50");
        assertThat(p50.path("verdict").asText()).as(console).isEqualTo("REGRESSED");
        assertThat(p50.path("differenceLow").asDouble()).as(console).isLessThanOrEqualTo(longest);
        assertThat(p50.path("differenceHigh").asDouble()).as(console).isGreaterThanOrEqualTo(shortest);
        assertThat(entry(f, "B", "deliveredRate").path("verdict").asText()).as(console).isIn("SAME", "INCONCLUSIVE");
        for (JsonNode e : f.path("comparisons")) {
            if (e.path("b").asText().equals("A2")) {
                assertThat(e.path("verdict").asText()).as(e.path("figure").asText() + "\n" + console)
                        .isIn("SAME", "INCONCLUSIVE");
            }
        }
        assertThat(console).contains("figure", "B/A [95 % interval]", "REGRESSED: B pub-to-sub p50");
        assertThat(Files.readString(out.resolve("compare-junit.xml"))).contains("type=\"REGRESSED\"");
        assertThat(Files.readString(out.resolve("compare.html"))).contains("<svg", "B round 3");
    }

    private static JsonNode entry(JsonNode f, String b, String figure) {
        for (JsonNode e : f.path("comparisons")) {
            if (e.path("b").asText().equals(b) && e.path("figure").asText().equals(figure)) {
                return e;
            }
        }
        throw new AssertionError("no comparison of " + figure + " for " + b + " in " + f);
    }
}
