package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;

/** The verdict rule: failures decide before loss, the loss figures stay beside the verdict, and nothing hides a fault. */
class JudgementTest {
    private final Map<Count, Long> counts = new EnumMap<>(Count.class);

    private Judgement judge(double tolerance, List<FailureTally.Row> rows) {
        return new Judgement(c -> counts.getOrDefault(c, 0L), rows, List.of(), List.of(), tolerance, false);
    }

    @Test
    void noConnection_isFailedWithTheReasonNotNothingToCheck() {
        counts.put(Count.CONNECTS_FAILED, 20L);
        counts.put(Count.PUBLISH_FAILED, 4400L);
        counts.put(Count.PUBLISH_NOT_SENT, 4400L);
        List<FailureTally.Row> rows = List.of(new FailureTally.Row("connect", FailureTally.Kind.CONNECT,
                "connection refused: Connection refused", 20));

        Judgement j = judge(0, rows);

        assertThat(j.verdict).isEqualTo(Verdict.FAILED);
        assertThat(j.line()).startsWith("FAILED: no connection succeeded: 20 connect(s) failed (most often: 20 x"
                + " connection refused: Connection refused, in 'connect')")
                .contains("4400 of 4400 publishes failed").contains("delivery: expected 0, received 0, lost 0");
    }

    @Test
    void unansweredRequests_failBeyondTheTolerance_andDuplicateRepliesDoNotMakeUpForThem() {
        counts.put(Count.CONNECTS_OK, 2L);
        counts.put(Count.EXPECTED, 100L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 100L);
        counts.put(Count.REQUESTS_PUBLISHED, 100L);
        counts.put(Count.REPLIES_RECEIVED, 97L);
        counts.put(Count.REPLY_DUPLICATES, 40L);
        counts.put(Count.REPLIES_SENT, 137L);

        assertThat(judge(0, List.of()).line()).startsWith("FAILED: 3 of 100 request(s) got no reply");
        assertThat(judge(5, List.of()).verdict).as("3 % within a 5 % tolerance").isEqualTo(Verdict.NO_LOSS);
        counts.put(Count.DELIVERED_DESPITE_NO_LOCAL, 2L);
        assertThat(judge(5, List.of()).line()).contains("the broker sent 2 message(s) to their own publisher's no-local");
    }

    @Test
    void protocolViolation_failsEvenWhenMessagesArrivedAndKeepsTheFigures() {
        counts.put(Count.CONNECTS_OK, 50L);
        counts.put(Count.CONNECTIONS_LOST, 50L);
        counts.put(Count.PROTOCOL_VIOLATIONS, 50L);
        counts.put(Count.RECEIVED, 506L);
        counts.put(Count.DELIVERED_UNACKNOWLEDGED, 506L);

        Judgement j = judge(100, List.of());

        assertThat(j.verdict).as("a protocol violation has no tolerance").isEqualTo(Verdict.FAILED);
        assertThat(j.line()).contains("the broker broke the MQTT protocol 50 time(s)")
                .contains("506 message(s) delivered that the broker never acknowledged");
    }

    @Test
    void failuresWithinTolerance_leaveTheVerdictToLoss() {
        counts.put(Count.CONNECTS_OK, 1000L);
        counts.put(Count.CONNECTS_FAILED, 5L);
        counts.put(Count.EXPECTED, 100L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 100L);

        assertThat(judge(1, List.of()).verdict).isEqualTo(Verdict.NO_LOSS);
        assertThat(judge(0, List.of()).verdict).isEqualTo(Verdict.FAILED);
    }

    @Test
    void lossWithoutFailures_isLossWithItsFigures() {
        counts.put(Count.CONNECTS_OK, 2L);
        counts.put(Count.EXPECTED, 1000L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 990L);
        counts.put(Count.LOST, 10L);

        Judgement j = judge(0, List.of());

        assertThat(j.verdict).isEqualTo(Verdict.LOSS);
        assertThat(j.line()).startsWith("LOSS: 10 of 1000 expected deliveries missing (1.0000%)");
    }

    private void lost66Of23000() {
        counts.put(Count.CONNECTS_OK, 2L);
        counts.put(Count.EXPECTED, 23_000L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 22_934L);
        counts.put(Count.LOST, 66L);
    }

