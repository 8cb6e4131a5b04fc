package io.mqttload.delivery;

import java.util.Arrays;

import io.mqttload.common.TopicMatcher;

/**
 * What one receiver scope was owed of one stream, decided per message: a message is owed only if it was published
 * after the scope's subscription took effect. The subscription took effect after its SUBSCRIBE was sent and before
 * its SUBACK was read; turned into the publisher's clock with the measured difference and widened by its bound, that
 * window meets the stream's send times ({@link SendTimes}: each sequence number known between two checkpoints). The
 * sequence numbers then fall in three runs: surely sent before the window (owed if it arrived all the same, as a
 * retained message does; if not, owed to nobody), surely after it (owed), and between (owed if it arrived; if not,
 * undecided, neither owed nor lost). Without the clocks' difference, what is missing before the first message of the
 * stream that arrived is undecided, the rest owed. A scope or stream without
 * the times (a ledger of an earlier version) is owed every acknowledged message, as before.
 *
 * <p>A client's subscriptions can also lapse: its connection lost, the broker it came back to had kept no session for
 * it, and it subscribed again ({@link DeliveryCheck.Lapse}). Of the owed run, a missing message above the highest
 * sequence number the scope had received before the loss was, at the loss, in flight or not yet sent: the broker's
 * promise to deliver it ended with the session. Sent surely before the new subscription's SUBSCRIBE (its window turned
 * into the publisher's clock as above), it is owed to nobody; sent after its SUBACK, owed. Between, MQTT's order per
 * publisher and topic decides: the broker received the stream's messages in their order, so one sent after the first
 * that came back on the new subscription met that subscription (owed, whatever the times say), and one missing before
 * it was routed before the subscription (owed to nobody); only with nothing back is it undecided. A missing message at
 * or below that highest stays owed: the broker skipped it while delivering a later one.
 * A stream of the subscriber's own engine is placed by what it had sent when the SUBSCRIBE left and when the SUBACK
 * came, read from the stream itself, exact whatever the step between its send times.
 * What arrived of a lapse is delivered, as everywhere.
 */
final class OwedDeliveries {
    /** Acknowledged messages owed to nobody: sent before the subscription could have taken effect, and missing. */
    long notOwed;
    /** Acknowledged messages sent around the subscription, or around a lapse's new one, that did not arrive. */
    long undecided;
    /** Acknowledged messages owed to nobody: sent while the scope's broker held no session for it, and missing. */
    long lapsed;
    long expected;
    long received;

    private OwedDeliveries() {
    }

    /** @param receivedAcknowledged the stream's acknowledged messages the scope received, as the check counted them */
    static OwedDeliveries of(DeliveryCheck.Stream stream, DeliveryCheck.Scope scope, DeliveryCheck.Seen seen,
            long receivedAcknowledged, DeliveryCheck.Clocks clocks) {
        OwedDeliveries o = new OwedDeliveries();
        o.expected = stream.acknowledged;
        o.received = receivedAcknowledged;
        long[] effect = effect(stream, scope, clocks);
        long lastNotOwed;
        long firstOwed;
        if (effect == null) {
            // No window to decide with: every acknowledged message owed, but for what its lapses say.
            lastNotOwed = 0;
            firstOwed = 1;
        } else if (effect.length == 0 || stream.sendTimes == null) {
            // Not placed in time: what is missing before the first arrival may have been sent before the subscription.
            lastNotOwed = 0;
            firstOwed = firstReceived(seen);
        } else {
            lastNotOwed = lastSentBefore(stream.sendTimes, effect[0]);
            firstOwed = firstSentAfter(stream.sendTimes, effect[1]);
        }
        long notOwed = Math.min(stream.acknowledged, acknowledgedIn(stream, 1, lastNotOwed));
        long undecidedRun = Math.min(stream.acknowledged - notOwed, firstOwed == Long.MAX_VALUE
                ? stream.acknowledged - notOwed : acknowledgedIn(stream, lastNotOwed + 1, firstOwed - 1));
        long owedRun = stream.acknowledged - notOwed - undecidedRun;
        long receivedNotOwed;
        long receivedUndecided;
        if (seen == null) {
            receivedNotOwed = 0;
            receivedUndecided = 0;
        } else if (seen.missing != null) {
            receivedNotOwed = Math.min(notOwed, receivedAcknowledgedIn(stream, seen, 1, lastNotOwed));
            receivedUndecided = Math.min(undecidedRun, receivedAcknowledgedIn(stream, seen, lastNotOwed + 1,
                    firstOwed - 1));
        } else {
            // Which messages arrived is not known (a shared group's parts added up): what arrived fills the owed run
            // first, then the undecided one, then the one sent before, so only what cannot have arrived is lost.
            receivedUndecided = Math.min(undecidedRun, Math.max(0, receivedAcknowledged - owedRun));
            receivedNotOwed = Math.min(notOwed, Math.max(0, receivedAcknowledged - owedRun - receivedUndecided));
        }
        // A message sent before the subscription that arrived all the same was delivered (a retained message reaches a
        // later subscriber; the broker routed it after the subscription took effect): owed and met, never dropped
        // from the figures. Only what is missing of it is owed to nobody.
        long[] lapsed = lapsed(stream, scope, seen, firstOwed, clocks);
        o.notOwed = notOwed - receivedNotOwed;
        o.lapsed = lapsed[0];
        o.undecided = undecidedRun - receivedUndecided + lapsed[1];
        o.expected = owedRun + receivedUndecided + receivedNotOwed - lapsed[0] - lapsed[1];
        o.received = Math.min(o.expected, receivedAcknowledged);
        return o;
    }

