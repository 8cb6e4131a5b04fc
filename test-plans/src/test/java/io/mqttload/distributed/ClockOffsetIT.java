package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.clock.OffsetEstimator;
import io.mqttload.summary.ClockReport;
import io.mqttload.summary.LatencyPair;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.EmbeddedHiveMqBroker;
import io.mqttload.testsupport.FakeTime;
import io.mqttload.testsupport.JMeterEngines;

/**
 * Two real jmeter-server engines on one host, a controller, and the multi-publisher plan against HiveMQ CE embedded in
 * this JVM; each engine's subscriber takes only the other engine's partition, so every pub-to-sub latency crosses the
 * two clocks. The plan runs twice: with the clocks as they are, and with engine 2's wall clock shifted 4.3 s ahead
 * with Debian's libfaketime (its monotonic clock left true; a shift no other test uses). Shifted, engine 2 measures
 * 4.3 s too much and engine 1 about -4.3 s, kept as measured; each engine corrects every message from the other by the
 * offsets measured before production: each message by the same difference, which is the shift within its stated
 * bound, so the corrected p50 of each direction is the true one within that bound; against the unshifted run's p50
 * it is checked within the two runs' bounds and the runs' spread. The warnings of each direction read that
 * direction's own figures.
 */
class ClockOffsetIT {
    /** Ahead, not behind: the RMI keystore is made a moment before, and a clock behind it would find it not yet valid. */
    private static final long SHIFT_MILLIS = 4_300;
    /**
     * Beyond the bound, what separates the two engines' clocks as the payload header reads them without being in the
     * exchange: each JVM's MicroClock anchors the wall clock once, at a millisecond tick, so a thread preempted between
     * the tick and its nanoTime read, or the system clock slewed against the monotonic one between the two JVMs'
     * starts, moves one anchor. On this shared machine that is microseconds, at worst a fraction of a millisecond.
     */
    private static final long TOLERANCE_MICROS = 1_000;

    @Test
    void engineShifted4300ms_eachDirectionCorrectedToTheUnshiftedRunsP50_withinTheStatedBounds(@TempDir Path dir)
            throws Exception {
        FakeTime.requireInstalled();
        ReportFigures plain = run(dir.resolve("plain"), 0);
        ReportFigures shifted = run(dir.resolve("shifted"), SHIFT_MILLIS);

        ClockReport clocks = shifted.clocks;
        assertThat(clocks.reference).isEqualTo("engine-1");
        assertThat(clocks.engines.get(0).reference).isTrue();
        ClockReport.Row two = clocks.engines.get(1);
        assertThat(two.engineId).isEqualTo("engine-2");
        assertThat(two.notMeasured).isNull();
        for (OffsetEstimator.Estimate e : new OffsetEstimator.Estimate[] {two.before, two.after}) {
            assertThat(e).isNotNull();
            assertThat(Math.abs(e.offsetMicros - SHIFT_MILLIS * 1000)).as("offset %d µs, bound %d µs", e.offsetMicros,
                    e.boundMicros).isLessThanOrEqualTo(e.boundMicros + TOLERANCE_MICROS);
            // Half the best round trip through the broker, which is how busy the machine was (a fraction of a ms on a
            // quiet one, 7 to 11 ms on a loaded one): small beside the 4.3 s it resolves.
            assertThat(e.boundMicros).isLessThan(SHIFT_MILLIS * 1000 / 10);
        }
        // One host, one oscillator: no drift beyond what the bounds allow.
        assertThat(Math.abs(two.driftPpm)).isLessThanOrEqualTo(two.driftBoundPpm + 1_000);

        for (String[] direction : new String[][] {{"engine-1", "engine-2"}, {"engine-2", "engine-1"}}) {
            LatencyPair across = pair(shifted, direction[0], direction[1]);
            LatencyPair unshifted = pair(plain, direction[0], direction[1]);
            long sign = direction[1].equals("engine-2") ? 1 : -1;
            // The difference applied is the shift, within its bound; the measured latencies carry it, never floored.
            assertThat(Math.abs(across.clockDifferenceMicros - sign * SHIFT_MILLIS * 1000))
                    .isLessThanOrEqualTo(across.boundMicros + TOLERANCE_MICROS);
            assertThat(sign * across.measured.percentile(50.0)).isGreaterThan(SHIFT_MILLIS * 1000 / 2);
            // Every message corrected (those before the difference was known too), each by that difference: the same
            // messages in the same order, so the p50s differ by it, to the measured recording's bucket at 4.3 s.
            assertThat(across.notCorrected).isZero();
            assertThat(across.corrected.count).isEqualTo(across.measured.count);
            long measuredP50 = across.measured.percentile(50.0);
            long corrected = across.corrected.percentile(50.0);
            assertThat(Math.abs(corrected - (measuredP50 - across.clockDifferenceMicros)))
                    .isLessThanOrEqualTo(across.measured.resolutionAt(measuredP50) + across.resolutionMicros);
            // So the corrected p50 is the true one within the stated bound. Against the unshifted run's, whose messages
            // are others: within both runs' stated bounds, and the p50 of one run against another's moves by less than
            // an interquartile range of either on a machine that other work keeps busy.
            long reference = unshifted.corrected.percentile(50.0);
            long stated = across.boundMicros + across.resolutionMicros + unshifted.boundMicros + unshifted.resolutionMicros;
            long spread = Math.max(interquartile(across), interquartile(unshifted));
            assertThat(Math.abs(corrected - reference)).as("%s to %s: corrected p50 %d µs ± %d, unshifted p50 %d µs ± %d,"
                    + " interquartile range %d µs", direction[0], direction[1], corrected, across.boundMicros, reference,
                    unshifted.boundMicros, spread).isLessThanOrEqualTo(stated + spread);
        }
        // Every warning names its pair; a "near zero" one only where that pair's own corrected p50 is within 3 bounds.
        assertThat(clocks.warnings).allSatisfy(w -> assertThat(w).containsPattern("from engine-\\d to engine-\\d"));
        for (String w : clocks.warnings) {
            if (w.contains("of zero")) {
                LatencyPair p = w.contains("from engine-1 to engine-2") ? pair(shifted, "engine-1", "engine-2")
                        : pair(shifted, "engine-2", "engine-1");
                assertThat(Math.abs(p.corrected.percentile(50.0))).as(w)
                        .isLessThanOrEqualTo(ClockReport.BOUNDS_FROM_ZERO * p.boundMicros);
            }
        }
        assertThat(clocks.warnings).anySatisfy(w -> assertThat(w).contains("from engine-1 to engine-2 carry a clock"
                + " difference of " + ClockReport.signedMs(pair(shifted, "engine-1", "engine-2").clockDifferenceMicros)
                + " ms").contains("(engine-2's clock ahead of engine-1's)"));
    }

