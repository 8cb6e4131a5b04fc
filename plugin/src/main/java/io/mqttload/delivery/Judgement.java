package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;

/**
 * The one verdict rule, for an engine's summary and for the merged report alike: the run's counts, its failure
 * reasons and what is missing go in; the {@link Verdict} and a line that says why come out. Failures decide
 * before loss (a run that could not do what the plan asked is {@link Verdict#FAILED}, whatever arrived), and the
 * delivery figures always stay beside the verdict.
 */
public final class Judgement {
    public final Verdict verdict;
    /** Why the run failed or is incomplete, most important first; empty for a run that did what it asked. */
    public final List<String> reasons;
    private final String line;

    /**
     * @param count            a count of the run (see {@code RunSummary.counts}); 0 when absent
     * @param failures         failure rows, most frequent first, to name the main reason of each kind
     * @param incomplete       why figures are missing (engines without a summary, colliding engine numbers)
     * @param receivedNothing  receivers owed messages that got none
     * @param tolerancePercent failures up to this share of attempts do not fail the run (0: any failure does)
     * @param wholeRun         true for the merged report over every engine, false for one engine's own figures
     */
    public Judgement(ToLongFunction<Count> count, List<FailureTally.Row> failures, List<String> incomplete,
            List<String> receivedNothing, double tolerancePercent, boolean wholeRun) {
        List<String> why = new ArrayList<>(incomplete);
        // A plan that could not run as written comes first: nothing after it measured what was asked.
        long invalid = count.applyAsLong(Count.INVALID_SETTINGS);
        if (invalid > 0) {
            why.add(invalid + " sample(s) refused an invalid setting" + main(failures, FailureTally.Kind.INVALID_SETTING));
        }
        // No tolerance: the tolerance is a share of the broker's attempts (connects, publishes, ...), and a sample that
        // failed without one (its client group has no client, its topic is not a name) is the plan's failure.
        long samplesFailed = count.applyAsLong(Count.SAMPLES_FAILED);
        if (samplesFailed > 0) {
            why.add(samplesFailed + " sample(s) failed" + main(failures, FailureTally.Kind.SAMPLE));
        }
        // A broken protocol first: it is usually why the other operations failed.
        long violations = count.applyAsLong(Count.PROTOCOL_VIOLATIONS);
        if (violations > 0) {
            why.add("the broker broke the MQTT protocol " + violations + " time(s)"
                    + main(failures, FailureTally.Kind.PROTOCOL_VIOLATION));
        }
        long despiteNoLocal = count.applyAsLong(Count.DELIVERED_DESPITE_NO_LOCAL);
        if (despiteNoLocal > 0) {
            why.add("the broker sent " + despiteNoLocal + " message(s) to their own publisher's no-local subscription");
        }
        long qos2Duplicates = count.applyAsLong(Count.QOS2_DUPLICATES);
        if (qos2Duplicates > 0) {
            // QoS 1 may arrive twice (counted, allowed); QoS 2 promised exactly once, so a second copy is the broker's fault.
            why.add("the broker delivered " + qos2Duplicates + " QoS 2 message(s) twice (" + Count.QOS2_DUPLICATES.key()
                    + "): QoS 2 promises exactly once");
        }
        long unserved = count.applyAsLong(Count.SHARED_GROUPS_UNSERVED);
        if (unserved > 0) {
            // Not loss: a broker that takes $share/... as an ordinary filter owes the group nothing (the group named
            // below); what it would have been owed is counted apart (UNSERVED_SHARED_DELIVERIES), not in lost.
            why.add("the broker probably does not support shared subscriptions: " + unserved + " shared group(s) it"
                    + " granted received nothing");
        }
        long connectsOk = count.applyAsLong(Count.CONNECTS_OK);
        long connectsFailed = count.applyAsLong(Count.CONNECTS_FAILED);
        if (connectsOk == 0 && connectsFailed > 0) {
            why.add("no connection succeeded: " + connectsFailed + " connect(s) failed" + main(failures, FailureTally.Kind.CONNECT));
        } else if (over(connectsFailed, connectsOk + connectsFailed, tolerancePercent)) {
            why.add(connectsFailed + " of " + (connectsOk + connectsFailed) + " connects failed"
                    + main(failures, FailureTally.Kind.CONNECT));
        }
        long subscribeFailed = count.applyAsLong(Count.SUBSCRIBE_FAILED);
        long subscribeAttempts = subscribeFailed + count.applyAsLong(Count.SUBSCRIBE_OK);
        if (over(subscribeFailed, subscribeAttempts, tolerancePercent)) {
            why.add(subscribeFailed + " of " + subscribeAttempts + " subscriptions failed"
                    + main(failures, FailureTally.Kind.SUBSCRIBE));
        }
        // Publishes that failed while a declared outage held their client offline are the outage's, not failures.
        long inOutage = count.applyAsLong(Count.PUBLISH_FAILED_IN_OUTAGE);
        long publishFailed = count.applyAsLong(Count.PUBLISH_FAILED) - inOutage;
        long publishAttempts = count.applyAsLong(Count.PUBLISHED) + count.applyAsLong(Count.PUBLISH_NOT_SENT) - inOutage;
        if (over(publishFailed, publishAttempts, tolerancePercent)) {
            why.add(publishFailed + " of " + publishAttempts + " publishes failed" + (inOutage > 0 ? " beyond the "
                    + inOutage + " of the declared outage (publishFailedInOutage)" : "")
                    + main(failures, FailureTally.Kind.PUBLISH));
        }
        // The connections a declared outage took are its scenario, not failures: the recovery judges them instead.
        boolean outage = count.applyAsLong(Count.OUTAGES_DECLARED) > 0;
        long lostConnections = count.applyAsLong(Count.CONNECTIONS_LOST)
                - (outage ? count.applyAsLong(Count.OUTAGE_CLIENTS) : 0);
        if (outage) {
            why.addAll(Recovery.failures(count));
        }
        if (over(lostConnections, connectsOk, tolerancePercent)) {
            long failovers = count.applyAsLong(Count.FAILOVERS);
            why.add(lostConnections + " established connection(s) lost" + (outage ? " beyond the declared outage's" : "")
                    + main(failures, FailureTally.Kind.CONNECTION_LOST)
                    + (failovers > 0 ? ", " + failovers + " client(s) failed over to another broker node" : ""));
        }
        long rendezvous = count.applyAsLong(Count.RENDEZVOUS_FAILURES);
        if (rendezvous > 0) {
            why.add(rendezvous + " rendezvous failed" + main(failures, FailureTally.Kind.RENDEZVOUS));
        }
        long repliesFailed = count.applyAsLong(Count.REPLIES_FAILED);
        if (over(repliesFailed, repliesFailed + count.applyAsLong(Count.REPLIES_SENT), tolerancePercent)) {
            why.add(repliesFailed + " repl(ies) to requests failed" + main(failures, FailureTally.Kind.REPLY));
        }
        // Request/response owes each request one reply, to the engine that sent it: one answered is all it asks.
        long requests = count.applyAsLong(Count.REQUESTS_PUBLISHED);
        long unanswered = requests - count.applyAsLong(Count.REPLIES_RECEIVED);
        if (over(unanswered, requests, tolerancePercent)) {
            why.add(unanswered + " of " + requests + " request(s) got no reply");
        }
        long expected = count.applyAsLong(Count.EXPECTED);
        long lost = count.applyAsLong(Count.LOST);
        long received = count.applyAsLong(Count.RECEIVED);
        if (!incomplete.isEmpty()) {
            verdict = Verdict.INCOMPLETE;
        } else if (why.size() > 0) {
            verdict = Verdict.FAILED;
        } else if (count.applyAsLong(Count.STOPPED_AT_MILLIS) > 0) {
            // A run cut short is never a clean pass, whatever arrived before the stop: the plan did not run to its end.
            verdict = Verdict.STOPPED;
        } else if (expected == 0 && count.applyAsLong(Count.UNDECIDED_AROUND_SUBSCRIPTION) == 0) {
            verdict = received == 0 && count.applyAsLong(Count.DELIVERED_UNACKNOWLEDGED) == 0 ? Verdict.NOTHING_TO_CHECK
                    : Verdict.NOT_CHECKED;
        } else if (lost == 0) {
            // Missing messages sent while a subscription was being set up: the clocks cannot say they were owed, nor
            // that they were not, so the run is no clean pass.
            verdict = count.applyAsLong(Count.UNDECIDED_AROUND_SUBSCRIPTION) > 0 ? Verdict.LOSS_UNCERTAIN : Verdict.NO_LOSS;
        } else {
            // A lost session whose lapse the ledger recorded is decided per message; only the others leave a doubt.
            verdict = count.applyAsLong(Count.LATE_SUBSCRIPTIONS) > 0 || unrecordedLapses(count) > 0
                    ? Verdict.LOSS_UNCERTAIN : Verdict.LOSS;
        }
        this.reasons = List.copyOf(why);
        this.line = line(count, receivedNothing, wholeRun);
    }