    /**
     * What is missing of the owed run (from {@code firstOwed}) in the scope's lapses: {@code [owed to nobody,
     * undecided]}. Nothing when the scope has none, or when which messages arrived is not known exactly.
     */
    private static long[] lapsed(DeliveryCheck.Stream stream, DeliveryCheck.Scope scope, DeliveryCheck.Seen seen,
            long firstOwed, DeliveryCheck.Clocks clocks) {
        if (scope.lapses.isEmpty() || firstOwed == Long.MAX_VALUE || seen != null && seen.missing == null) {
            return new long[2];
        }
        int publisher = stream.id >>> DeliveryLedger.LOCAL_STREAM_BITS;
        long last = stream.acknowledged + Ranges.count(stream.failed);
        long[] notOwed = new long[2 * scope.lapses.size()];
        long[] undecided = new long[2 * scope.lapses.size()];
        int n = 0;
        for (DeliveryCheck.Lapse lapse : scope.lapses) {
            long above = Math.max(lapse.highest(stream.id), firstOwed - 1);
            long[] difference = clocks.difference(lapse.engine, publisher);
            long lastBefore;
            long firstAfter;
            Long sentBefore = lapse.sentBefore.get(stream.id);
            Long sentAfter = lapse.sentAfter.get(stream.id);
            if (sentBefore != null && sentAfter != null) {
                // Its own engine's stream, read around the SUBSCRIBE and the SUBACK: no clock, no step between.
                lastBefore = Math.max(above, sentBefore);
                firstAfter = sentAfter;
            } else if (difference == null || stream.sendTimes == null) {
                lastBefore = above;
                firstAfter = firstReceivedAbove(seen, above);
            } else {
                lastBefore = Math.max(above, lastSentBefore(stream.sendTimes, earliest(lapse.from, difference)));
                firstAfter = firstSentAfter(stream.sendTimes, latest(lapse.to, difference));
            }
            long firstBack = firstReceivedAbove(seen, above);
            if (firstBack != Long.MAX_VALUE) {
                // The order rule: what was sent after the first message that came back reached the broker after it,
                // when the new subscription held; what is missing before it was routed before the subscription. What
                // was sent after the SUBACK stays owed, whatever came back.
                lastBefore = Math.min(firstBack, firstAfter) - 1;
                firstAfter = lastBefore + 1;
            }
            notOwed[n] = above + 1;
            notOwed[n + 1] = Math.min(lastBefore, last);
            undecided[n] = lastBefore + 1;
            undecided[n + 1] = Math.min(firstAfter == Long.MAX_VALUE ? last : firstAfter - 1, last);
            n += 2;
        }
        long[] notOwedRanges = ranges(notOwed);
        long[] undecidedRanges = ranges(undecided);
        // Owed to nobody by one lapse is owed to nobody, whatever another's window says of it.
        long missingNotOwed = missingIn(stream, seen, notOwedRanges);
        long missingUndecided = missingIn(stream, seen, undecidedRanges)
                - missingIn(stream, seen, intersection(undecidedRanges, notOwedRanges));
        return new long[] {missingNotOwed, missingUndecided};
    }

