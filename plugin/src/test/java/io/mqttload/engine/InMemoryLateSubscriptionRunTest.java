package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.ClockReport;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.mqttload.testsupport.memory.Which;

/**
 * Two engines run the same plan without a rendezvous, the second started late: engine 1 publishes on t/1/x before
 * engine 2's subscriber to t/# exists. Those messages were owed to nobody there; the merged report must not book them
 * as lost, and a message the broker drops after both subscriptions took effect is still a loss.
 */
class InMemoryLateSubscriptionRunTest {
    /**
     * Between the sends before the subscription, the subscription and the sends after it: the clocks' bound and the
     * send-time index resolve time, not order, so the test lets the clock move on by more than both.
     */
    private static final long GAP_MICROS = 20_000;

    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    private MemoryEngine engine(int number) {
        return new MemoryEngine(broker, results, Map.of("mqttload.engineId", "engine-" + number,
                "mqttload.engineNumber", Integer.toString(number), "mqttload.engines", "2",
                "mqttload.clockSamples", "4", "mqttload.clockTimeoutMs", "2000"));
    }

    private MergedReport run(boolean dropOneAfterTheSubscriptions) {
        ConnectionSettings settings = MemoryEngine.settings().build();
        MemoryEngine one = engine(1);
        MemoryEngine two = engine(2);
        one.connect("connect", "g", 1, settings, 1, "e1-{client}", ReconnectPolicy.none());
        one.subscribe("subscribe", "g", 1, "t/#", 1);
        one.publish("publish", "g", 1, "t/1/x", 1, 10, true);
        one.awaitCount(Count.RECEIVED, 10);
        MemoryEngine.letTheClockMoveOn(GAP_MICROS);
        two.connect("connect", "g", 1, settings, 1, "e2-{client}", ReconnectPolicy.none());
        two.subscribe("subscribe", "g", 1, "t/#", 1);
        MemoryEngine.letTheClockMoveOn(GAP_MICROS);
        int dropped = 0;
        if (dropOneAfterTheSubscriptions) {
            broker.drop(Which.all(), "t/1/x");
            one.publish("publish", "g", 1, "t/1/x", 1, 1, true);
            broker.clearFaults();
            dropped = 1;
        }
        one.publish("publish", "g", 1, "t/1/x", 1, 10, true);
        two.publish("publish", "g", 1, "t/2/x", 1, 10, true);
        one.awaitCount(Count.RECEIVED, 30);
        two.awaitCount(Count.RECEIVED, 20);
        RunSummary measured = two.shutdown();
        RunSummary reference = one.shutdown();
        MergedReport report = MergedReport.merge(List.of(reference.toJson(), measured.toJson()), List.of());
        ClockReport.Row clock = report.clocks.engines.get(1);
        assertThat(clock.measured()).as(report.verdictLine()).isTrue();
        assertThat(clock.boundMicros).as("the clocks resolve the gaps the test leaves").isLessThan(GAP_MICROS / 2);
        // Each engine's own row judges its own streams only, by the same rule: each subscribed before its own publisher's
        // first message, so nothing there is owed to nobody, and engine 1's row loses only what was dropped.
        for (RunSummary s : List.of(reference, measured)) {
            assertThat(SummaryJson.readEngineSummary(s.toJson()).ledger.streamCount()).isEqualTo(1);
            assertThat(s.count(Count.PUBLISHED_BEFORE_SUBSCRIPTION)).isZero();
            assertThat(s.count(Count.LOST)).as(s.toTable()).isEqualTo(s == reference ? dropped : 0);
        }
        return report;
    }

    @Test
    void messagesPublishedBeforeTheOtherEnginesSubscription_areOwedToNobody_notLost() {
        MergedReport report = run(false);

        assertThat(report.count(Count.PUBLISHED_BEFORE_SUBSCRIPTION)).as(report.verdictLine())
                .as("engine 1's first 10 messages, published before engine 2's subscriber existed").isEqualTo(10);
        assertThat(report.count(Count.UNDECIDED_AROUND_SUBSCRIPTION)).as(report.verdictLine()).isZero();
        // Engine 1's subscriber: its own 20 and engine 2's 10; engine 2's: engine 1's last 10 and its own 10.
        assertThat(report.expected).isEqualTo(50);
        assertThat(report.lost()).isZero();
        assertThat(report.verdict()).as(report.verdictLine()).isEqualTo(Verdict.NO_LOSS);
        assertThat(report.verdictLine()).contains("10 deliveries owed to nobody (publishedBeforeSubscription)");
        assertThat(report.lossBySampler.get("subscribe")).startsWith(50, 50);
    }

    @Test
    void aMessageDroppedAfterBothSubscriptionsTookEffect_isStillLost() {
        MergedReport report = run(true);

        assertThat(report.count(Count.PUBLISHED_BEFORE_SUBSCRIPTION)).as(report.verdictLine()).isEqualTo(10);
        assertThat(report.expected).as("the dropped message owed to both subscribers").isEqualTo(52);
        assertThat(report.lost()).isEqualTo(2);
        assertThat(report.verdict()).as(report.verdictLine()).isEqualTo(Verdict.LOSS);
    }
}