    private static boolean over(long failed, long attempts, double tolerancePercent) {
        return failed > 0 && failed > attempts * tolerancePercent / 100.0;
    }

    /** The most frequent reason of a kind of failure, as " (most often: N x reason)", or "". */
    private static String main(List<FailureTally.Row> failures, FailureTally.Kind kind) {
        for (FailureTally.Row r : failures) {
            if (r.kind == kind) {
                return " (most often: " + r.count + " x " + r.reason
                        + (r.sampler.isEmpty() ? "" : ", in '" + r.sampler + "'") + ")";
            }
        }
        return "";
    }

    private String line(ToLongFunction<Count> count, List<String> receivedNothing, boolean wholeRun) {
        long expected = count.applyAsLong(Count.EXPECTED);
        long lost = count.applyAsLong(Count.LOST);
        long unacknowledged = count.applyAsLong(Count.DELIVERED_UNACKNOWLEDGED);
        StringBuilder b = new StringBuilder(verdict.title()).append(": ");
        switch (verdict) {
            case INCOMPLETE:
            case FAILED:
                b.append(String.join("; ", reasons));
                b.append(String.format(Locale.ROOT, " | delivery: expected %d, received %d, lost %d", expected,
                        count.applyAsLong(Count.RECEIVED_OF_EXPECTED), lost));
                if (lost > 0) {
                    b.append(sessionsLost(count)).append(lostFromKeptSessions(count));
                }
                break;
            case LOSS:
            case LOSS_UNCERTAIN:
                b.append(String.format(Locale.ROOT, "%d of %d expected deliveries missing (%.4f%%)", lost, expected,
                        expected == 0 ? 0.0 : 100.0 * lost / expected));
                if (!wholeRun) {
                    b.append("; ").append(count.applyAsLong(Count.MISSING_IN_GAPS)).append(" sequence numbers still in gaps");
                }
                if (count.applyAsLong(Count.LATE_SUBSCRIPTIONS) > 0) {
                    b.append("; ").append(count.applyAsLong(Count.LATE_SUBSCRIPTIONS)).append(" subscription(s) were made"
                            + " after matching messages had been published, so part of this may be messages sent"
                            + " before they existed");
                }
                b.append(sessionsLost(count));
                b.append(undecided(count));
                b.append(lostFromKeptSessions(count));
                break;
            case STOPPED:
                b.append(stopped(count, wholeRun)).append(": the figures cover the run up to the stop");
                b.append(String.format(Locale.ROOT, " | delivery: expected %d, received %d, lost %d", expected,
                        count.applyAsLong(Count.RECEIVED_OF_EXPECTED), lost));
                break;
            case NO_LOSS:
                b.append("every expected message arrived").append(wholeRun ? ", on every engine" : "");
                break;
            case NOT_CHECKED:
                b.append(wholeRun ? "every message received came from publishers outside this run"
                        : "what arrived here is judged with the other engines' figures; see the merged report");
                break;
            default:
                b.append("no message was expected or received");
                break;
        }
        b.append(notOwed(count));
        b.append(Recovery.line(count));
        if (verdict != Verdict.STOPPED && count.applyAsLong(Count.STOPPED_AT_MILLIS) > 0) {
            b.append("; ").append(stopped(count, wholeRun));
        }
        if (!receivedNothing.isEmpty() && verdict != Verdict.NO_LOSS) {
            b.append("; ").append(String.join("; ", receivedNothing));
        }
        if (unacknowledged > 0) {
            b.append("; ").append(unacknowledged).append(" message(s) delivered that the broker never acknowledged"
                    + " to their publisher (sent, not acknowledged, delivered)");
        }
        long saturated = count.applyAsLong(Count.GENERATOR_SATURATED_SECONDS);
        if (saturated > 0) {
            b.append("; generator saturated ").append(saturated).append(wholeRun ? " engine-second(s)" : " s")
                    .append(" of the measured window (CPU at 90 % of every core or more): figures are limited by the"
                            + " load generator, not the broker");
        }
        long behind = count.applyAsLong(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS);
        if (behind > 0) {
            // A broker that went away is why publishing fell behind: the reader needs that first, not the schedule.
            long lostConnections = count.applyAsLong(Count.CONNECTIONS_LOST);
            long publishFailed = count.applyAsLong(Count.PUBLISH_FAILED);
            String cause = lostConnections > 0 ? "with " + lostConnections + " connection(s) lost, publishing fell"
                    : publishFailed > 0 ? "with " + publishFailed + " publish(es) failed, publishing fell" : "publishing";
            b.append("; ").append(cause).append(" behind schedule ").append(behind)
                    .append(wholeRun ? " engine-second(s)" : " s")
                    .append(" (under 90 % of the rate the plan's schedule asks for, the Publish samplers' rates or"
                            + " throughput timers): the broker saw less load than the plan asks");
        }
        long shared = count.applyAsLong(Count.SHARED_SCOPES_ACROSS_ENGINES);
        if (!wholeRun && shared > 0) {
            b.append("; ").append(shared).append(" shared subscription group(s) may have members on other engines:"
                    + " judged over all engines by the MQTT Run Report");
        }
        return b.toString();
    }

