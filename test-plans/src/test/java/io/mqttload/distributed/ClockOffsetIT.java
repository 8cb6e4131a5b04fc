package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
import io.mqttload.testsupport.TcpProxy;

/**
 * Two real jmeter-server engines on one host, a controller, and the multi-publisher plan against HiveMQ CE embedded in
 * this JVM; each engine's subscriber takes only the other engine's partition, so every pub-to-sub latency crosses the
 * two clocks, and reaches it through a proxy that holds every byte from the broker {@value #DELAY_MILLIS} ms: a true
 * latency of a known size, large beside the clocks' bounds (publishers, the rendezvous and the clock exchange go to
 * the broker directly). The plan runs twice: with the clocks as they are, and with engine 2's wall clock shifted
 * 5.83 s ahead with Debian's libfaketime (its monotonic clock left true; a shift no other test uses). Shifted, engine 2
 * measures 5.83 s too much and engine 1 about -5.83 s, kept as measured; each engine corrects every message from the
 * other by the offsets measured before production, each message by the same difference, which is the shift within its
 * stated bound. So the corrected p50 of each direction is the true one within that bound, and equals the unshifted
 * run's within the two runs' stated bounds and recording resolutions, nothing more; no warning says it is near zero.
 */
class ClockOffsetIT {
    /** Ahead, not behind: the RMI keystore is made a moment before, and a clock behind it would find it not yet valid. */
    private static final long SHIFT_MILLIS = 5_830;
    /** What the proxy adds to every delivery: the bulk of each latency, the same in both runs. */
    private static final long DELAY_MILLIS = 50;
    /**
     * Beyond the bound, what separates the two engines' clocks as the payload header reads them without being in the
     * exchange: each JVM's MicroClock anchors the wall clock once, at a millisecond tick, so a thread preempted between
     * the tick and its nanoTime read, or the system clock slewed against the monotonic one between the two JVMs'
     * starts, moves one anchor. On this shared machine that is microseconds, at worst a fraction of a millisecond. It
     * separates the offsets from the faketime shift only: the exchange reads the same anchored clock as the latencies,
     * so the corrections take it out of the latencies.
     */
    private static final long TOLERANCE_MICROS = 1_000;

