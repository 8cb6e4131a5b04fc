package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;
import io.mqttload.testsupport.memory.Which;

/**
 * QoS 1 may arrive twice, QoS 2 may not: on the in-memory broker, whose duplicate fault hands chosen deliveries over
 * twice, a second copy of a message delivered at QoS 2 is a broken promise (counted apart, the verdict FAILED and its
 * words say why), while a second copy at QoS 1 is a duplicate the protocol allows (counted, the verdict passes).
 */
class InMemoryQos2DuplicateTest {
    private static final int MESSAGES = 10;

    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    /** One subscriber at {@code subscribeQos} on dup/#, MESSAGES published at QoS 1 on dup/1 and at QoS 2 on dup/2. */
    private RunSummary run(int subscribeQos) {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        ConnectionSettings settings = MemoryEngine.settings().build();
        engine.connect("connect sub", "sub", 1, settings, 1, "sub", ReconnectPolicy.none());
        assertThat(engine.subscribe("subscribe", "sub", 1, "dup/#", subscribeQos).ok).isTrue();
        engine.connect("connect pub", "pub", 1, settings, 1, "pub", ReconnectPolicy.none());
        assertThat(engine.publish("publish 1", "pub", 1, "dup/1", 1, MESSAGES, true).ok).isTrue();
        assertThat(engine.publish("publish 2", "pub", 1, "dup/2", 2, MESSAGES, true).ok).isTrue();
        engine.awaitCount(Count.RECEIVED, 2 * MESSAGES + 5);
        engine.disconnect("disconnect pub", "pub", 1);
        engine.disconnect("disconnect sub", "sub", 1);
        return engine.shutdown();
    }

    @Test
    void aQos2MessageDeliveredTwice_isABrokenPromise_countedApart_andTheVerdictSaysSo() {
        broker.duplicate(Which.next(2), "dup/1").duplicate(Which.next(3), "dup/2");

        RunSummary summary = run(2);

        assertThat(broker.count(InMemoryBroker.Count.DUPLICATED)).isEqualTo(5);
        assertThat(summary.count(Count.DUPLICATES)).as(summary.toTable()).isEqualTo(5);
        assertThat(summary.count(Count.QOS2_DUPLICATES)).isEqualTo(3);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(summary.verdictLine()).contains("the broker delivered 3 QoS 2 message(s) twice (qos2Duplicates)");

        // The merged report reads the same count from the summary's JSON, and judges it alike.
        EngineSummary read = SummaryJson.readEngineSummary(summary.toJson());
        MergedReport merged = MergedReport.of(java.util.List.of(read), java.util.List.of());
        assertThat(merged.count(Count.QOS2_DUPLICATES)).isEqualTo(3);
        assertThat(merged.verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void qos2PublishesDeliveredTwiceToAQos1Subscription_areAllowedDuplicates_andTheRunHasNoLoss() {
        // The subscription's QoS caps the delivery's: at QoS 1 the broker promised at least once, no more.
        broker.duplicate(Which.next(2), "dup/1").duplicate(Which.next(3), "dup/2");

        RunSummary summary = run(1);

        assertThat(summary.count(Count.DUPLICATES)).as(summary.toTable()).isEqualTo(5);
        assertThat(summary.count(Count.QOS2_DUPLICATES)).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.NO_LOSS);
        assertThat(summary.verdictLine()).doesNotContain("qos2Duplicates");
    }
}