    @Test
    void lossBesideLostSessionsWhoseLapsesWereRecorded_isPlainLoss_andTheKeptSessionsPartIsNamed() {
        lost66Of23000();
        counts.put(Count.SUBSCRIBER_SESSIONS_LOST, 2L);
        counts.put(Count.SUBSCRIBER_LAPSES_RECORDED, 2L);
        counts.put(Count.LOST_FROM_KEPT_SESSIONS, 40L);

        Judgement j = judge(0, List.of());

        // What the lapses held was decided per message: the loss left is the broker's.
        assertThat(j.verdict).isEqualTo(Verdict.LOSS);
        assertThat(j.line()).startsWith("LOSS: 66 of 23000 expected deliveries missing")
                .doesNotContain("reconnected to a broker that had kept no session")
                .contains("40 of them (lostFromKeptSessions) acknowledged to the publisher and not delivered to a"
                        + " session the broker kept across a lost connection (CONNACK session present 1): loss the"
                        + " broker promised against");

        // One lapse not recorded: that client's gap may explain part of the loss.
        counts.put(Count.SUBSCRIBER_SESSIONS_LOST, 3L);
        assertThat(judge(0, List.of()).verdict).isEqualTo(Verdict.LOSS_UNCERTAIN);
        assertThat(judge(0, List.of()).line()).contains("1 subscribing client(s) reconnected to a broker that had kept no"
                + " session for them");
    }

    @Test
    void lossAfterSubscriberSessionsWereLost_isUncertainWithTheReasonAndTheCount_notTheBrokersLoss() {
        // aedes, amqtt, ActiveMQ, Artemis restarted empty: a publisher back before its subscriber resubscribed.
        lost66Of23000();
        counts.put(Count.SUBSCRIBER_SESSIONS_LOST, 1L);

        Judgement j = judge(0, List.of());

        assertThat(j.verdict).isEqualTo(Verdict.LOSS_UNCERTAIN);
        assertThat(j.line()).startsWith("LOSS (UNCERTAIN): 66 of 23000 expected deliveries missing")
                .contains("1 subscribing client(s) reconnected to a broker that had kept no session for them (CONNACK"
                        + " session present 0) and the ledger could not record when they subscribed again (a shared"
                        + " subscription, or a subscription again that failed), so part of this may be messages"
                        + " published before they had subscribed again, which the broker owed to nobody")
                .doesNotContain("subscription(s) were made after");

        // The same loss in a run that failed (its connections were lost): the figures say it too.
        counts.put(Count.CONNECTIONS_LOST, 3L);
        Judgement failed = judge(0, List.of());
        assertThat(failed.verdict).isEqualTo(Verdict.FAILED);
        assertThat(failed.line()).contains("lost 66; 1 subscribing client(s) reconnected to a broker that had kept no"
                + " session");
    }

    @Test
    void behindScheduleInARunWhoseBrokerWentAway_saysTheLostConnectionsFirst() {
        counts.put(Count.CONNECTS_OK, 3L);
        counts.put(Count.CONNECTIONS_LOST, 3L);
        counts.put(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS, 4L);

        String line = judge(0, List.of()).line();

        assertThat(line).startsWith("FAILED: 3 established connection(s) lost")
                .contains("; with 3 connection(s) lost, publishing fell behind schedule 4 s (under 90 %")
                .doesNotContain("; publishing behind schedule");
        // Without a failure, the schedule alone is the news, as before.
        counts.remove(Count.CONNECTIONS_LOST);
        assertThat(judge(0, List.of()).line()).contains("; publishing behind schedule 4 s (under 90 %");
    }

    @Test
    void missingEngine_isIncompleteAndStillNamesFailuresAndFigures() {
        counts.put(Count.CONNECTS_OK, 2L);
        counts.put(Count.RENDEZVOUS_FAILURES, 1L);
        counts.put(Count.EXPECTED, 10L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 10L);

        Judgement j = new Judgement(c -> counts.getOrDefault(c, 0L), List.of(),
                List.of("no summary from engine(s) [127.0.0.1:1100]"), List.of(), 0, true);

        assertThat(j.verdict).isEqualTo(Verdict.INCOMPLETE);
        assertThat(j.line()).contains("127.0.0.1:1100").contains("1 rendezvous failed")
                .contains("delivery: expected 10, received 10, lost 0");
    }

    @Test
    void connectionsOnly_isNothingToCheckAndOnlyNoLossPasses() {
        counts.put(Count.CONNECTS_OK, 19_000L);
        assertThat(judge(0, List.of()).verdict).isEqualTo(Verdict.NOTHING_TO_CHECK);
        assertThat(Verdict.NOTHING_TO_CHECK.passed()).isFalse();
        assertThat(Verdict.NO_LOSS.passed()).isTrue();
        assertThat(Count.errors(c -> counts.getOrDefault(c, 0L))).isZero();
    }

    @Test
    void saturatedGenerator_keepsTheVerdictAndSaysTheFiguresAreTheGenerators() {
        counts.put(Count.CONNECTS_OK, 10L);
        counts.put(Count.PUBLISHED, 1000L);
        counts.put(Count.EXPECTED, 1000L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 1000L);
        counts.put(Count.GENERATOR_SATURATED_SECONDS, 7L);

        Judgement j = judge(0, List.of());

        assertThat(j.verdict).isEqualTo(Verdict.NO_LOSS);
        assertThat(j.line()).contains("every expected message arrived")
                .contains("generator saturated 7 s of the measured window")
                .contains("figures are limited by the load generator, not the broker");
    }