    @Test
    void engineShifted5830ms_eachDirectionCorrectedToTheUnshiftedRunsP50_withinTheStatedBounds(@TempDir Path dir)
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
            // quiet one, 7 to 11 ms on a loaded one): small beside the 5.83 s it resolves.
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
            // messages in the same order, so the p50s differ by it, to the measured recording's bucket at 5.83 s.
            assertThat(across.notCorrected).isZero();
            assertThat(unshifted.notCorrected).isZero();
            assertThat(across.corrected.count).isEqualTo(across.measured.count);
            long measuredP50 = across.measured.percentile(50.0);
            long corrected = across.corrected.percentile(50.0);
            assertThat(Math.abs(corrected - (measuredP50 - across.clockDifferenceMicros)))
                    .isLessThanOrEqualTo(across.measured.resolutionAt(measuredP50) + across.resolutionMicros);
            // The true latency holds the proxy's delay: the unshifted run's p50, within its bound, is at least that.
            long reference = unshifted.corrected.percentile(50.0);
            assertThat(reference + unshifted.boundMicros).isGreaterThanOrEqualTo(DELAY_MILLIS * 1000);
            // Each run's corrected p50 is the true one within that run's stated bound, to its recording's resolution;
            // the true one is the proxy's delay and the same path in both runs. So the two agree within the two
            // stated bounds and resolutions.
            long stated = across.boundMicros + across.resolutionMicros + unshifted.boundMicros + unshifted.resolutionMicros;
            assertThat(Math.abs(corrected - reference)).as("%s to %s: corrected p50 %d µs ± %d (recorded to %d),"
                    + " unshifted p50 %d µs ± %d (recorded to %d)", direction[0], direction[1], corrected,
                    across.boundMicros, across.resolutionMicros, reference, unshifted.boundMicros,
                    unshifted.resolutionMicros).isLessThanOrEqualTo(stated);
        }
        // Every warning names its pair; none says a pair's latencies are near zero: they are the proxy's 50 ms.
        assertThat(clocks.warnings).allSatisfy(w -> assertThat(w).containsPattern("from engine-\\d to engine-\\d"));
        assertThat(clocks.warnings).noneSatisfy(w -> assertThat(w).containsPattern("of zero|near zero"));
        assertThat(plain.clocks.warnings).noneSatisfy(w -> assertThat(w).containsPattern("of zero|near zero"));
        assertThat(clocks.warnings).anySatisfy(w -> assertThat(w).contains("from engine-1 to engine-2 carry a clock"
                + " difference of " + ClockReport.signedMs(pair(shifted, "engine-1", "engine-2").clockDifferenceMicros)
                + " ms").contains("(engine-2's clock ahead of engine-1's)"));
    }

    /** The plan on two fresh engines, engine 2's clock shifted by {@code shiftMillis}; the report's figures. */
    private static ReportFigures run(Path dir, long shiftMillis) throws Exception {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                TcpProxy proxy = TcpProxy.delaying(broker.host(), broker.tcpPort(), Duration.ofMillis(DELAY_MILLIS));
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
                    // The first second is left out (warm-up): there the fresh JVMs and broker compile their paths,
                    // which made the two runs' latencies differ by more than the clocks' bounds.
                    Map.entry("durationSeconds", "4"), Map.entry("mqttload.warmupSeconds", "1"), Map.entry("qos", "1"),
                    Map.entry("mqttload.engines", "2"), Map.entry("mqttload.runId", runId),
                    Map.entry("mqttload.resultsDir", dir.resolve("engine-results").toString()),
                    Map.entry("mqttload.progressSeconds", "0"));

            JMeterEngines.Run run = engines.run(subscribersThroughProxy(dir, broker, proxy), global, Map.of("mqttload.resultsDir",
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

    /**
     * The plan with two broker nodes: the broker itself first (the control clients of the clock exchange and the
     * rendezvous take the first node) for the publishers, and the delaying proxy for the subscribers.
     */
    private static Path subscribersThroughProxy(Path dir, EmbeddedHiveMqBroker broker, TcpProxy proxy) throws IOException {
        String plan = Files.readString(DistributedMqttIT.plan(), StandardCharsets.UTF_8);
        String nodes = "<stringProp name=\"nodes\"></stringProp>";
        String node = "<stringProp name=\"brokerNode\"></stringProp>";
        assertThat(plan.split(Pattern.quote(nodes), -1)).hasSize(2);
        assertThat(plan.split(Pattern.quote(node), -1)).as("the subscribers' Connect, then the publishers'").hasSize(3);
        plan = plan.replace(nodes, "<stringProp name=\"nodes\">direct=" + broker.host() + ":" + broker.tcpPort()
                + ", delayed=" + broker.host() + ":" + proxy.port() + "</stringProp>");
        plan = plan.replaceFirst(Pattern.quote(node), "<stringProp name=\"brokerNode\">delayed</stringProp>");
        plan = plan.replaceFirst(Pattern.quote(node), "<stringProp name=\"brokerNode\">direct</stringProp>");
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("multi-publisher-delayed-subscribers.jmx"), plan, StandardCharsets.UTF_8);
    }

    private static LatencyPair pair(ReportFigures figures, String publisher, String subscriber) {
        return figures.clocks.pairs.stream().filter(p -> p.publisher.equals(publisher) && p.subscriber.equals(subscriber))
                .findFirst().orElseThrow(() -> new AssertionError("no pair " + publisher + " to " + subscriber + " in "
                        + figures.clocks.pairs.size() + " pair(s)"));
    }
}
