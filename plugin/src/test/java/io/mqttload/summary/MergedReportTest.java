package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.mqttload.common.SharedSubscription;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyRecorder;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.report.HtmlReport;
import io.mqttload.report.ReportText;

/**
 * Engines' summaries merged into one report: latency percentiles from the merged histograms equal
 * those of all values recorded in one histogram, and messages published on one engine and owed to
 * subscribers on another are checked, so loss between engines is found.
 */
class MergedReportTest {

    /** One engine's run, built the way EngineRuntime builds it, without a broker. */
    private static final class Engine {
        final String id;
        final int number;
        final EngineMetrics metrics = new EngineMetrics();
        final DeliveryLedger ledger;

        Engine(String id, int number) {
            this.id = id;
            this.number = number;
            this.ledger = new DeliveryLedger(number);
        }

        PublishStream publish(String topic, int messages) {
            PublishStream s = ledger.newStream(topic);
            for (int i = 0; i < messages; i++) {
                s.nextSequence();
                s.sent();
                s.acknowledged();
                metrics.count(Count.ACKNOWLEDGED);
            }
            return s;
        }

        void receive(ReceiverScope scope, PublishStream from, int firstSeq, int lastSeq, int... skipped) {
            outer:
            for (int seq = firstSeq; seq <= lastSeq; seq++) {
                for (int skip : skipped) {
                    if (skip == seq) {
                        continue outer;
                    }
                }
                metrics.count(Count.RECEIVED);
                scope.track(from.id(), seq, metrics);
            }
        }

        final java.util.Map<String, Histogram> bySampler = new java.util.TreeMap<>();
        final TimelineFigures timeline = new TimelineFigures();

        /** A timeline point: {@code acknowledged} messages in the interval of {@code intervalMillis} ending at t. */
        void tick(long timeMillis, long intervalMillis, long acknowledged) {
            TimelineFigures.Point p = new TimelineFigures.Point();
            p.timeMillis = timeMillis;
            p.intervalMillis = intervalMillis;
            p.acknowledged = acknowledged;
            p.received = acknowledged;
            timeline.seconds.add(p);
        }