    /** When JMeter was asked to stop the test, for the verdict line of a run that was stopped. */
    private static String stopped(ToLongFunction<Count> count, boolean wholeRun) {
        return String.format(Locale.ROOT, "the test was stopped at %.1f s%s, before the plan's end (Stop or Shutdown,"
                + " stoptest.sh, an element's or a Thread Group's stop action)", count.applyAsLong(Count.STOPPED_AT_MILLIS)
                / 1000.0, wholeRun ? " of an engine's run" : " of the run");
    }

    /** The deliveries nobody owed, each by its count's key, said beside the delivery figures they are not in. */
    private static String notOwed(ToLongFunction<Count> count) {
        StringBuilder b = new StringBuilder();
        for (Count c : Count.NOT_OWED_DELIVERIES) {
            long n = count.applyAsLong(c);
            if (n > 0) {
                b.append("; ").append(n).append(" deliveries owed to nobody (").append(c.key())
                        .append("), not in expected or lost");
            }
        }
        return b.toString();
    }

    /** Missing deliveries neither owed nor lost, said beside the loss, or "". */
    private static String undecided(ToLongFunction<Count> count) {
        long undecided = count.applyAsLong(Count.UNDECIDED_AROUND_SUBSCRIPTION);
        return undecided == 0 ? "" : "; " + undecided + " deliveries missing (" + Count.UNDECIDED_AROUND_SUBSCRIPTION.key()
                + ") of messages published while their subscription was being set up: the send times and the clocks'"
                + " bound cannot tell whether they were owed, so they are neither in expected nor lost";
    }