    /** {@code pairs} as sorted disjoint ranges, those that hold no number left out. */
    private static long[] ranges(long[] pairs) {
        long[] out = new long[pairs.length];
        int k = 0;
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (pairs[i] <= pairs[i + 1]) {
                out[k++] = pairs[i];
                out[k++] = pairs[i + 1];
            }
        }
        return Ranges.normalise(out, k);
    }

    /** The members of both range sets, as ranges. */
    private static long[] intersection(long[] a, long[] b) {
        long[] out = new long[0];
        for (int i = 0; i + 1 < b.length; i += 2) {
            long[] part = clip(a, b[i], b[i + 1]);
            long[] joined = Arrays.copyOf(out, out.length + part.length);
            System.arraycopy(part, 0, joined, out.length, part.length);
            out = joined;
        }
        return out;
    }

    /** Acknowledged messages in {@code ranges} the scope did not receive. */
    private static long missingIn(DeliveryCheck.Stream stream, DeliveryCheck.Seen seen, long[] ranges) {
        long missing = 0;
        for (int i = 0; i + 1 < ranges.length; i += 2) {
            missing += acknowledgedIn(stream, ranges[i], ranges[i + 1])
                    - (seen == null ? 0 : receivedAcknowledgedIn(stream, seen, ranges[i], ranges[i + 1]));
        }
        return missing;
    }

    /** The lowest sequence number above {@code above} the scope received; MAX_VALUE when none. */
    private static long firstReceivedAbove(DeliveryCheck.Seen seen, long above) {
        if (seen == null || seen.highest <= above) {
            return Long.MAX_VALUE;
        }
        long candidate = above + 1;
        for (int i = 0; i + 1 < seen.missing.length; i += 2) {
            if (seen.missing[i] <= candidate && candidate <= seen.missing[i + 1]) {
                candidate = seen.missing[i + 1] + 1;
            }
        }
        return candidate > seen.highest ? Long.MAX_VALUE : candidate;
    }

    /**
     * When the scope's subscription to the stream's topic took effect, in the publisher's clock: {@code [earliest,
     * latest]} µs; empty when some window's clocks are not measured; null when some matching filter has no window
     * (nothing to decide with). The earliest over the matching filters and a shared group's parts: the first to take
     * effect is the scope's.
     */
    private static long[] effect(DeliveryCheck.Stream stream, DeliveryCheck.Scope scope, DeliveryCheck.Clocks clocks) {
        if (scope.windows.isEmpty()) {
            return null;
        }
        int publisher = stream.id >>> DeliveryLedger.LOCAL_STREAM_BITS;
        long earliest = Long.MAX_VALUE;
        long latest = Long.MAX_VALUE;
        boolean unmeasured = false;
        for (String filter : scope.filters) {
            if (!TopicMatcher.matches(filter, stream.topic)) {
                continue;
            }
            boolean windowed = false;
            for (DeliveryCheck.Window w : scope.windows) {
                if (!w.filter.equals(filter)) {
                    continue;
                }
                windowed = true;
                long[] difference = clocks.difference(w.engine, publisher);
                if (difference == null) {
                    unmeasured = true;
                    continue;
                }
                earliest = Math.min(earliest, earliest(w.from, difference));
                latest = Math.min(latest, latest(w.to, difference));
            }
            if (!windowed) {
                return null;
            }
        }
        if (unmeasured) {
            return new long[0];
        }
        return earliest == Long.MAX_VALUE ? null : new long[] {earliest, latest};
    }

    /**
     * A subscribing engine's instant {@code micros} as the earliest it can be on the publisher's clock, with the clocks'
     * {@code [difference, bound]}.
     */
    private static long earliest(long micros, long[] difference) {
        return micros - difference[0] - difference[1];
    }

    /** As {@link #earliest}, the latest it can be. */
    private static long latest(long micros, long[] difference) {
        return micros - difference[0] + difference[1];
    }

    /** The highest sequence number surely sent before {@code micros}: the last checkpoint before it (0: none). */
    private static long lastSentBefore(long[] sendTimes, long micros) {
        long last = 0;
        for (int i = 0; i + 1 < sendTimes.length && sendTimes[i + 1] < micros; i += 2) {
            last = sendTimes[i];
        }
        return last;
    }

    /** The lowest sequence number surely sent after {@code micros}: the first checkpoint after it (none: MAX_VALUE). */
    private static long firstSentAfter(long[] sendTimes, long micros) {
        for (int i = 0; i + 1 < sendTimes.length; i += 2) {
            if (sendTimes[i + 1] > micros) {
                return sendTimes[i];
            }
        }
        return Long.MAX_VALUE;
    }

    /** The lowest sequence number the scope received of the stream; MAX_VALUE when none, 1 when not known. */
    private static long firstReceived(DeliveryCheck.Seen seen) {
        if (seen == null || seen.unique == 0) {
            return Long.MAX_VALUE;
        }
        if (seen.missing == null || seen.missing.length == 0 || seen.missing[0] > 1) {
            return 1;
        }
        return seen.missing[1] + 1;
    }

    /** Acknowledged sequence numbers in {@code [from, to]}: those handed out there that did not fail. */
    private static long acknowledgedIn(DeliveryCheck.Stream stream, long from, long to) {
        if (to < from) {
            return 0;
        }
        return to - from + 1 - Ranges.count(clip(stream.failed, from, to));
    }

    /** Acknowledged sequence numbers in {@code [from, to]} the scope received. */
    private static long receivedAcknowledgedIn(DeliveryCheck.Stream stream, DeliveryCheck.Seen seen, long from, long to) {
        long upTo = Math.min(to, seen.highest);
        if (upTo < from) {
            return 0;
        }
        long[] missing = clip(seen.missing, from, upTo);
        long[] failed = clip(stream.failed, from, upTo);
        long received = upTo - from + 1 - Ranges.count(missing);
        long receivedFailed = Ranges.count(failed) - Ranges.overlap(failed, missing);
        return received - receivedFailed;
    }

    /** The members of {@code ranges} in {@code [from, to]}, as ranges. */
    private static long[] clip(long[] ranges, long from, long to) {
        long[] out = new long[ranges.length];
        int k = 0;
        for (int i = 0; i + 1 < ranges.length; i += 2) {
            long a = Math.max(ranges[i], from);
            long b = Math.min(ranges[i + 1], to);
            if (a <= b) {
                out[k++] = a;
                out[k++] = b;
            }
        }
        return Arrays.copyOf(out, k);
    }
}