    /** The plan on two fresh engines, engine 2's clock shifted by {@code shiftMillis}; the report's figures. */
    private static ReportFigures run(Path dir, long shiftMillis) throws Exception {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 2,
                        true, Duration.ofSeconds(90), n -> n == 2 && shiftMillis != 0 ? FakeTime.shifted(shiftMillis)
                                : Map.of(),
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
            assertThat(text).containsPattern("clock offsets \\(engine clock minus engine-1's");
            if (shiftMillis != 0) {
                ClockReport.Row two = figures.clocks.engines.get(1);
                assertThat(text).containsPattern("engine-2 +" + Pattern.quote(ClockReport.signedMs(two.before.offsetMicros))
                        + " ± \\d+\\.\\d{3} +" + Pattern.quote(ClockReport.signedMs(two.after.offsetMicros)) + " ± ");
                // Each pair, measured and CORRECTED, with the precision the correction has.
                assertThat(text).containsPattern("pub-to-sub engine-1 to engine-2: \\d+ message\\(s\\), measured p50 \\+"
                        + "\\d+\\.\\d{3}, p99 \\+\\d+\\.\\d{3} ms; clock difference \\+\\d{4}\\.\\d{3} ± \\d+\\.\\d{3} ms;"
                        + " CORRECTED p50 [-+]\\d+\\.\\d{3}, p99 [-+]\\d+\\.\\d{3} ms \\(± \\d+\\.\\d{3} ms: the clock"
                        // The recording's precision is relative to the latency: a busy machine's longer ones read
                        // to 0.016 ms (CI: a corrected p50 of 20.8 ms), a quiet one's to 0.002 ms.
                        + " difference's bound; recorded to \\d\\.\\d{3} ms at the p50\\)");
            }
            return figures;
        }
    }

    private static long interquartile(LatencyPair p) {
        return p.corrected.percentile(75.0) - p.corrected.percentile(25.0);
    }

    private static LatencyPair pair(ReportFigures figures, String publisher, String subscriber) {
        return figures.clocks.pairs.stream().filter(p -> p.publisher.equals(publisher) && p.subscriber.equals(subscriber))
                .findFirst().orElseThrow(() -> new AssertionError("no pair " + publisher + " to " + subscriber + " in "
                        + figures.clocks.pairs.size() + " pair(s)"));
    }
}
