package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
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
 * Three real jmeter-server engines on one host, a controller, and the multi-publisher plan against HiveMQ CE embedded
 * in this JVM, in one run: engine 1 the clocks' reference, engine 2 with its clock as it is, engine 3 with its wall
 * clock shifted 5.83 s ahead with Debian's libfaketime (its monotonic clock left true; a shift no other test uses).
 * Every engine publishes its partition; engine 1's subscriber takes every engine's (so it receives from 2 and from 3),
 * engines 2 and 3 each take engine 1's (so both receive the same messages). The subscribers reach the broker through a
 * proxy that holds every byte from it {@value #DELAY_MILLIS} ms: a true latency of a known size, large beside the
 * clocks' bounds (publishers, the rendezvous and the clock exchange go to the broker directly).
 *
 * <p>Engine 3 measures 5.83 s too much from engine 1, and engine 1 about -5.83 s from engine 3, kept as measured; each
 * engine corrects every message by the clock difference measured before production, which is the shift within its
 * stated bound. The shifted pairs are compared side by side with the unshifted ones of the same run, which saw the same
 * moment, load and path: 1 to 3 with 1 to 2 (the same messages, two receivers), 3 to 1 with 2 to 1 (one receiver, two
 * publishers at the same rate). Each corrected p50 is the true one within its pair's stated bound, to its recording's
 * resolution; so the shifted pair's corrected p50 equals the unshifted one's within the two pairs' stated bounds and
 * resolutions. (Two separate runs cannot be compared so: on a loaded machine the true latency itself moved between
 * them by more than those bounds.) No warning says a pair's latencies are near zero.
 */
class ClockOffsetIT {
    /** Ahead, not behind: the RMI keystore is made a moment before, and a clock behind it would find it not yet valid. */
    private static final long SHIFT_MILLIS = 5_830;
    /** The engine whose clock is shifted. */
    private static final int SHIFTED = 3;
    /** What the proxy adds to every delivery: the bulk of each latency, the same for every subscriber. */
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
    void engineShifted5830ms_eachDirectionCorrectedToTheUnshiftedPairsP50_withinTheStatedBounds(@TempDir Path dir)
            throws Exception {
        FakeTime.requireInstalled();
        ReportFigures figures = run(dir);
        ClockReport clocks = figures.clocks;

        assertThat(clocks.reference).isEqualTo("engine-1");
        assertThat(clocks.engines).hasSize(3);
        assertThat(clocks.engines.get(0).reference).isTrue();
        for (ClockReport.Row row : clocks.engines.subList(1, 3)) {
            long shift = row.engineId.equals("engine-" + SHIFTED) ? SHIFT_MILLIS * 1000 : 0;
            assertThat(row.notMeasured).as(row.engineId).isNull();
            for (OffsetEstimator.Estimate e : new OffsetEstimator.Estimate[] {row.before, row.after}) {
                assertThat(e).as(row.engineId).isNotNull();
                assertThat(Math.abs(e.offsetMicros - shift)).as("%s: offset %d µs, bound %d µs", row.engineId,
                        e.offsetMicros, e.boundMicros).isLessThanOrEqualTo(e.boundMicros + TOLERANCE_MICROS);
                // Half the best round trip through the broker, which is how busy the machine was (a fraction of a ms
                // on a quiet one, 7 to 11 ms on a loaded one): small beside the 5.83 s it resolves.
                assertThat(e.boundMicros).isLessThan(SHIFT_MILLIS * 1000 / 10);
            }
            // One host, one oscillator: no drift beyond what the bounds allow.
            assertThat(Math.abs(row.driftPpm)).isLessThanOrEqualTo(row.driftBoundPpm + 1_000);
        }

        StringBuilder side = new StringBuilder();
        // {shifted pair, its unshifted counterpart in the same run}
        for (String[][] compared : new String[][][] {
                {{"engine-1", "engine-3"}, {"engine-1", "engine-2"}},
                {{"engine-3", "engine-1"}, {"engine-2", "engine-1"}}}) {
            LatencyPair across = pair(figures, compared[0][0], compared[0][1]);
            LatencyPair unshifted = pair(figures, compared[1][0], compared[1][1]);
            long sign = compared[0][1].equals("engine-" + SHIFTED) ? 1 : -1;
            // The difference applied is the shift, within its bound; the measured latencies carry it, never floored.
            assertThat(Math.abs(across.clockDifferenceMicros - sign * SHIFT_MILLIS * 1000))
                    .isLessThanOrEqualTo(across.boundMicros + TOLERANCE_MICROS);
            assertThat(sign * across.measured.percentile(50.0)).isGreaterThan(SHIFT_MILLIS * 1000 / 2);
            // Every message corrected (those before the difference was known too), each by that difference: the same
            // messages in the same order, so the p50s differ by it, to the measured recording's bucket at 5.83 s.
            for (LatencyPair p : new LatencyPair[] {across, unshifted}) {
                assertThat(p.notCorrected).as(p.name()).isZero();
                assertThat(p.corrected.count).as(p.name()).isEqualTo(p.measured.count).isPositive();
            }
            long measuredP50 = across.measured.percentile(50.0);
            long corrected = across.corrected.percentile(50.0);
            assertThat(Math.abs(corrected - (measuredP50 - across.clockDifferenceMicros)))
                    .isLessThanOrEqualTo(across.measured.resolutionAt(measuredP50) + across.resolutionMicros);
            // The true latency holds the proxy's delay: the unshifted pair's p50, within its bound, is at least that.
            long reference = unshifted.corrected.percentile(50.0);
            assertThat(reference + unshifted.boundMicros).isGreaterThanOrEqualTo(DELAY_MILLIS * 1000);
            // Each corrected p50 is the true one within its pair's stated bound, to its recording's resolution; the
            // two pairs crossed the same path at the same moment. So they agree within the two stated bounds and
            // resolutions.
            long stated = across.boundMicros + across.resolutionMicros + unshifted.boundMicros
                    + unshifted.resolutionMicros;
            String line = String.format(Locale.ROOT, "%s: corrected p50 %s ms ± %s (recorded to %s), %s: corrected"
                    + " p50 %s ms ± %s (recorded to %s); difference %s ms, stated %s ms", across.name(),
                    ClockReport.ms(corrected), ClockReport.ms(across.boundMicros),
                    ClockReport.ms(across.resolutionMicros), unshifted.name(), ClockReport.ms(reference),
                    ClockReport.ms(unshifted.boundMicros), ClockReport.ms(unshifted.resolutionMicros),
                    ClockReport.signedMs(corrected - reference), ClockReport.ms(stated));
            System.out.println("side by side: " + line);
            side.append(line).append('\n');
        }
        for (LatencyPair p : clocks.pairs) {
            System.out.printf(Locale.ROOT, "pair %s: %d message(s), measured p50 %s, corrected p50 %s ms%n", p.name(),
                    p.measured.count, ClockReport.signedMs(p.measured.percentile(50.0)), p.corrected == null ? "-"
                            : ClockReport.signedMs(p.corrected.percentile(50.0)));
        }
        assertSideBySide(figures, "engine-1", "engine-3", "engine-1", "engine-2", side);
        assertSideBySide(figures, "engine-3", "engine-1", "engine-2", "engine-1", side);

        // Every warning names its pair; none says a pair's latencies are near zero: they are the proxy's 50 ms.
        assertThat(clocks.warnings).allSatisfy(w -> assertThat(w).containsPattern("from engine-\\d to engine-\\d"));
        assertThat(clocks.warnings).noneSatisfy(w -> assertThat(w).containsPattern("of zero|near zero"));
        assertThat(clocks.warnings).anySatisfy(w -> assertThat(w).contains("from engine-1 to engine-3 carry a clock"
                + " difference of " + ClockReport.signedMs(pair(figures, "engine-1", "engine-3").clockDifferenceMicros)
                + " ms").contains("(engine-3's clock ahead of engine-1's)"));
        assertThat(clocks.warnings).anySatisfy(w -> assertThat(w).contains("from engine-3 to engine-1 carry a clock"
                + " difference of " + ClockReport.signedMs(pair(figures, "engine-3", "engine-1").clockDifferenceMicros)
                + " ms").contains("(engine-1's clock behind engine-3's)"));
    }

    private static void assertSideBySide(ReportFigures figures, String pub, String sub, String otherPub,
            String otherSub, StringBuilder side) {
        LatencyPair across = pair(figures, pub, sub);
        LatencyPair unshifted = pair(figures, otherPub, otherSub);
        long stated = across.boundMicros + across.resolutionMicros + unshifted.boundMicros + unshifted.resolutionMicros;
        assertThat(Math.abs(across.corrected.percentile(50.0) - unshifted.corrected.percentile(50.0))).as(side
                .toString()).isLessThanOrEqualTo(stated);
    }

    /** The plan on three fresh engines, engine 3's clock shifted; the report's figures. */
    private static ReportFigures run(Path dir) throws Exception {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                TcpProxy proxy = TcpProxy.delaying(broker.host(), broker.tcpPort(), Duration.ofMillis(DELAY_MILLIS));
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 3,
                        true, Duration.ofSeconds(90), n -> n == SHIFTED ? FakeTime.shifted(SHIFT_MILLIS) : Map.of(),
                        // Engine 1's subscriber takes every engine's partition, engines 2 and 3 engine 1's.
                        n -> Map.of("subscriberFilter", n == 1 ? "S/+/{thread}/#" : "S/engine-1/{thread}/#"))) {
            String runId = "clock-it-" + Long.toString(System.currentTimeMillis(), 36);
            Path controllerResults = dir.resolve("controller-results");
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                    Map.entry("partitions", "1"), Map.entry("publishersPerPartition", "2"),
                    Map.entry("messagesPerSample", "5"), Map.entry("intervalMs", "100"),
                    // The first second is left out (warm-up): there the fresh JVMs and broker compile their paths.
                    Map.entry("durationSeconds", "4"), Map.entry("mqttload.warmupSeconds", "1"), Map.entry("qos", "1"),
                    Map.entry("mqttload.engines", "3"), Map.entry("mqttload.runId", runId),
                    Map.entry("mqttload.resultsDir", dir.resolve("engine-results").toString()),
                    Map.entry("mqttload.progressSeconds", "0"));

            JMeterEngines.Run run = engines.run(subscribersThroughProxy(dir, broker, proxy), global,
                    Map.of("mqttload.resultsDir", controllerResults.toString(), ClockReport.CORRECT_PROPERTY, "true"),
                    Duration.ofSeconds(180));

            assertThat(run.exitCode).as(run.output).isZero();
            String text = Files.readString(controllerResults.resolve("report-" + runId + ".txt"), StandardCharsets.UTF_8);
            System.out.print(text);
            // Loss does not depend on clocks.
            assertThat(text).contains("verdict (all engines): NO LOSS");
            ReportFigures figures = SummaryJson.readReport(Files.readString(controllerResults.resolve("report-" + runId
                    + ".json"), StandardCharsets.UTF_8));
            assertThat(text).containsPattern("clock offsets \\(engine clock minus engine-1's");
            ClockReport.Row shifted = figures.clocks.engines.get(SHIFTED - 1);
            assertThat(text).containsPattern("engine-3 +" + Pattern.quote(ClockReport.signedMs(shifted.before.offsetMicros))
                    + " ± \\d+\\.\\d{3} +" + Pattern.quote(ClockReport.signedMs(shifted.after.offsetMicros)) + " ± ");
            // Each pair, measured and CORRECTED, with the precision the correction has.
            assertThat(text).containsPattern("pub-to-sub engine-1 to engine-3: \\d+ message\\(s\\), measured p50 \\+"
                    + "\\d+\\.\\d{3}, p99 \\+\\d+\\.\\d{3} ms; clock difference \\+\\d{4}\\.\\d{3} ± \\d+\\.\\d{3} ms;"
                    + " CORRECTED p50 [-+]\\d+\\.\\d{3}, p99 [-+]\\d+\\.\\d{3} ms \\(± \\d+\\.\\d{3} ms: the clock"
                    // The recording's precision is relative to the latency: a busy machine's longer ones read
                    // to 0.016 ms (CI: a corrected p50 of 20.8 ms), a quiet one's to 0.002 ms.
                    + " difference's bound; recorded to \\d\\.\\d{3} ms at the p50\\)");
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