    /** Reconnects without a session whose lapse the ledger could not record (a shared group's, a failed resubscribe). */
    private static long unrecordedLapses(ToLongFunction<Count> count) {
        return Math.max(0, count.applyAsLong(Count.SUBSCRIBER_SESSIONS_LOST)
                - count.applyAsLong(Count.SUBSCRIBER_LAPSES_RECORDED));
    }

    /**
     * Why part of a loss may be no one's: subscribers whose broker kept no session across a reconnect and whose lapse
     * the ledger could not record, or "". A recorded lapse is decided per message (publishedWhileSessionLost).
     */
    private static String sessionsLost(ToLongFunction<Count> count) {
        long sessions = unrecordedLapses(count);
        return sessions == 0 ? "" : "; " + sessions + " subscribing client(s) reconnected to a broker that had kept no"
                + " session for them (CONNACK session present 0) and the ledger could not record when they subscribed"
                + " again (a shared subscription, or a subscription again that failed), so part of this may be messages"
                + " published before they had subscribed again, which the broker owed to nobody";
    }

    /** The part of a loss the broker promised against: owed to sessions it kept across a lost connection, or "". */
    private static String lostFromKeptSessions(ToLongFunction<Count> count) {
        long kept = count.applyAsLong(Count.LOST_FROM_KEPT_SESSIONS);
        return kept == 0 ? "" : "; " + kept + " of them (" + Count.LOST_FROM_KEPT_SESSIONS.key() + ") acknowledged to"
                + " the publisher and not delivered to a session the broker kept across a lost connection (CONNACK"
                + " session present 1): loss the broker promised against";
    }

    public String line() {
        return line;
    }

}