        String summary() {
            // As at run end: what the recorders hold since the last interval goes into the run's totals.
            metrics.takeReceivedInterval(true);
            metrics.latency.takeInterval(Latency.PUBLISH, true);
            metrics.latency.takeInterval(Latency.CONNECT, true);
            metrics.latency.takeInterval(Latency.PUBLISH_INTENDED, true);
            metrics.latency.takeInterval(Latency.SCHEDULE_LAG, true);
            RunSummary summary = new RunSummary("run-1", id, number, "merge-test", 1_000, 11_000, 0, 10.0, metrics,
                    ledger.delivery(), metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED),
                    new WindowCounts(metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED), 0, 0, 0),
                    new long[] {0, 0, 0}, ledger.book(), 0);
            java.util.Map<String, LatencyStats> stats = new java.util.TreeMap<>();
            bySampler.forEach((label, h) -> stats.put(label, new LatencyStats(h)));
            summary.pubToSubBySampler(stats);
            summary.timeline(timeline);
            return summary.toJson();
        }
    }

    /**
     * Two engines at 1,000 msg/s each, ticking a second apart at different offsets into the clock's seconds; one of
     * them ticks twice in one wall second at its end (a last interval of 270 ms). The chart's rate is the true one
     * wherever it is drawn (the old one divided 1,270 ms of messages by a second: a spike to 1,270 msg/s), a second
     * only partly covered has none, and the counts still add up to every message.
     */
    @Test
    void timeline_ratesAreCountsOverTheTimeEachEngineCovered_neverAboveTheTrueRate() {
        Engine a = new Engine("a", 1);
        Engine b = new Engine("b", 2);
        long base = 1_800_000_000_000L;
        for (int i = 1; i <= 5; i++) {
            a.tick(base + i * 1000 + 100, 1000, 1000);
            b.tick(base + i * 1000 + 600, 1000, 1000);
        }
        a.tick(base + 5 * 1000 + 370, 270, 270);
        b.tick(base + 6 * 1000 + 870, 270, 270);

        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        assertThat(report.timeline).extracting(s -> s.timeMillis).containsExactly(base + 1000, base + 2000, base + 3000,
                base + 4000, base + 5000, base + 6000);
        for (RunSecond s : report.timeline.subList(0, 5)) {
            assertThat(s.acknowledgedPerSecond()).as("second " + s.timeMillis).isCloseTo(2000, org.assertj.core.data.Offset
                    .offset(1e-6));
            assertThat(s.receivedPerSecond()).isCloseTo(2000, org.assertj.core.data.Offset.offset(1e-6));
        }
        assertThat(report.timeline.get(4).acknowledged).as("a's two intervals in one second").isEqualTo(2270);
        assertThat(report.timeline.get(5).acknowledgedPerSecond()).as("b's last 270 ms alone: no rate").isNaN();
        assertThat(report.timeline.stream().mapToLong(s -> s.acknowledged).sum()).isEqualTo(2 * 5270);
    }

    @Test
    void merge_publisherOnOneEngineSubscriberOnAnother_findsTheLossNeitherEngineCanSee() {
        Engine pub = new Engine("pub-engine", 1);
        Engine sub = new Engine("sub-engine", 2);
        PublishStream stream = pub.publish("plant/1/temp", 100);
        ReceiverScope scope = sub.ledger.clientScope("sub-1", "plant/#");
        sub.receive(scope, stream, 1, 100, 17, 18, 60);

        MergedReport report = MergedReport.merge(List.of(pub.summary(), sub.summary()), List.of());

        assertThat(report.expected).isEqualTo(100);
        assertThat(report.receivedOfExpected).isEqualTo(97);
        assertThat(report.lost()).isEqualTo(3);
        assertThat(report.verdict()).isEqualTo(Verdict.LOSS);
        assertThat(report.verdictLine()).contains("3 of 100 expected deliveries missing");
        // Each engine alone has nothing to compare: the publisher has no subscriber, the subscriber no stream.
        assertThat(report.engines).extracting(e -> e.count(Count.EXPECTED)).containsExactly(0L, 0L);
        assertThat(report.count(Count.ACKNOWLEDGED)).isEqualTo(100);
        assertThat(report.count(Count.RECEIVED)).isEqualTo(97);
    }

    @Test
    void merge_duplicatesAndReorderedAreShownPerSubscriberAndPerNode_whereTheyWere() {
        Engine pub = new Engine("pub-engine", 1);
        Engine subs = new Engine("sub-engine", 2);
        PublishStream stream = pub.publish("plant/1/temp", 5);
        subs.metrics.nodes.node(0, "node-1");
        subs.metrics.nodes.node(1, "node-2");
        ReceiverScope good = subs.ledger.clientScope("sub-good", "plant/#");
        good.labelIfUnset("subscribe good");
        good.nodeOf("node-1");
        ReceiverScope bad = subs.ledger.clientScope("sub-bad", "plant/#");
        bad.labelIfUnset("subscribe bad");
        bad.nodeOf("node-2");
        subs.receive(good, stream, 1, 5);
        // 1, 2, 4, 3 (reordered), 4 and 4 again (duplicates), 5.
        for (int seq : new int[] {1, 2, 4, 3, 4, 4, 5}) {
            subs.metrics.count(Count.RECEIVED);
            bad.track(stream.id(), seq, subs.metrics);
        }

        MergedReport report = MergedReport.merge(List.of(pub.summary(), subs.summary()), List.of());

        assertThat(report.lost()).isZero();
        assertThat(report.count(Count.DUPLICATES)).isEqualTo(2);
        assertThat(report.lossBySampler.get("subscribe bad")).containsExactly(5, 5, 2, 1);
        assertThat(report.lossBySampler.get("subscribe good")).containsExactly(5, 5, 0, 0);
        assertThat(ReportText.table(report)).contains("delivery to subscribe bad: expected 5, received 5, lost 0,"
                + " duplicates 2, reordered 1").contains("delivery to subscribe good: expected 5, received 5, lost 0,"
                + " duplicates 0, reordered 0");
        assertThat(ReportText.markdown(report)).contains("| subscribers (sampler) | expected | received | lost |"
                + " duplicates | reordered |").contains("| subscribe bad | 5 | 5 | 0 | 2 | 1 |");
        assertThat(HtmlReport.render(report)).contains("<td>subscribe bad</td><td class=\"n\">5</td><td class=\"n\">5</td>"
                + "<td class=\"n\">0</td><td class=\"n\">2</td><td class=\"n\">1</td>");
        assertThat(report.nodes.get("node-2").duplicates).isEqualTo(2);
        assertThat(report.nodes.get("node-2").reordered).isEqualTo(1);
        assertThat(report.nodes.get("node-1").duplicates).isZero();
        assertThat(ReportText.markdown(report)).contains("| missing | duplicates | reordered |");
        // An engine that holds both sides says it in its own summary too, and carries it to the controller.
        Engine solo = new Engine("solo", 3);
        PublishStream own = solo.publish("plant/2/temp", 5);
        ReceiverScope soloBad = solo.ledger.clientScope("sub-bad", "plant/#");
        soloBad.labelIfUnset("subscribe bad");
        for (int seq : new int[] {1, 2, 4, 3, 4, 4, 5}) {
            soloBad.track(own.id(), seq, solo.metrics);
        }
        assertThat(SummaryJson.readEngineSummary(solo.summary()).lossBySampler.get("subscribe bad")).satisfies(d -> {
            assertThat(d.duplicates).isEqualTo(2);
            assertThat(d.reordered).isEqualTo(1);
        });
    }

    @Test
    void merge_everyMessageArrivedAcrossEngines_noLoss() {
        Engine a = new Engine("a", 1);
        Engine b = new Engine("b", 2);
        PublishStream fromA = a.publish("t/a", 50);
        PublishStream fromB = b.publish("t/b", 40);
        ReceiverScope onA = a.ledger.clientScope("sub-a", "t/+");
        ReceiverScope onB = b.ledger.clientScope("sub-b", "t/a");
        a.receive(onA, fromA, 1, 50);
        a.receive(onA, fromB, 1, 40);
        b.receive(onB, fromA, 1, 50);

        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        assertThat(report.expected).isEqualTo(50 + 40 + 50);
        assertThat(report.lost()).isZero();
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void merge_sharedGroupWithMembersOnTwoEngines_addsWhatTheMembersSaw() {
        Engine a = new Engine("a", 1);
        Engine b = new Engine("b", 2);
        PublishStream stream = a.publish("jobs/1", 10);
        SharedSubscription group = SharedSubscription.parse("topicFilters", "$share/workers/jobs/#");
        ReceiverScope onA = a.ledger.sharedScope(group);
        ReceiverScope onB = b.ledger.sharedScope(group);
        // The broker split the stream: odd sequence numbers to the member on A, even ones to the member on B.
        a.receive(onA, stream, 1, 9, 2, 4, 6, 8);
        b.receive(onB, stream, 2, 10, 3, 5, 7, 9);

        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        assertThat(report.expected).isEqualTo(10);
        assertThat(report.receivedOfExpected).isEqualTo(10);
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
    }

    @Test
    void engineSummary_sharedGroupSpanningEngines_isLeftToTheMergedReportInsteadOfShownAsLoss() {
        Engine a = new Engine("a", 1);
        Engine b = new Engine("b", 2);
        a.ledger.sharedGroupsSpanEngines(true);
        b.ledger.sharedGroupsSpanEngines(true);
        PublishStream stream = a.publish("test/a-p0", 10);
        SharedSubscription group = SharedSubscription.parse("topicFilters", "$share/perf/test/#");
        ReceiverScope onA = a.ledger.sharedScope(group);
        ReceiverScope onB = b.ledger.sharedScope(group);
        // A's member saw only A's messages, yet the broker gave half of them to the member on B.
        a.receive(onA, stream, 1, 5);
        b.receive(onB, stream, 6, 10);

        RunSummary aAlone = new RunSummary("run-1", "a", 1, "merge-test", 1_000, 11_000, 0, 10.0, a.metrics,
                a.ledger.delivery(), 10, 5, WindowCounts.NONE, new long[] {0, 0, 0}, a.ledger.book(), 0);
        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        assertThat(aAlone.verdict()).isNotIn(Verdict.LOSS, Verdict.LOSS_UNCERTAIN);
        assertThat(aAlone.verdictLine()).contains("1 shared subscription group(s) may have members on other engines");
        assertThat(report.engines).extracting(e -> e.count(Count.LOST)).containsExactly(0L, 0L);
        assertThat(report.expected).isEqualTo(10);
        assertThat(report.receivedOfExpected).isEqualTo(10);
        assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(ReportText.markdown(report)).contains("Shared subscription groups that may have members on several engines");

        // The same split with one message missing is loss over all engines.
        Engine c = new Engine("c", 3);
        Engine d = new Engine("d", 4);
        PublishStream fromC = c.publish("test/c-p0", 10);
        c.receive(c.ledger.sharedScope(group), fromC, 1, 5);
        d.receive(d.ledger.sharedScope(group), fromC, 6, 10, 8);
        assertThat(MergedReport.merge(List.of(c.summary(), d.summary()), List.of()).lost()).isEqualTo(1);
    }

    @Test
    void engineSummary_sharedGroupOnOneEngineOnly_isJudgedThere() {
        Engine a = new Engine("a", 1);
        PublishStream stream = a.publish("test/a-p0", 10);
        ReceiverScope group = a.ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/perf/test/#"));
        a.receive(group, stream, 1, 10, 4);

        DeliveryLedger.Delivery delivery = a.ledger.delivery();

        assertThat(delivery.sharedScopesAcrossEngines).isZero();
        assertThat(delivery.expected).isEqualTo(10);
        assertThat(delivery.lost()).isEqualTo(1);
    }

    @Test
    void merge_latencyFromTwoEngines_percentilesEqualOneHistogramOfEveryValue() {
        Engine a = new Engine("a", 1);
        Engine b = new Engine("b", 2);
        Histogram all = LatencyRecorder.newHistogram();
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            // Two different distributions: averaging their percentiles would be far from the truth.
            long fast = 200 + random.nextInt(300);
            long slow = 5_000 + (long) (random.nextGaussian() * 800 + 800);
            a.metrics.pubToSub(null, a.metrics.nodes.node(0, "node-1"), -1, fast);
            b.metrics.pubToSub(null, b.metrics.nodes.node(0, "node-1"), -1, Math.max(1, slow));
            all.recordValue(fast);
            all.recordValue(Math.max(1, slow));
        }

        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        LatencyStats merged = report.latency.get("pubToSub");
        assertThat(merged.count).isEqualTo(40_000);
        for (double p : LatencyStats.PERCENTILES) {
            assertThat(merged.percentile(p)).as("p" + p).isEqualTo(all.getValueAtPercentile(p));
        }
        assertThat(merged.max).isEqualTo(all.getMaxValue());
        assertThat(merged.mean).isEqualTo(all.getMean());
    }

    @Test
    void merge_figuresFromTheIntendedTime_comeFromThePacedEnginesOnly_andWithoutAnyTheReportSaysSo() {
        Engine paced = new Engine("paced", 1);
        Engine unpaced = new Engine("unpaced", 2);
        SamplerMetrics publisher = new SamplerMetrics("MQTT Publish");
        Histogram intended = LatencyRecorder.newHistogram();
        for (int i = 0; i < 1_000; i++) {
            long lag = i * 2_000L;
            paced.metrics.nodes.node(0, "node-1");
            paced.metrics.pubToSubRecorder(null, paced.metrics.nodes.get(0), -1).record(500, lag);
            paced.metrics.acknowledged(publisher, null, 400, lag);
            paced.metrics.sentAfterIntended(publisher, lag);
            intended.recordValue(500 + lag);
            unpaced.metrics.pubToSub(null, unpaced.metrics.nodes.node(0, "node-1"), -1, 700);
            unpaced.metrics.acknowledged(publisher, null, 600);
        }

        MergedReport both = MergedReport.merge(List.of(paced.summary(), unpaced.summary()), List.of());
        MergedReport neither = MergedReport.merge(List.of(unpaced.summary()), List.of());

        assertThat(both.latency.get("pubToSub").count).isEqualTo(2_000);
        LatencyStats fromIntended = both.latencyOf(Latency.PUB_TO_SUB_INTENDED);
        assertThat(fromIntended.count).as("only the paced engine's messages").isEqualTo(1_000);
        assertThat(fromIntended.percentile(99)).isEqualTo(intended.getValueAtPercentile(99));
        assertThat(both.latencyOf(Latency.SCHEDULE_LAG).count).isEqualTo(1_000);
        assertThat(both.latencyOf(Latency.PUBLISH_INTENDED).max).isGreaterThanOrEqualTo(400 + 999 * 2_000L);
        assertThat(ReportText.table(both)).contains(Latency.PUB_TO_SUB_INTENDED.title()).doesNotContain(
                Latency.NO_INTENDED_TIME);
        assertThat(neither.showsLatency("pubToSubIntended")).isFalse();
        assertThat(neither.lacksIntendedTime("pubToSubIntended")).isTrue();
        assertThat(ReportText.table(neither)).contains(Latency.NO_INTENDED_TIME);
        assertThat(ReportText.markdown(neither)).contains("| " + Latency.SCHEDULE_LAG.title() + " | "
                + Latency.NO_INTENDED_TIME);
        assertThat(neither.figures().latencyMicros).containsKey("pubToSub").doesNotContainKey("pubToSubIntended");
    }

    @Test
    void merge_enginesWritingDifferentMeasurementHeaders_isIncompleteAndNamesThem() {
        EngineSummary current = SummaryJson.readEngineSummary(new Engine("current", 1).summary());
        current.engine.put(PayloadHeader.LAYOUT_FACT, Integer.toString(PayloadHeader.LAYOUT));
        EngineSummary older = SummaryJson.readEngineSummary(new Engine("older", 2).summary());

        MergedReport report = MergedReport.of(List.of(current, older), List.of());

        assertThat(report.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(report.verdictLine()).contains("different measurement headers").contains("1=[older]")
                .contains(PayloadHeader.LAYOUT + "=[current]").contains("same plugin version");
    }

    @Test
    void merge_latencyBySubscriberSampler_keepsAProbeApartFromTheFloodOnEveryEngine() {
        Engine a = new Engine("a", 1);
        Engine b = new Engine("b", 2);
        Histogram allProbe = LatencyRecorder.newHistogram();
        Histogram allFlood = LatencyRecorder.newHistogram();
        Random random = new Random(7);
        for (Engine e : List.of(a, b)) {
            Histogram probe = e.bySampler.computeIfAbsent("MQTT Subscribe probe", k -> LatencyRecorder.newHistogram());
            Histogram flood = e.bySampler.computeIfAbsent("MQTT Subscribe flood", k -> LatencyRecorder.newHistogram());
            for (int i = 0; i < 5_000; i++) {
                long fast = 300 + random.nextInt(200);
                long queued = 20_000 + random.nextInt(30_000);
                probe.recordValue(fast);
                allProbe.recordValue(fast);
                flood.recordValue(queued);
                allFlood.recordValue(queued);
            }
        }

        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        LatencyStats probe = report.pubToSubBySampler.get("MQTT Subscribe probe");
        LatencyStats flood = report.pubToSubBySampler.get("MQTT Subscribe flood");
        assertThat(probe.count).isEqualTo(10_000);
        assertThat(flood.count).isEqualTo(10_000);
        for (double p : LatencyStats.PERCENTILES) {
            assertThat(probe.percentile(p)).as("probe p" + p).isEqualTo(allProbe.getValueAtPercentile(p));
            assertThat(flood.percentile(p)).as("flood p" + p).isEqualTo(allFlood.getValueAtPercentile(p));
        }
        assertThat(ReportText.markdown(report)).contains("| pub-to-sub, MQTT Subscribe probe | 10000 |");
        assertThat(ReportText.table(report)).contains("to MQTT Subscribe probe");
        assertThat(report.toJson()).contains("\"pubToSubBySampler\"");
    }

    @Test
    void merge_eachCountAsItsDeclarationSays_andTheLedgerCountsFromTheMergedLedgers() {
        EngineSummary a = engineWithEveryCount("a", 1, 10);
        EngineSummary b = engineWithEveryCount("b", 2, 1);

        MergedReport report = MergedReport.of(List.of(a, b), List.of());

        for (Count c : Count.SUMMARY) {
            long x = a.count(c);
            long y = b.count(c);
            long merged;
            switch (c.merge()) {
                case MIN:
                    merged = Math.min(x, y);
                    break;
                case MAX:
                    merged = Math.max(x, y);
                    break;
                case FIRST:
                    merged = x == 0 ? y : y == 0 ? x : Math.min(x, y);
                    break;
                case FROM_LEDGERS:
                    // Both ledgers are empty: whatever the engines said, nothing was owed or delivered.
                    merged = 0;
                    break;
                default:
                    merged = x + y;
                    break;
            }
            assertThat(report.count(c)).as(c.key() + " " + c.merge()).isEqualTo(merged);
        }
        for (Count c : NodeFigures.COUNTS) {
            assertThat(report.nodes.get("node-1").count(c)).as(c.key()).isEqualTo(a.nodes.get(0).count(c) + b.nodes.get(0).count(c));
        }
    }

    /** An engine whose every count (and its node's) has a value of its own, the lowest for {@code scale} 1. */
    private static EngineSummary engineWithEveryCount(String id, int number, long scale) {
        EngineSummary s = new EngineSummary();
        s.runId = "run-1";
        s.engineId = id;
        s.engineNumber = number;
        NodeFigures node = new NodeFigures();
        node.name = "node-1";
        for (Count c : Count.values()) {
            long value = scale * (c.ordinal() + 1) + (scale == 1 ? 100 : 0);
            if (c.inSummary()) {
                s.counts.put(c.key(), value);
            }
            if (NodeFigures.COUNTS.contains(c)) {
                node.readCount(c.key(), value);
            }
        }
        s.nodes.add(node);
        return s;
    }

    @Test
    void merge_engineSummaryMissing_isIncompleteNotNoLoss() {
        Engine a = new Engine("a", 1);
        PublishStream s = a.publish("t/1", 5);
        a.receive(a.ledger.clientScope("sub", "t/1"), s, 1, 5);

        MergedReport report = MergedReport.merge(List.of(a.summary()), List.of("engine 2 of 2"));

        assertThat(report.lost()).isZero();
        assertThat(report.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(report.verdictLine()).contains("engine 2 of 2").contains("MQTT Run End");
        assertThat(ReportText.table(report)).contains("(no summary received)");
    }

    @Test
    void merge_twoEnginesWithTheSameEngineNumber_isIncompleteAndSaysWhy() {
        Engine a = new Engine("a", 7);
        Engine b = new Engine("b", 7);

        MergedReport report = MergedReport.merge(List.of(a.summary(), b.summary()), List.of());

        assertThat(report.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(report.verdictLine()).contains("share mqttload.engineNumber 7");
    }

    @Test
    void toMarkdownAndJson_carryTheFiguresOfTheTable() {
        Engine a = new Engine("a", 1);
        PublishStream s = a.publish("t/1", 20);
        a.receive(a.ledger.clientScope("sub", "t/1"), s, 1, 20, 4);
        a.metrics.pubToSub(null, a.metrics.nodes.node(0, "node-1"), -1, 1500);

        MergedReport report = MergedReport.merge(List.of(a.summary()), List.of());

        assertThat(ReportText.markdown(report)).contains("**Verdict:** LOSS: 1 of 20 expected deliveries missing")
                .contains("| **all** | 2.0 | 1.9 |");
        MergedReport again = MergedReport.merge(List.of(a.summary()), List.of());
        assertThat(again.toJson()).isEqualTo(report.toJson()).contains("\"lost\": 1").contains("\"verdict\": \"LOSS\"");
    }
}