    @Test
    void invalidSetting_failsTheRunBeforeAnythingElse() {
        counts.put(Count.INVALID_SETTINGS, 2L);
        List<FailureTally.Row> rows = List.of(new FailureTally.Row("connect", FailureTally.Kind.INVALID_SETTING,
                "nodeTemplate = 'x': names no node", 2));

        Judgement j = judge(0, rows);

        assertThat(j.verdict).isEqualTo(Verdict.FAILED);
        assertThat(j.line()).startsWith("FAILED: 2 sample(s) refused an invalid setting (most often: 2 x nodeTemplate");
    }

    @Test
    void everyErrorCountOfTheDeclaration_failsTheRunOnItsOwn() {
        // A new error count in Count must also get a rule here: counted in "errors" but never judged would pass.
        for (Count error : Count.ERRORS) {
            counts.clear();
            counts.put(error, 1L);
            assertThat(judge(0, List.of()).verdict).as(error.key() + " alone").isEqualTo(Verdict.FAILED);
        }
    }

    @Test
    void failedSamples_failTheRunWhateverTheTolerance() {
        counts.put(Count.CONNECTS_OK, 1L);
        counts.put(Count.EXPECTED, 10L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 10L);
        counts.put(Count.SAMPLES_FAILED, 10L);
        List<FailureTally.Row> rows = List.of(new FailureTally.Row("pub", FailureTally.Kind.SAMPLE,
                "NOT_CONNECTED: no MQTT client in client group 'default'", 10));

        Judgement j = judge(100, rows);

        assertThat(j.verdict).as("a sample that failed without an attempt of the broker's has no tolerance")
                .isEqualTo(Verdict.FAILED);
        assertThat(j.line()).startsWith("FAILED: 10 sample(s) failed (most often: 10 x NOT_CONNECTED: no MQTT client in"
                + " client group 'default', in 'pub')");
    }

    @Test
    void aStoppedRun_isStoppedNotNoLoss_andSaysWhen() {
        counts.put(Count.CONNECTS_OK, 2L);
        counts.put(Count.EXPECTED, 100L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 100L);
        counts.put(Count.STOPPED_AT_MILLIS, 8_200L);

        Judgement j = judge(0, List.of());

        assertThat(j.verdict).isEqualTo(Verdict.STOPPED);
        assertThat(j.verdict.passed()).isFalse();
        assertThat(j.line()).startsWith("STOPPED: the test was stopped at 8.2 s of the run, before the plan's end")
                .contains("delivery: expected 100, received 100, lost 0");
    }

    @Test
    void aStoppedRunThatFailed_isFailedWithTheStopBesideIt() {
        counts.put(Count.CONNECTS_FAILED, 1L);
        counts.put(Count.STOPPED_AT_MILLIS, 1_500L);

        Judgement j = judge(0, List.of());

        assertThat(j.verdict).isEqualTo(Verdict.FAILED);
        assertThat(j.line()).contains("; the test was stopped at 1.5 s of the run, before the plan's end");
    }

    @Test
    void publishesFailedWhileADeclaredOutageHeldTheirClientsOffline_areTheOutages_theRestJudgedAgainstTheTolerance() {
        counts.put(Count.CONNECTS_OK, 10L);
        counts.put(Count.OUTAGES_DECLARED, 1L);
        counts.put(Count.OUTAGE_CLIENTS, 10L);
        counts.put(Count.OUTAGE_CLIENTS_BACK, 10L);
        counts.put(Count.CONNECTIONS_LOST, 10L);
        counts.put(Count.EXPECTED, 900L);
        counts.put(Count.RECEIVED_OF_EXPECTED, 900L);
        counts.put(Count.PUBLISHED, 900L);
        counts.put(Count.PUBLISH_NOT_SENT, 100L);
        counts.put(Count.PUBLISH_FAILED, 100L);
        counts.put(Count.PUBLISH_FAILED_IN_OUTAGE, 100L);

        Judgement all = judge(0, List.of());
        assertThat(all.verdict).as(all.line()).isEqualTo(Verdict.NO_LOSS);
        assertThat(all.line()).contains("; 100 publish(es) failed while it held their client offline"
                + " (publishFailedInOutage, not failures)");

        // Four of them failed outside it: judged against the tolerance, out of the attempts outside it.
        counts.put(Count.PUBLISH_FAILED_IN_OUTAGE, 96L);
        assertThat(judge(0, List.of()).line()).startsWith("FAILED: 4 of 904 publishes failed beyond the 96 of the"
                + " declared outage (publishFailedInOutage)");
        assertThat(judge(1, List.of()).verdict).as("4 of 904 within 1 %").isEqualTo(Verdict.NO_LOSS);
    }
}
