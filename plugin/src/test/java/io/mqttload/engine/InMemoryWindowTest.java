package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.measure.Count;
import io.mqttload.measure.Interval;
import io.mqttload.report.ReportText;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSetup;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;
import io.mqttload.testsupport.memory.InMemoryBroker;
import io.mqttload.testsupport.memory.MemoryEngine;

/**
 * What the window holds and what the drain holds, on the in-memory broker: messages that arrive after production
 * are the drain's, beside the rates and never in them; and clients that gave up reconnecting, and clients that tried
 * to connect, are counted exactly.
 */
class InMemoryWindowTest {
    @TempDir
    Path results;

    @RegisterExtension
    final InMemoryBroker broker = new InMemoryBroker();

    /**
     * An engine whose persistent subscriber received {@code inWindow} messages during production and is kept away
     * (every reconnect refused) while the last Publish sample sends {@code afterwards} more, which it gets only once
     * production is over and the run end drains: the broker's backlog.
     */
    private RunSummary runWithBacklog(String engineId, int number, int inWindow, int afterwards) {
        return runWithBacklog(engineId, number, inWindow, afterwards, false);
    }

    /**
     * As above; when {@code disconnectDrains}, the plan's own MQTT Disconnect of the subscriber drains the backlog
     * (as the quick-start plan's "MQTT Disconnect subscriber" does) before the run end, which finds nothing left.
     */
    private RunSummary runWithBacklog(String engineId, int number, int inWindow, int afterwards,
            boolean disconnectDrains) {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of("mqttload.engineId", engineId,
                "mqttload.engineNumber", Integer.toString(number), "mqttload.drainTimeoutMs", "5000"));
        ConnectionSettings persistent = MemoryEngine.settings().protocolVersion(ProtocolVersion.MQTT_3_1_1)
                .cleanStart(false).build();
        String keeper = engineId + "-keeper";
        engine.connect("connect sub", "sub", 1, persistent, 1, keeper, new ReconnectPolicy(1000, 5, 10));
        engine.subscribe("subscribe", "sub", 1, "window/" + engineId, 1);
        engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, engineId + "-pub",
                ReconnectPolicy.none());
        engine.publish("publish", "pub", 1, "window/" + engineId, 1, inWindow, true);
        engine.awaitCount(Count.RECEIVED, inWindow);

        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnect(keeper);
        // The last Publish sample: production ends with it, its messages queued for the subscriber that is away.
        engine.publish("publish", "pub", 1, "window/" + engineId, 1, afterwards, true);
        // Back when the window's counts are taken and the drain begins (the Disconnect's or the run end's).
        engine.runtime().addIntervalListener(new IntervalListener() {
            @Override
            public void onInterval(Interval interval) {
                // Only the drain's start matters here.
            }

            @Override
            public void onEvent(String type, String text, long timeMillis) {
                if (text.startsWith("production over")) {
                    broker.acceptConnects();
                }
            }
        });
        if (disconnectDrains) {
            OperationResult disconnected = engine.disconnect("disconnect sub", "sub", 1, 5000);
            assertThat(disconnected.ok).as(disconnected.message).isTrue();
            assertThat(disconnected.message).endsWith("; drained");
        }
        return engine.shutdown();
    }

    @Test
    void messagesArrivingAfterProduction_areTheDrains_andTheReceiveRateCountsTheWindowAlone() {
        RunSummary summary = runWithBacklog("engine", 1, 6, 4);

        assertThat(summary.count(Count.RECEIVED)).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.count(Count.RECEIVED_IN_WINDOW)).isEqualTo(6);
        assertThat(summary.count(Count.RECEIVED_IN_DRAIN)).isEqualTo(4);
        assertThat(summary.count(Count.ACKNOWLEDGED_IN_WINDOW)).isEqualTo(10);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.measuredSeconds).isPositive();
        assertThat(summary.receiveRate() * summary.measuredSeconds).isCloseTo(6, within(1e-6));
        assertThat(summary.publishRate() * summary.measuredSeconds).isCloseTo(10, within(1e-6));
        assertThat(summary.rates().drainReceived).isEqualTo(4);
        assertThat(summary.rates().drainSeconds).isEqualTo(summary.count(Count.DRAIN_MILLIS) / 1000.0);
        assertThat(summary.rates().drainRate * summary.rates().drainSeconds).isCloseTo(4, within(1e-6));
        assertThat(summary.toTable()).contains("actual rate pub:sub (msg/s)  " + summary.rates().pubSub())
                .contains(summary.rates().drainText()).contains("4 in ");

        EngineSummary read = SummaryJson.readEngineSummary(summary.toJson());
        assertThat(read.receiveRate).isEqualTo(summary.receiveRate());
        assertThat(read.publishRate).isEqualTo(summary.publishRate());
        assertThat(read.drainRate).isEqualTo(summary.rates().drainRate);
    }

    @Test
    void aBacklogDrainedByThePlansDisconnect_isTheDrains_notTheWindows() {
        RunSummary summary = runWithBacklog("engine", 1, 6, 4, true);

        assertThat(summary.count(Count.RECEIVED)).as(summary.toTable()).isEqualTo(10);
        assertThat(summary.count(Count.RECEIVED_IN_WINDOW)).isEqualTo(6);
        assertThat(summary.count(Count.RECEIVED_IN_DRAIN)).isEqualTo(4);
        assertThat(summary.count(Count.RECEIVED_IN_WINDOW) + summary.count(Count.RECEIVED_IN_DRAIN))
                .isEqualTo(summary.count(Count.RECEIVED));
        assertThat(summary.count(Count.ACKNOWLEDGED_IN_WINDOW)).isEqualTo(10);
        assertThat(summary.delivery.lost()).isZero();
        assertThat(summary.receiveRate() * summary.measuredSeconds).isCloseTo(6, within(1e-6));
        assertThat(summary.rates().drainReceived).isEqualTo(4);
    }

    @Test
    void aDisconnectThatDrainsWhileOthersStillPublish_doesNotEndTheWindow() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of("mqttload.drainTimeoutMs", "5000"));
        engine.connect("connect sub", "sub", 1, MemoryEngine.settings().build(), 1, "stays", ReconnectPolicy.none());
        engine.subscribe("subscribe", "sub", 1, "window/churn", 1);
        engine.connect("connect early", "early", 1, MemoryEngine.settings().build(), 1, "leaves", ReconnectPolicy.none());
        engine.subscribe("subscribe early", "early", 1, "window/churn", 1);
        engine.connect("connect pub", "pub", 1, MemoryEngine.settings().build(), 1, "churn-pub", ReconnectPolicy.none());
        engine.publish("publish", "pub", 1, "window/churn", 1, 3, true);
        engine.awaitCount(Count.RECEIVED, 6);
        // Drains its subscriber (owed nothing more) while production goes on: production is not over.
        OperationResult early = engine.disconnect("disconnect early", "early", 1, 5000);
        assertThat(early.ok).as(early.message).isTrue();
        engine.publish("publish", "pub", 1, "window/churn", 1, 3, true);
        engine.awaitCount(Count.RECEIVED, 9);

        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.RECEIVED_IN_WINDOW)).as(summary.toTable()).isEqualTo(9);
        assertThat(summary.count(Count.RECEIVED_IN_DRAIN)).isZero();
        assertThat(summary.count(Count.ACKNOWLEDGED_IN_WINDOW)).isEqualTo(6);
    }

    @Test
    void merged_addsTheEnginesWindowRates_andTheirDrainsBesideThem() {
        RunSummary a = runWithBacklog("engine-1", 1, 6, 4);
        RunSummary b = runWithBacklog("engine-2", 2, 9, 5);

        MergedReport report = MergedReport.merge(List.of(a.toJson(), b.toJson()), List.of());

        assertThat(report.count(Count.RECEIVED_IN_WINDOW)).isEqualTo(15);
        assertThat(report.count(Count.RECEIVED_IN_DRAIN)).isEqualTo(9);
        assertThat(report.count(Count.DRAIN_MILLIS)).isEqualTo(Math.max(a.count(Count.DRAIN_MILLIS),
                b.count(Count.DRAIN_MILLIS)));
        assertThat(report.receiveRate).isCloseTo(a.receiveRate() + b.receiveRate(), within(1e-9));
        assertThat(report.publishRate).isCloseTo(a.publishRate() + b.publishRate(), within(1e-9));
        assertThat(report.rates.drainReceived).isEqualTo(9);
        assertThat(report.rates.drainSeconds).isEqualTo(report.count(Count.DRAIN_MILLIS) / 1000.0);
        assertThat(ReportText.table(report)).contains(report.rates.drainText());
        assertThat(ReportText.markdown(report)).contains("| " + report.rates.pubSub() + " |")
                .contains(report.rates.drainText());
        assertThat(report.figures().drainRate).isEqualTo(report.rates.drainRate);
        assertThat(SummaryJson.readReport(report.toJson()).receiveRate).isEqualTo(report.receiveRate);
    }

    @Test
    void clientsThatSpendEveryReconnectAttempt_areCountedAsGivingUp_withWhen() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect", "clients", 1, MemoryEngine.settings().build(), 3, "c-{client}",
                new ReconnectPolicy(2, 5, 10));

        broker.refuseConnects("SERVER_UNAVAILABLE");
        broker.disconnectAll();
        engine.awaitCount(Count.RECONNECTS_GIVEN_UP, 3);
        RunSummary summary = engine.shutdown();

        assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).as(summary.toTable()).isEqualTo(3);
        assertThat(summary.count(Count.RECONNECT_ATTEMPTS_GIVEN_UP)).isEqualTo(6);
        assertThat(summary.count(Count.RECONNECTS)).isZero();
        assertThat(summary.count(Count.CONNECTIONS_LOST)).isEqualTo(3);
        long first = summary.count(Count.RECONNECT_GIVE_UP_FIRST_MILLIS);
        long last = summary.count(Count.RECONNECT_GIVE_UP_LAST_MILLIS);
        assertThat(first).isPositive().isLessThanOrEqualTo(last);
        assertThat(last).isLessThanOrEqualTo(summary.endedAtMillis - summary.startedAtMillis);
        assertThat(summary.toTable()).contains("reconnects given up").contains("3 client(s) gave up after 6 reconnect"
                + " attempt(s) in all");

        MergedReport report = MergedReport.merge(List.of(summary.toJson()), List.of());
        assertThat(report.count(Count.RECONNECTS_GIVEN_UP)).isEqualTo(3);
        assertThat(ReportText.table(report)).contains("reconnects given up: 3 client(s) gave up");
        assertThat(ReportText.markdown(report)).contains("Reconnects given up: 3 client(s) gave up");
    }

    @Test
    void aRunWithoutGiveUps_saysNothingOfThem() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect", "clients", 1, MemoryEngine.settings().build(), 2, "ok-{client}", ReconnectPolicy.none());
        broker.disconnectAll();
        engine.awaitCount(Count.CONNECTIONS_LOST, 2);
        RunSummary summary = engine.shutdown();

        // No reconnect policy: the clients never tried, so none gave up.
        assertThat(summary.count(Count.RECONNECTS_GIVEN_UP)).as(summary.toTable()).isZero();
        assertThat(summary.count(Count.RECONNECT_GIVE_UP_FIRST_MILLIS)).isZero();
        assertThat(summary.toTable()).doesNotContain("gave up");
    }

    @Test
    void theSetup_saysHowManyClientsConnectedOfHowManyTried() {
        MemoryEngine engine = new MemoryEngine(broker, results, Map.of());
        engine.connect("connect ok", "ok", 1, MemoryEngine.settings().build(), 2, "ok-{client}", ReconnectPolicy.none());
        broker.refuseConnects("NOT_AUTHORIZED");
        engine.connect("connect refused", "refused", 1, MemoryEngine.settings().build(), 3, "no-{client}",
                ReconnectPolicy.none());
        RunSummary summary = engine.shutdown();

        assertThat(summary.setup().steps).extracting(s -> s.sampler + ": " + s.clientsText())
                .containsExactlyInAnyOrder("connect ok: 2 of 2 client(s) connected",
                        "connect refused: 0 of 3 client(s) connected");
        assertThat(summary.toTable()).contains("'connect refused' on 0 of 3 client(s) connected:");
        RunSetup merged = MergedReport.merge(List.of(summary.toJson(), summary.toJson()), List.of()).setup;
        assertThat(merged.steps).extracting(RunSetup.Step::clientsCell)
                .containsExactlyInAnyOrder("4 of 4 connected", "0 of 6 connected");
    }
}
