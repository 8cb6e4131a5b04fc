package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;
import io.mqttload.delivery.ReceiverScope;
import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.Latency;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.report.ReportText;

/**
 * The engine summary and the run report survive the trip through their JSON mapping unchanged: what an engine sends
 * is what the controller merges, field for field, histogram for histogram, ledger range for ledger range.
 */
class SummaryJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An engine that published 50 messages (3 failed, 47 acknowledged), received them with gaps, and failed a connect. */
    private static RunSummary engine() {
        EngineMetrics metrics = new EngineMetrics();
        DeliveryLedger ledger = new DeliveryLedger(4);
        PublishStream stream = ledger.newStream("plant/1/temp");
        ReceiverScope scope = ledger.clientScope("sub-1", "plant/#");
        for (int i = 0; i < 50; i++) {
            int seq = stream.nextSequence();
            stream.sent();
            if (seq % 17 == 0) {
                stream.failed(seq);
            } else {
                stream.acknowledged();
                metrics.count(Count.ACKNOWLEDGED);
            }
            if (seq % 10 != 3) {
                scope.track(stream.id(), seq, metrics);
                metrics.count(Count.RECEIVED);
                metrics.pubToSub(null, metrics.nodes.node(0, "node-1"), -1, 1_000 + seq * 37);
            }
        }
        metrics.failed(FailureTally.Kind.CONNECT, new SamplerMetrics("Connect"), "CONNACK refused: NOT_AUTHORIZED (0x87)");
        metrics.takeReceivedInterval(true);
        metrics.latency.takeInterval(Latency.PUBLISH, true);
        metrics.latency.takeInterval(Latency.CONNECT, true);
        RunSummary summary = new RunSummary("run-7", "engine-4", 4, "round-trip", 1_000, 21_000, 2_000, 18.0, metrics,
                ledger.delivery(), 47, 45, new WindowCounts(46, 44, 1, 1, 48), new long[] {1, 45, 45}, ledger.book(), 0);
        summary.engineFacts(Map.of("java", "17"), Map.of("mqtt.port", "1883"));
        return summary;
    }

    @Test
    void engineSummary_readBack_writesTheSameJson_andMergesToTheEnginesOwnFigures() {
        RunSummary summary = engine();
        String json = summary.toJson();

        EngineSummary read = SummaryJson.readEngineSummary(json);

        assertThat(SummaryJson.write(read)).isEqualTo(json);
        assertThat(read.formatVersion).isEqualTo(SummaryJson.FORMAT_VERSION);
        assertThat(read.latencyMicros.get("pubToSub").histogram()).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).histogram());
        assertThat(read.failures).singleElement().satisfies(r -> {
            assertThat(r.kind).isEqualTo(FailureTally.Kind.CONNECT);
            assertThat(r.reason).isEqualTo("CONNACK refused: NOT_AUTHORIZED (0x87)");
            assertThat(r.count).isEqualTo(1);
        });
        MergedReport merged = MergedReport.of(List.of(read), List.of());
        assertThat(List.of(merged.expected, merged.receivedOfExpected, merged.count(Count.DELIVERED_UNACKNOWLEDGED)))
                .containsExactly(summary.delivery.expected, summary.delivery.receivedOfExpected,
                        summary.delivery.deliveredUnacknowledged);
        assertThat(merged.lost()).isEqualTo(summary.delivery.lost()).isPositive();
        assertThat(merged.latency.get("pubToSub").percentile(99.0)).isEqualTo(summary.latencyOf(Latency.PUB_TO_SUB).percentile(99.0));
        assertThat(merged.verdict()).isEqualTo(summary.verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void report_readBack_writesTheSameJson() {
        MergedReport report = MergedReport.of(List.of(engine().figures()), List.of("engine 2 of 2"));
        String json = report.toJson();

        ReportFigures read = SummaryJson.readReport(json);

        assertThat(SummaryJson.write(read)).isEqualTo(json);
        assertThat(read.verdict).isEqualTo(Verdict.INCOMPLETE);
        assertThat(read.missingEngines).containsExactly("engine 2 of 2");
        assertThat(read.count(Count.LOST)).isEqualTo(report.lost());
    }

    /** Written by the plugin before counts were declared in one place: every key as it was, every value distinct. */
    private static String savedFormat3Summary() throws IOException {
        try (InputStream in = SummaryJsonTest.class.getResourceAsStream("engine-summary-format-3.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void savedFormat3Summary_readsBackWithTheSameCountsUnderTheSameKeys() throws IOException {
        String saved = savedFormat3Summary();
        JsonNode savedCounts = JSON.readTree(saved).path("counts");

        EngineSummary read = SummaryJson.readEngineSummary(saved);

        assertThat(JSON.readTree(SummaryJson.write(read))).as("the same JSON, field order aside").isEqualTo(JSON.readTree(saved));
        List<String> savedKeys = new ArrayList<>();
        savedCounts.fieldNames().forEachRemaining(savedKeys::add);
        // The summary carries the first three since counts were declared once, the others since issue 27 (failed
        // samples, stopped runs, unserved shared groups, lost subscriber sessions), then the window's own counts, then
        // the Prometheus export's, then the deliveries owed to nobody, the drain's and the reconnects given up (format 5),
        // then what was published before a subscription and what is undecided around one (format 6), then the connect
        // attempts, retries and "later" refusals of the reconnect policy, then the lapses of lost sessions and the loss
        // of kept ones (new counts a reader of format 7 ignores), then the declared outages' recovery, then the session
        // takeovers, then the offline buffer's, then the QoS 2 duplicates, then the publishes failed in a declared
        // outage; a saved summary lacks them.
        Set<Count> added = EnumSet.of(Count.DISCONNECTS, Count.GAPS, Count.GAPS_FILLED, Count.SAMPLES_FAILED,
                Count.STOPPED_AT_MILLIS, Count.SHARED_GROUPS_UNSERVED, Count.SUBSCRIBER_SESSIONS_LOST,
                Count.ACKNOWLEDGED_IN_WINDOW, Count.RECEIVED_IN_WINDOW, Count.IN_FLIGHT_AT_WINDOW_START,
                Count.IN_FLIGHT_AT_WINDOW_END, Count.SCHEDULED_IN_WINDOW, Count.MACHINE_SATURATED_SECONDS,
                Count.PROMETHEUS_SCRAPES, Count.PROMETHEUS_PUSHES_FAILED, Count.PROMETHEUS_FINAL_MISSED,
                Count.UNSERVED_SHARED_DELIVERIES, Count.RECEIVED_IN_DRAIN, Count.DRAIN_MILLIS, Count.RECONNECTS_GIVEN_UP,
                Count.RECONNECT_ATTEMPTS_GIVEN_UP, Count.RECONNECT_GIVE_UP_FIRST_MILLIS, Count.RECONNECT_GIVE_UP_LAST_MILLIS,
                Count.PUBLISHED_BEFORE_SUBSCRIPTION, Count.UNDECIDED_AROUND_SUBSCRIPTION, Count.CONNECT_ATTEMPTS,
                Count.CONNECT_RETRIES, Count.RECONNECT_ATTEMPTS_MADE, Count.CONNECTS_GIVEN_UP,
                Count.CONNACK_SERVER_UNAVAILABLE, Count.CONNACK_SERVER_BUSY, Count.CONNACK_QUOTA_EXCEEDED,
                Count.CONNACK_CONNECTION_RATE_EXCEEDED, Count.PUBLISHED_WHILE_SESSION_LOST,
                Count.SUBSCRIBER_LAPSES_RECORDED, Count.LOST_FROM_KEPT_SESSIONS, Count.OUTAGES_DECLARED,
                Count.OUTAGE_CLIENTS, Count.OUTAGE_CLIENTS_BACK, Count.OUTAGE_START_MILLIS, Count.OUTAGE_END_MILLIS,
                Count.RECOVERY_P50_MILLIS, Count.RECOVERY_P90_MILLIS, Count.RECOVERY_P99_MILLIS,
                Count.RECOVERY_P100_MILLIS, Count.RECOVERY_BOUND_MILLIS, Count.RECOVERY_ATTEMPTS_MEDIAN,
                Count.RECOVERY_ATTEMPTS_MAX, Count.OUTAGE_SESSIONS_KEPT, Count.OUTAGE_SESSIONS_LOST,
                Count.BACKLOG_RECEIVED, Count.BACKLOG_DRAIN_MILLIS, Count.SESSIONS_TAKEN_OVER,
                Count.TAKEOVERS_INFERRED, Count.CLIENTS_TAKEN_OVER, Count.CLIENTS_TAKEN_OVER_AGAIN,
                Count.RESUBSCRIBES_CUT_SHORT, Count.TAKEOVERS_PER_CLIENT_ID_MAX,
                Count.PUBLISH_BUFFERED, Count.PUBLISHED_FROM_BUFFER, Count.PUBLISH_BUFFER_DROPPED, Count.QOS2_DUPLICATES,
                Count.PUBLISH_FAILED_IN_OUTAGE);
        assertThat(savedKeys).containsExactlyElementsOf(Count.SUMMARY.stream().filter(c -> !added.contains(c))
                .map(Count::key).collect(Collectors.toList()));
        for (String key : savedKeys) {
            assertThat(read.count(Count.of(key))).as(key).isEqualTo(savedCounts.path(key).asLong());
        }
        JsonNode savedNode = JSON.readTree(saved).path("nodes").path(0);
        assertThat(read.nodes).singleElement().satisfies(n -> {
            for (Count c : NodeFigures.COUNTS) {
                assertThat(n.count(c)).as(c.key()).isEqualTo(savedNode.path(c.key()).asLong()).isPositive();
            }
        });
        MergedReport merged = MergedReport.of(List.of(read), List.of());
        for (String key : savedKeys) {
            Count c = Count.of(key);
            if (c.merge() != Count.Merge.FROM_LEDGERS) {
                assertThat(merged.count(c)).as(key).isEqualTo(read.count(c));
            }
        }
        assertThat(merged.count(Count.LOST)).isEqualTo(read.count(Count.LOST));
        assertThat(merged.verdict()).isEqualTo(read.verdict);
    }

    /**
     * A summary as format 4 wrote it: no drain figures, and a receive rate that counted the drain in (everything
     * received after the warm-up over the window).
     */
    private static String format4Summary() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) JSON
                .readTree(engine().toJson());
        tree.put("formatVersion", 4);
        tree.remove("drainRate");
        tree.put("receiveRate", 45 / 18.0);
        com.fasterxml.jackson.databind.node.ObjectNode counts = (com.fasterxml.jackson.databind.node.ObjectNode) tree
                .path("counts");
        for (Count c : List.of(Count.RECEIVED_IN_DRAIN, Count.DRAIN_MILLIS, Count.RECONNECTS_GIVEN_UP,
                Count.RECONNECT_ATTEMPTS_GIVEN_UP, Count.RECONNECT_GIVE_UP_FIRST_MILLIS,
                Count.RECONNECT_GIVE_UP_LAST_MILLIS)) {
            counts.remove(c.key());
        }
        return JSON.writeValueAsString(tree);
    }

    @Test
    void format4Summary_isRead_itsRatesFromItsWindowCounts_andItsDrainNotRecorded() throws IOException {
        String saved = format4Summary();

        EngineSummary read = SummaryJson.readEngineSummary(saved);

        assertThat(JSON.readTree(SummaryJson.write(read))).as("written back as read").isEqualTo(JSON.readTree(saved));
        assertThat(read.receiveRate).as("the old figure, drain included").isEqualTo(45 / 18.0);
        Rates rates = Rates.of(read);
        assertThat(rates.receive).isEqualTo(44 / 18.0);
        assertThat(rates.publish).isEqualTo(46 / 18.0);
        assertThat(rates.drainKnown).isFalse();
        MergedReport merged = MergedReport.of(List.of(read), List.of());
        assertThat(merged.receiveRate).isEqualTo(44 / 18.0);
        assertThat(merged.figures().drainRate).isNull();
        assertThat(ReportText.table(merged)).contains("drain: not recorded (a summary written before format 5)");
    }

    @Test
    void format6Summary_isRead_andWrittenBackAsItWas_itsRatesFromItsWindowCounts() throws IOException {
        // Format 6 cut the window's counts at the run end's start (after the plan's own Disconnect drains): the same
        // fields, another meaning, so it is read as written and says which format it is.
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) JSON
                .readTree(engine().toJson());
        tree.put("formatVersion", SummaryJson.FORMAT_WITH_DISCONNECT_DRAIN_IN_WINDOW);
        String saved = JSON.writeValueAsString(tree);

        EngineSummary read = SummaryJson.readEngineSummary(saved);

        assertThat(read.formatVersion).isEqualTo(6);
        assertThat(JSON.readTree(SummaryJson.write(read))).as("written back as read").isEqualTo(JSON.readTree(saved));
        Rates rates = Rates.of(read);
        assertThat(rates.receive).isEqualTo(read.count(Count.RECEIVED_IN_WINDOW) / read.measuredSeconds);
        assertThat(rates.drainReceived).isEqualTo(read.count(Count.RECEIVED_IN_DRAIN));
        assertThat(rates.drainKnown).isTrue();
    }

    @Test
    void summaryOfAnotherFormat_isRefusedWithBothVersionsNamed() {
        String old = "{\"runId\": \"r\", \"engineId\": \"engine-9\", \"counts\": {}}";

        assertThatThrownBy(() -> SummaryJson.readEngineSummary(old)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format 1").hasMessageContaining("engine engine-9")
                .hasMessageContaining("reads format " + SummaryJson.FORMAT_VERSION)
                .hasMessageContaining("same plugin version");
    }

    @Test
    void notJson_isRefusedWithTheParsersReason() {
        assertThatThrownBy(() -> SummaryJson.readEngineSummary("{\"runId\": ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not an MQTT engine summary (JSON)");
    }
}
