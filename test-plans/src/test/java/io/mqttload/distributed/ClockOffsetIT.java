package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.clock.OffsetEstimator;
import io.mqttload.summary.ClockReport;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.FakeTime;
import io.mqttload.testsupport.JMeterEngines;

/**
 * Two real jmeter-server engines on one host, engine 2's wall clock shifted 2.5 s ahead with Debian's libfaketime (its
 * monotonic clock left true), a controller, and the multi-publisher plan against HiveMQ CE embedded in this JVM. Each
 * engine's subscriber takes only the other engine's partition, so every pub-to-sub latency crosses the two clocks:
 * engine 2 measures 2.5 s too much, engine 1 measures negative latencies (recorded as 0). The merged report must name
 * the shift within its bound, say what it does to the latencies, and, with the correction asked for, give engine 2's
 * true latencies back.
 */
class ClockOffsetIT {
    /** Ahead, not behind: the RMI keystore is made a moment before, and a clock behind it would find it not yet valid. */
    private static final long SHIFT_MILLIS = 2_500;
    /**
     * Beyond the bound, what separates the two engines' clocks as the payload header reads them without being in the
     * exchange: each JVM's MicroClock anchors the wall clock once, at a millisecond tick, so a thread preempted between
     * the tick and its nanoTime read, or the system clock slewed against the monotonic one between the two JVMs'
     * starts, moves one anchor. On this shared machine that is microseconds, at worst a fraction of a millisecond.
     */
    private static final long TOLERANCE_MICROS = 1_000;

    @Test
    void engineShifted2500ms_theReportNamesTheShiftWithinItsBound_warns_andCorrectsOnRequest(@TempDir Path dir)
            throws Exception {
        FakeTime.requireInstalled();
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 2,
                        true, Duration.ofSeconds(90), n -> n == 2 ? FakeTime.shifted(SHIFT_MILLIS) : Map.of(),
                        // Each engine's subscriber takes the other engine's partition only.
                        n -> Map.of("subscriberFilter", "S/engine-" + (3 - n) + "/{thread}/#"))) {
            String runId = "clock-it-" + Long.toString(System.currentTimeMillis(), 36);
            Path controllerResults = dir.resolve("controller-results");
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                    Map.entry("partitions", "1"), Map.entry("publishersPerPartition", "2"),
                    Map.entry("messagesPerSample", "5"), Map.entry("intervalMs", "100"),
                    Map.entry("durationSeconds", "3"), Map.entry("qos", "1"),
                    Map.entry("mqttload.engines", "2"), Map.entry("mqttload.runId", runId),
                    Map.entry("mqttload.resultsDir", dir.resolve("engine-results").toString()),
                    Map.entry("mqttload.progressSeconds", "0"));

            JMeterEngines.Run run = engines.run(DistributedMqttIT.plan(), global, Map.of("mqttload.resultsDir",
                    controllerResults.toString(), ClockReport.CORRECT_PROPERTY, "true"), Duration.ofSeconds(180));

            assertThat(run.exitCode).as(run.output).isZero();
            String text = Files.readString(controllerResults.resolve("report-" + runId + ".txt"), StandardCharsets.UTF_8);
            System.out.print(text);
            // Loss does not depend on clocks.
            assertThat(text).contains("verdict (all engines): NO LOSS");
            ReportFigures figures = SummaryJson.readReport(Files.readString(controllerResults.resolve("report-" + runId
                    + ".json"), StandardCharsets.UTF_8));
            ClockReport clocks = figures.clocks;
            assertThat(clocks.reference).isEqualTo("engine-1");
            assertThat(clocks.engines.get(0).reference).isTrue();
            ClockReport.Row two = clocks.engines.get(1);
            assertThat(two.engineId).isEqualTo("engine-2");
            assertThat(two.notMeasured).isNull();
            for (OffsetEstimator.Estimate e : new OffsetEstimator.Estimate[] {two.before, two.after}) {
                assertThat(e).isNotNull();
                assertThat(Math.abs(e.offsetMicros - SHIFT_MILLIS * 1000)).as("offset %d µs, bound %d µs", e.offsetMicros,
                        e.boundMicros).isLessThanOrEqualTo(e.boundMicros + TOLERANCE_MICROS);
                // Half the best round trip through the broker, which is how busy the machine was (a fraction of a ms on
                // a quiet one, 7 to 11 ms on a loaded one): what the estimate must do is resolve the shift it
                // measures, so its bound is checked small beside the 2.5 s, as the corrected latency below is.
                assertThat(e.boundMicros).isLessThan(SHIFT_MILLIS * 1000 / 10);
            }
            // One host, one oscillator: no drift beyond what the bounds allow.
            assertThat(Math.abs(two.driftPpm)).isLessThanOrEqualTo(two.driftBoundPpm + 1_000);

            // The shift is inside every crossing latency; engine 1 saw it as negative latencies.
            ClockReport.Crossing oneToTwo = clocks.crossings.stream().filter(c -> c.publisher.equals("engine-1")).findFirst()
                    .orElseThrow();
            assertThat(oneToTwo.subscriber).isEqualTo("engine-2");
            assertThat(Math.abs(oneToTwo.clockDifferenceMicros - SHIFT_MILLIS * 1000))
                    .isLessThanOrEqualTo(oneToTwo.boundMicros + TOLERANCE_MICROS);
            assertThat(clocks.warnings).anySatisfy(w -> assertThat(w).contains("from engine-1 to engine-2 carry a"
                    + " clock difference of " + millis(oneToTwo.clockDifferenceMicros) + " ms")
                    .contains("(engine-2's clock ahead of engine-1's)"));
            assertThat(clocks.warnings).anySatisfy(w -> assertThat(w).startsWith("engine-1 recorded ")
                    .contains("negative pub-to-sub latencies"));
            assertThat(text).containsPattern("clock offsets \\(engine clock minus engine-1's");
            // The row: before and after, each offset ± bound in ms (their values are checked in the JSON above).
            // The row shows the estimates checked above: before and after, each with its bound.
            assertThat(text).containsPattern("engine-2 +" + java.util.regex.Pattern.quote(millis(two.before.offsetMicros))
                    + " ± \\d+\\.\\d{3} +" + java.util.regex.Pattern.quote(millis(two.after.offsetMicros)) + " ± ");
            assertThat(text).contains("clock warning: ");

            // Asked for: engine 2's latencies without the shift, beside the measured ones; engine 1's are lost to 0.
            ClockReport.Corrected atTwo = clocks.corrected.stream().filter(k -> k.engineId.equals("engine-2")).findFirst()
                    .orElseThrow();
            assertThat(Math.abs(atTwo.clockDifferenceMicros - SHIFT_MILLIS * 1000))
                    .isLessThanOrEqualTo(atTwo.boundMicros + TOLERANCE_MICROS);
            assertThat(atTwo.measured.percentile(50.0)).isGreaterThan(SHIFT_MILLIS * 1000);
            assertThat(atTwo.corrected.percentile(50.0)).isLessThan(SHIFT_MILLIS * 1000 / 10);
            assertThat(clocks.corrected).anySatisfy(k -> assertThat(k.notCorrected).contains("were negative and recorded"
                    + " as 0"));
            assertThat(text).contains("pub-to-sub at engine-2 (from engine-1) CORRECTED by " + millis(-atTwo.clockDifferenceMicros));
        }
    }

    /** A clock figure as the report writes it. */
    private static String millis(long micros) {
        return ClockReport.signedMs(micros);
    }
}
