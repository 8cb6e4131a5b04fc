package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.common.SharedSubscription;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Latency;

/**
 * Summaries of format 4 carry the ledger compact; the merged report of several engines is the same whether their
 * summaries travel in format 4, in format 3, or not at all, and a saved format-3 summary still merges as it did.
 */
class CompactLedgerSummaryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An engine's run as the runtime books it, with no broker: its counters follow its ledger. */
    private static final class Run {
        final EngineMetrics metrics = new EngineMetrics();
        final DeliveryLedger ledger;
        final int number;

        Run(int number) {
            this.number = number;
            this.ledger = new DeliveryLedger(number);
        }

        PublishStream publish(String topic, String publisher, int messages, int failEvery) {
            PublishStream s = ledger.newStream(topic, publisher);
            for (int i = 0; i < messages; i++) {
                int seq = s.nextSequence();
                s.sent();
                if (failEvery > 0 && seq % failEvery == 0) {
                    s.failed(seq);
                } else {
                    s.acknowledged();
                    metrics.count(Count.ACKNOWLEDGED);
                }
            }
            return s;
        }

        void receive(ReceiverScope scope, PublishStream stream, int... sequences) {
            for (int seq : sequences) {
                metrics.count(Count.RECEIVED);
                scope.track(stream.id(), seq, metrics);
            }
        }

        void receiveAll(ReceiverScope scope, PublishStream stream, int last, int skipEvery) {
            for (int seq = 1; seq <= last; seq++) {
                if (skipEvery == 0 || seq % skipEvery != 0) {
                    receive(scope, stream, seq);
                }
            }
        }

        EngineSummary figures() {
            metrics.takeReceivedInterval(true);
            metrics.latency.takeInterval(Latency.PUBLISH, true);
            metrics.latency.takeInterval(Latency.CONNECT, true);
            return new RunSummary("run-30", "engine-" + number, number, "compact-ledger", 1_000, 11_000, 0, 10.0, metrics,
                    ledger.delivery(), metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED), WindowCounts.NONE,
                    new long[] {0, 0, 0}, ledger.book(), 0).figures();
        }
    }

    /** Three engines: publishers and subscribers on different ones, a shared group across two, no local, gaps. */
    private static List<EngineSummary> threeEngines() {
        Run a = new Run(1);
        Run b = new Run(2);
        Run c = new Run(3);
        List<PublishStream> fromA = new ArrayList<>();
        for (int device = 0; device < 40; device++) {
            fromA.add(a.publish(String.format(java.util.Locale.ROOT, "plant/%03d/temp", device), "pub-a-" + device, 50,
                    device == 7 ? 9 : 0));
        }
        PublishStream jobs = b.publish("jobs/1", "pub-b-0", 30, 0);
        PublishStream own = c.publish("chat/room/1", "chatter-1", 20, 0);
        ReceiverScope lossy = b.ledger.clientScope("sub-b-1", "plant/#");
        lossy.labelIfUnset("Subscribe plant");
        lossy.nodeOf("node-2");
        for (int i = 0; i < fromA.size(); i++) {
            b.receiveAll(lossy, fromA.get(i), 50, i % 5 == 0 ? 11 : 0);
        }
        b.receive(lossy, fromA.get(3), 4, 4, 2);
        ReceiverScope onA = a.ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/workers/jobs/#"));
        ReceiverScope onC = c.ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/workers/jobs/#"));
        onA.labelIfUnset("Subscribe workers");
        onA.granted("MQTT_5_0");
        for (int seq = 1; seq <= 30; seq++) {
            if (seq % 2 == 0) {
                a.receive(onA, jobs, seq);
            } else if (seq != 29) {
                c.receive(onC, jobs, seq);
            }
        }
        ReceiverScope chat = c.ledger.clientScope("chatter-1", "chat/#", true);
        chat.labelIfUnset("Subscribe chat");
        c.receive(chat, own, 1, 2);
        ReceiverScope listener = c.ledger.clientScope("listener", "chat/#");
        c.receiveAll(listener, own, 20, 0);
        return List.of(a.figures(), b.figures(), c.figures());
    }

    private static List<String> written(List<EngineSummary> summaries, int formatVersion) {
        List<String> json = new ArrayList<>();
        for (EngineSummary s : summaries) {
            s.formatVersion = formatVersion;
            json.add(SummaryJson.write(s));
        }
        return json;
    }

    @Test
    void mergedReport_isTheSameFromFormat4_fromFormat3_andFromTheSummariesThemselves() {
        List<EngineSummary> engines = threeEngines();
        String direct = MergedReport.of(engines, List.of()).toJson();
        List<String> format3 = written(engines, SummaryJson.FORMAT_WITH_LEDGER_LISTS);
        List<String> format4 = written(engines, SummaryJson.FORMAT_VERSION);

        MergedReport fromFormat4 = MergedReport.merge(format4, List.of());

        assertThat(fromFormat4.toJson()).isEqualTo(direct).isEqualTo(MergedReport.merge(format3, List.of()).toJson());
        assertThat(fromFormat4.lost()).isPositive();
        assertThat(fromFormat4.count(Count.DELIVERED_UNACKNOWLEDGED)).isPositive();
        assertThat(fromFormat4.count(Count.DELIVERED_DESPITE_NO_LOCAL)).isEqualTo(2);
        assertThat(fromFormat4.lossBySampler).containsKeys("Subscribe plant", "Subscribe workers");
        for (String json : format4) {
            assertThat(SummaryJson.write(SummaryJson.readEngineSummary(json))).as("written back as read").isEqualTo(json);
            assertThat(json).contains("\"ledger\":{\"streamCount\":").doesNotContain("\"streams\":[");
        }
    }

    @Test
    void savedFormat3Summary_mergesAsItDid_whenRewrittenInFormat4() throws IOException {
        String saved;
        try (InputStream in = CompactLedgerSummaryTest.class.getResourceAsStream("engine-summary-format-3.json")) {
            saved = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        EngineSummary read = SummaryJson.readEngineSummary(saved);
        String asRead = MergedReport.of(List.of(read), List.of()).toJson();

        read.formatVersion = SummaryJson.FORMAT_VERSION;
        String rewritten = SummaryJson.write(read);

        assertThat(MergedReport.merge(List.of(rewritten), List.of()).toJson()).isEqualTo(asRead)
                .isEqualTo(MergedReport.merge(List.of(saved), List.of()).toJson());
        assertThat(MergedReport.of(List.of(read), List.of()).lost()).isEqualTo(read.count(Count.LOST)).isPositive();
    }

    @Test
    void ledgerWhoseCountsDisagreeWithItsData_isRefused() throws IOException {
        String json = SummaryJson.write(threeEngines().get(1));
        JsonNode tree = JSON.readTree(json);
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.path("ledger")).put("streamCount", 3);

        assertThatThrownBy(() -> SummaryJson.readEngineSummary(tree.toString())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not an MQTT engine summary").hasMessageContaining("counts say 3");
    }

    @Test
    void summaryOfALaterFormat_isRefusedNamingTheFormatsThisPluginReads() {
        String later = "{\"formatVersion\": 8, \"engineId\": \"engine-2\"}";

        assertThatThrownBy(() -> SummaryJson.readEngineSummary(later)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format 8").hasMessageContaining("reads format 7 (and the earlier 6, 5, 4 and 3)")
                .hasMessageContaining("same plugin version");
    }
}
