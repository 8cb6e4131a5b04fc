package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

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
     * @param count            a count of the run by name (see {@code RunSummary.counts}); 0 when absent
     * @param failures         failure rows, most frequent first, to name the main reason of each kind
     * @param incomplete       why figures are missing (engines without a summary, colliding engine numbers)
     * @param receivedNothing  receivers owed messages that got none
     * @param tolerancePercent failures up to this share of attempts do not fail the run (0: any failure does)
     * @param wholeRun         true for the merged report over every engine, false for one engine's own figures
     */
    public Judgement(ToLongFunction<String> count, List<FailureTally.Row> failures, List<String> incomplete,
            List<String> receivedNothing, double tolerancePercent, boolean wholeRun) {
        List<String> why = new ArrayList<>(incomplete);
        // A plan that could not run as written comes first: nothing after it measured what was asked.
        long invalid = count.applyAsLong("invalidSettings");
        if (invalid > 0) {
            why.add(invalid + " sample(s) refused an invalid setting" + main(failures, FailureTally.Kind.INVALID_SETTING));
        }
        // A broken protocol first: it is usually why the other operations failed.
        long violations = count.applyAsLong("protocolViolations");
        if (violations > 0) {
            why.add("the broker broke the MQTT protocol " + violations + " time(s)"
                    + main(failures, FailureTally.Kind.PROTOCOL_VIOLATION));
        }
        long despiteNoLocal = count.applyAsLong("deliveredDespiteNoLocal");
        if (despiteNoLocal > 0) {
            why.add("the broker sent " + despiteNoLocal + " message(s) to their own publisher's no-local subscription");
        }
        long connectsOk = count.applyAsLong("connectsOk");
        long connectsFailed = count.applyAsLong("connectsFailed");
        if (connectsOk == 0 && connectsFailed > 0) {
            why.add("no connection succeeded: " + connectsFailed + " connect(s) failed" + main(failures, FailureTally.Kind.CONNECT));
        } else if (over(connectsFailed, connectsOk + connectsFailed, tolerancePercent)) {
            why.add(connectsFailed + " of " + (connectsOk + connectsFailed) + " connects failed"
                    + main(failures, FailureTally.Kind.CONNECT));
        }
        long subscribeFailed = count.applyAsLong("subscribeFailed");
        long subscribeAttempts = subscribeFailed + count.applyAsLong("subscribeOk");
        if (over(subscribeFailed, subscribeAttempts, tolerancePercent)) {
            why.add(subscribeFailed + " of " + subscribeAttempts + " subscriptions failed"
                    + main(failures, FailureTally.Kind.SUBSCRIBE));
        }
        long publishFailed = count.applyAsLong("publishFailed");
        long publishAttempts = count.applyAsLong("published") + count.applyAsLong("publishNotSent");
        if (over(publishFailed, publishAttempts, tolerancePercent)) {
            why.add(publishFailed + " of " + publishAttempts + " publishes failed" + main(failures, FailureTally.Kind.PUBLISH));
        }
        long lostConnections = count.applyAsLong("connectionsLost");
        if (over(lostConnections, connectsOk, tolerancePercent)) {
            long failovers = count.applyAsLong("failovers");
            why.add(lostConnections + " established connection(s) lost"
                    + main(failures, FailureTally.Kind.CONNECTION_LOST)
                    + (failovers > 0 ? ", " + failovers + " client(s) failed over to another broker node" : ""));
        }
        long rendezvous = count.applyAsLong("rendezvousFailures");
        if (rendezvous > 0) {
            why.add(rendezvous + " rendezvous failed" + main(failures, FailureTally.Kind.RENDEZVOUS));
        }
        long repliesFailed = count.applyAsLong("repliesFailed");
        if (over(repliesFailed, repliesFailed + count.applyAsLong("repliesSent"), tolerancePercent)) {
            why.add(repliesFailed + " repl(ies) to requests failed" + main(failures, FailureTally.Kind.REPLY));
        }
        // Request/response owes each request one reply, to the engine that sent it: one answered is all it asks.
        long requests = count.applyAsLong("requestsPublished");
        long unanswered = requests - count.applyAsLong("repliesReceived");
        if (over(unanswered, requests, tolerancePercent)) {
            why.add(unanswered + " of " + requests + " request(s) got no reply");
        }
        long expected = count.applyAsLong("expected");
        long lost = count.applyAsLong("lost");
        long received = count.applyAsLong("received");
        if (!incomplete.isEmpty()) {
            verdict = Verdict.INCOMPLETE;
        } else if (why.size() > 0) {
            verdict = Verdict.FAILED;
        } else if (expected == 0) {
            verdict = received == 0 && count.applyAsLong("deliveredUnacknowledged") == 0 ? Verdict.NOTHING_TO_CHECK
                    : Verdict.NOT_CHECKED;
        } else if (lost == 0) {
            verdict = Verdict.NO_LOSS;
        } else {
            verdict = count.applyAsLong("lateSubscriptions") > 0 ? Verdict.LOSS_UNCERTAIN : Verdict.LOSS;
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

    private String line(ToLongFunction<String> count, List<String> receivedNothing, boolean wholeRun) {
        long expected = count.applyAsLong("expected");
        long lost = count.applyAsLong("lost");
        long unacknowledged = count.applyAsLong("deliveredUnacknowledged");
        StringBuilder b = new StringBuilder(verdict.title()).append(": ");
        switch (verdict) {
            case INCOMPLETE:
            case FAILED:
                b.append(String.join("; ", reasons));
                b.append(String.format(Locale.ROOT, " | delivery: expected %d, received %d, lost %d", expected,
                        count.applyAsLong("receivedOfExpected"), lost));
                break;
            case LOSS:
            case LOSS_UNCERTAIN:
                b.append(String.format(Locale.ROOT, "%d of %d expected deliveries missing (%.4f%%)", lost, expected,
                        100.0 * lost / expected));
                if (!wholeRun) {
                    b.append("; ").append(count.applyAsLong("missingInGaps")).append(" sequence numbers still in gaps");
                }
                if (verdict == Verdict.LOSS_UNCERTAIN) {
                    b.append("; ").append(count.applyAsLong("lateSubscriptions")).append(" subscription(s) were made"
                            + " after matching messages had been published, so part of this may be messages sent"
                            + " before they existed");
                }
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
        if (!receivedNothing.isEmpty() && verdict != Verdict.NO_LOSS) {
            b.append("; ").append(String.join("; ", receivedNothing));
        }
        if (unacknowledged > 0) {
            b.append("; ").append(unacknowledged).append(" message(s) delivered that the broker never acknowledged"
                    + " to their publisher (sent, not acknowledged, delivered)");
        }
        long saturated = count.applyAsLong("generatorSaturatedSeconds");
        if (saturated > 0) {
            b.append("; generator saturated ").append(saturated).append(wholeRun ? " engine-second(s)" : " s")
                    .append(" of the measured window (CPU at 90 % of every core or more): figures are limited by the"
                            + " load generator, not the broker");
        }
        long behind = count.applyAsLong("publishBehindScheduleSeconds");
        if (behind > 0) {
            b.append("; publishing behind schedule ").append(behind).append(wholeRun ? " engine-second(s)" : " s")
                    .append(" (under 90 % of the rate the plan's throughput timers ask for): the broker saw less load"
                            + " than the plan asks");
        }
        long shared = count.applyAsLong("sharedScopesAcrossEngines");
        if (!wholeRun && shared > 0) {
            b.append("; ").append(shared).append(" shared subscription group(s) may have members on other engines:"
                    + " judged over all engines by the MQTT Run Report");
        }
        return b.toString();
    }

    public String line() {
        return line;
    }

}
