package io.mqttload.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
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
 * Two real jmeter-server engines on one host, a controller, and the multi-publisher plan against HiveMQ CE embedded
 * in this JVM, in one run: engine 1 the clocks' reference, engine 2 with its wall clock shifted 6.42 s ahead with
 * Debian's libfaketime (its monotonic clock left true; a shift no other test uses). Each engine publishes its partition
 * and each engine's subscriber takes both partitions, so every message reaches two receivers: its own engine's, on the
 * clock that stamped it (one clock, nothing to correct), and the other engine's, across the shift. The subscribers reach
 * the broker through a proxy that holds every byte from it {@value #DELAY_MILLIS} ms: a true latency of a known size,
 * large beside the clocks' bounds (publishers, the rendezvous and the clock exchange go to the broker directly).
 *
 * <p>Engine 2 measures 6.42 s too much from engine 1, and engine 1 about -6.42 s from engine 2, kept as measured; each
 * engine corrects every message from the other by the clock difference measured before production, which is the shift
 * within its stated bound. Each direction's corrected p50 is compared with the p50 of the same messages on one clock:
 * 1 to 2 (the shifted engine receiving) with 1 to 1, and 2 to 1 (the shifted engine publishing) with 2 to 2. The two
 * figures of a comparison hold the same messages, sent at the same moments by the same publisher; they differ only by
 * the correction's error, which the stated bound holds, and by the recordings' resolutions, so that is all they are
 * allowed. (Two separate runs cannot be compared so, nor two publishers' messages at one receiver: on a loaded machine
 * the true latency moved 15 ms between two runs, and differed by 4.9 ms between two publishing JVMs of one run, more
 * than the bounds.) No warning says a pair's latencies are near zero, and each warning reads its own pair's figures.
 */
class ClockOffsetIT {
    /** Ahead, not behind: the RMI keystore is made a moment before, and a clock behind it would find it not yet valid. */
    private static final long SHIFT_MILLIS = 6_420;
    /**
     * What the proxy adds to every delivery: the bulk of each latency, the same for every subscriber; large beside the
     * bounds of a loaded machine too, so that no pair's p50 is within 3 bounds of zero (with 50 ms, and busy loops
     * beside a load average of 5 on 2 cores, an offset before production was known to ± 38.444 ms, and a p50 of
     * 98.623 ms was rightly called near zero).
     */
    private static final long DELAY_MILLIS = 200;
    /**
     * Beyond the bound, what separates the two engines' clocks as the payload header reads them without being in the
     * exchange: each JVM's MicroClock anchors the wall clock once, at a millisecond tick, so a thread preempted between
     * the tick and its nanoTime read, or the system clock slewed against the monotonic one between the two JVMs'
     * starts, moves one anchor. On this shared machine that is microseconds, at worst a fraction of a millisecond. It
     * separates the offsets from the faketime shift only: the exchange reads the same anchored clock as the latencies,
     * so the corrections take it out of the latencies, and the comparisons of corrected figures do not allow it.
     */
    private static final long TOLERANCE_MICROS = 1_000;
    /** A figure a warning quotes, and which of the pair's it must be. */
    private static final Pattern QUOTED_P50 = Pattern.compile("(measured|corrected) (?:pub-to-sub )?p50 \\(?([-+]\\d+"
            + "\\.\\d{3}) ms");

    @Test
    void engineShifted6420ms_eachDirectionCorrectedToTheSameMessagesOnOneClock_withinTheStatedBound(@TempDir Path dir)
            throws Exception {
        FakeTime.requireInstalled();
        Run run = run(dir);
        ReportFigures figures = run.figures;
        ClockReport clocks = figures.clocks;

        assertThat(clocks.reference).isEqualTo("engine-1");
        assertThat(clocks.engines).hasSize(2);
        assertThat(clocks.engines.get(0).reference).isTrue();
        ClockReport.Row two = clocks.engines.get(1);
        assertThat(two.engineId).isEqualTo("engine-2");
        assertThat(two.notMeasured).isNull();
        for (OffsetEstimator.Estimate e : new OffsetEstimator.Estimate[] {two.before, two.after}) {
            assertThat(e).isNotNull();
            assertThat(Math.abs(e.offsetMicros - SHIFT_MILLIS * 1000)).as("offset %d µs, bound %d µs", e.offsetMicros,
                    e.boundMicros).isLessThanOrEqualTo(e.boundMicros + TOLERANCE_MICROS);
            // Half the best round trip through the broker, which is how busy the machine was (a fraction of a ms on a
            // quiet one, 7 to 38 ms on a loaded one): small beside the 6.42 s it resolves.
            assertThat(e.boundMicros).isLessThan(SHIFT_MILLIS * 1000 / 10);
        }
        // One host, one oscillator: no drift beyond what the bounds allow.
        assertThat(Math.abs(two.driftPpm)).isLessThanOrEqualTo(two.driftBoundPpm + 1_000);
        for (LatencyPair p : clocks.pairs) {
            System.out.printf(Locale.ROOT, "pair %s: %d message(s), measured p50 %s, corrected p50 %s ms%n", p.name(),
                    p.measured.count, ClockReport.signedMs(p.measured.percentile(50.0)),
                    ClockReport.signedMs(p.corrected.percentile(50.0)));
        }

        List<String> compared = new ArrayList<>();
        List<Runnable> checks = new ArrayList<>();
        // {publisher, the other engine}: the publisher's messages across the clocks, and the same on one clock.
        for (String[] direction : new String[][] {{"engine-1", "engine-2"}, {"engine-2", "engine-1"}}) {
            LatencyPair across = pair(figures, direction[0], direction[1]);
            LatencyPair oneClock = pair(figures, direction[0], direction[0]);
            long sign = direction[1].equals("engine-2") ? 1 : -1;
            // The difference applied is the shift, within its bound; the measured latencies carry it, never floored.
            assertThat(Math.abs(across.clockDifferenceMicros - sign * SHIFT_MILLIS * 1000))
                    .isLessThanOrEqualTo(across.boundMicros + TOLERANCE_MICROS);
            assertThat(sign * across.measured.percentile(50.0)).isGreaterThan(SHIFT_MILLIS * 1000 / 2);
            // Nothing to correct on one clock; across, every message corrected (those before the difference was known
            // too), each by that difference: the p50s differ by it, to the measured recording's bucket at 6.42 s.
            assertThat(oneClock.clockDifferenceMicros).isZero();
            assertThat(oneClock.boundMicros).isZero();
            assertThat(across.notCorrected).isZero();
            assertThat(across.corrected.count).isEqualTo(across.measured.count);
            long measuredP50 = across.measured.percentile(50.0);
            long corrected = across.corrected.percentile(50.0);
            assertThat(Math.abs(corrected - (measuredP50 - across.clockDifferenceMicros)))
                    .isLessThanOrEqualTo(across.measured.resolutionAt(measuredP50) + across.resolutionMicros);
            // The same messages: no warm-up leaves any out, and with no loss and no duplicate both receivers recorded
            // every message of the publisher once.
            assertThat(across.measured.count).as(across.name() + " and " + oneClock.name()).isPositive()
                    .isEqualTo(oneClock.measured.count);
            long reference = oneClock.corrected.percentile(50.0);
            // The true latency holds the proxy's hold.
            assertThat(reference).isGreaterThanOrEqualTo(DELAY_MILLIS * 1000);
            long stated = across.boundMicros + across.resolutionMicros + oneClock.resolutionMicros;
            String line = String.format(Locale.ROOT, "%s: corrected p50 %s ms ± %s (recorded to %s), %s (one clock):"
                    + " p50 %s ms (recorded to %s); difference %s ms, stated %s ms", across.name(),
                    ClockReport.ms(corrected), ClockReport.ms(across.boundMicros),
                    ClockReport.ms(across.resolutionMicros), oneClock.name(), ClockReport.ms(reference),
                    ClockReport.ms(oneClock.resolutionMicros), ClockReport.signedMs(corrected - reference),
                    ClockReport.ms(stated));
            System.out.println("same messages: " + line);
            compared.add(line);
            // Each corrected value is the true one within the stated bound; the one-clock value is the true one as its
            // own receiver saw it. Nothing is allowed for what the two receiving engines add differently to the same
            // messages: at QoS 0 that stayed within the correction's own error here (loads of 9 to 17 on 2 cores).
            checks.add(() -> assertThat(Math.abs(corrected - reference)).as(String.join("\n", compared))
                    .isLessThanOrEqualTo(stated));
        }
        checks.forEach(Runnable::run);

        // Each warning names its pair and quotes that pair's own figures; none says a pair's latencies are near zero
        // (they are the proxy's 200 ms and more), and none is about one engine's own messages.
        assertThat(clocks.warnings).noneSatisfy(w -> assertThat(w).containsPattern("of zero|near zero"));
        for (String w : clocks.warnings) {
            assertThat(run.text).as("the report shows the warning").contains(w);
            Matcher named = Pattern.compile("from (engine-\\d) to (engine-\\d)").matcher(w);
            assertThat(named.find()).as(w).isTrue();
            assertThat(named.group(1)).as(w).isNotEqualTo(named.group(2));
            LatencyPair p = pair(figures, named.group(1), named.group(2));
            for (Matcher m = QUOTED_P50.matcher(w); m.find();) {
                long own = m.group(1).equals("measured") ? p.measured.percentile(50.0) : p.corrected.percentile(50.0);
                assertThat(m.group(2)).as(w).isEqualTo(ClockReport.signedMs(own));
            }
        }
        // The crossing pairs' warnings: the pair, its clock difference and bound, its own measured and corrected p50.
        for (String[] direction : new String[][] {{"engine-1", "engine-2"}, {"engine-2", "engine-1"}}) {
            LatencyPair p = pair(figures, direction[0], direction[1]);
            String expected = String.format(Locale.ROOT, "%d message(s) from %s to %s carry a clock difference of %s ms"
                    + " ± %s ms (%s's clock %s %s's): it is inside each of their measured latencies; measured p50 %s ms,"
                    + " corrected p50 %s ms", p.measured.count, p.publisher, p.subscriber,
                    ClockReport.signedMs(p.clockDifferenceMicros), ClockReport.ms(p.boundMicros), p.subscriber,
                    p.clockDifferenceMicros > 0 ? "ahead of" : "behind", p.publisher,
                    ClockReport.signedMs(p.measured.percentile(50.0)), ClockReport.signedMs(p.corrected.percentile(50.0)));
            assertThat(run.text).contains(expected);
        }
    }

    /** The report of one run, as text and as figures. */
    private static final class Run {
        final String text;
        final ReportFigures figures;

        Run(String text, ReportFigures figures) {
            this.text = text;
            this.figures = figures;
        }
    }

    /** The plan on two fresh engines, engine 2's clock shifted; the report. */
    private static Run run(Path dir) throws Exception {
        try (EmbeddedHiveMqBroker broker = EmbeddedHiveMqBroker.start();
                TcpProxy proxy = TcpProxy.delaying(broker.host(), broker.tcpPort(), Duration.ofMillis(DELAY_MILLIS));
                JMeterEngines engines = JMeterEngines.start(JMeterEngines.homeFromBuild(), dir.resolve("engines"), 2,
                        true, Duration.ofSeconds(90), n -> n == 2 ? FakeTime.shifted(SHIFT_MILLIS) : Map.of(),
                        // Each engine's subscriber takes both engines' partitions: every message reaches both.
                        n -> Map.of("subscriberFilter", "S/+/{thread}/#"))) {
            String runId = "clock-it-" + Long.toString(System.currentTimeMillis(), 36);
            Path controllerResults = dir.resolve("controller-results");
            Map<String, String> global = Map.ofEntries(
                    Map.entry("mqtt.host", broker.host()), Map.entry("mqtt.port", Integer.toString(broker.tcpPort())),
                    Map.entry("partitions", "1"), Map.entry("publishersPerPartition", "2"),
                    // 25 msg/s per publisher on its own slots, 50 a second per engine, evenly spaced: messages queue
                    // behind one another at a subscriber by their phase, which each engine's schedule takes at random.
                    Map.entry("publishRate", "25"),
                    // No warm-up, so that both receivers of a message count it: a warm-up ends at each engine's own
                    // tick, and would leave out different messages on each. About 320 messages per pair.
                    Map.entry("durationSeconds", "7"), Map.entry("mqttload.warmupSeconds", "0"),
                    // QoS 0: delivered as the broker takes it. At QoS 1 each subscriber's messages waited 0 to about
                    // 230 ms beyond the hold (presumably for the acknowledgements the proxy holds back), each subscriber
                    // on its own cycle: the same messages' p50 differed by 3.3 and 5.1 ms between the two receivers.
                    Map.entry("qos", "0"),
                    Map.entry("mqttload.engines", "2"), Map.entry("mqttload.runId", runId),
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
            ClockReport.Row shifted = figures.clocks.engines.get(1);
            assertThat(text).containsPattern("engine-2 +" + Pattern.quote(ClockReport.signedMs(shifted.before.offsetMicros))
                    + " ± \\d+\\.\\d{3} +" + Pattern.quote(ClockReport.signedMs(shifted.after.offsetMicros)) + " ± ");
            // Each pair, measured and CORRECTED, with the precision the correction has.
            assertThat(text).containsPattern("pub-to-sub engine-1 to engine-2: \\d+ message\\(s\\), measured p50 \\+"
                    + "\\d+\\.\\d{3}, p99 \\+\\d+\\.\\d{3} ms; clock difference \\+\\d{4}\\.\\d{3} ± \\d+\\.\\d{3} ms;"
                    + " CORRECTED p50 [-+]\\d+\\.\\d{3}, p99 [-+]\\d+\\.\\d{3} ms \\(± \\d+\\.\\d{3} ms: the clock"
                    // The recording's precision is relative to the latency: a busy machine's longer ones read
                    // to 0.016 ms (CI: a corrected p50 of 20.8 ms), a quiet one's to 0.002 ms.
                    + " difference's bound; recorded to \\d\\.\\d{3} ms at the p50\\)");
            return new Run(text, figures);
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
