package io.mqttload.summary;

import java.util.Locale;
import java.util.function.ToLongFunction;

import io.mqttload.measure.Count;

/**
 * The recovery from the outages a plan declared, in one line for the engine's summary and every form of the merged
 * report: each figure is a declared count ({@code Count.OUTAGE_*}, {@code RECOVERY_*}), the refusals by CONNACK reason
 * and the delivery figures are the counts the run already keeps, so nothing is counted twice.
 */
public final class RecoveryFigures {
    private RecoveryFigures() {
    }

    /** The line ("" when the plan declared no outage). */
    public static String line(ToLongFunction<Count> count) {
        if (count.applyAsLong(Count.OUTAGES_DECLARED) == 0) {
            return "";
        }
        long affected = count.applyAsLong(Count.OUTAGE_CLIENTS);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d outage(s) declared, %d client(s) taken"
                + " offline, %d back", count.applyAsLong(Count.OUTAGES_DECLARED), affected,
                count.applyAsLong(Count.OUTAGE_CLIENTS_BACK)));
        if (affected > 0) {
            b.append(String.format(Locale.ROOT, "; outage from %.3f s to %.3f s of the run as the clients saw it; back"
                    + " 50 %% %s, 90 %% %s, 99 %% %s, 100 %% %s (bound %d ms); attempts per client median %d, max %d",
                    count.applyAsLong(Count.OUTAGE_START_MILLIS) / 1000.0,
                    count.applyAsLong(Count.OUTAGE_END_MILLIS) / 1000.0, ms(count, Count.RECOVERY_P50_MILLIS),
                    ms(count, Count.RECOVERY_P90_MILLIS), ms(count, Count.RECOVERY_P99_MILLIS),
                    ms(count, Count.RECOVERY_P100_MILLIS), count.applyAsLong(Count.RECOVERY_BOUND_MILLIS),
                    count.applyAsLong(Count.RECOVERY_ATTEMPTS_MEDIAN), count.applyAsLong(Count.RECOVERY_ATTEMPTS_MAX)));
        }
        b.append(String.format(Locale.ROOT, "; CONNACK refusals: server unavailable %d, busy %d, quota exceeded %d,"
                + " connection rate exceeded %d; sessions kept %d, lost %d", count.applyAsLong(Count.CONNACK_SERVER_UNAVAILABLE),
                count.applyAsLong(Count.CONNACK_SERVER_BUSY), count.applyAsLong(Count.CONNACK_QUOTA_EXCEEDED),
                count.applyAsLong(Count.CONNACK_CONNECTION_RATE_EXCEEDED), count.applyAsLong(Count.OUTAGE_SESSIONS_KEPT),
                count.applyAsLong(Count.OUTAGE_SESSIONS_LOST)));
        long backlog = count.applyAsLong(Count.BACKLOG_RECEIVED);
        long drain = count.applyAsLong(Count.BACKLOG_DRAIN_MILLIS);
        b.append(String.format(Locale.ROOT, "; backlog drained: %d message(s) in %d ms%s", backlog, drain,
                drain == 0 ? "" : String.format(Locale.ROOT, " (%.1f msg/s)", backlog * 1000.0 / drain)));
        long notOwed = 0;
        for (Count c : Count.NOT_OWED_DELIVERIES) {
            notOwed += count.applyAsLong(c);
        }
        b.append(String.format(Locale.ROOT, "; messages owed %d, delivered %d, lost against the promise %d, not owed %d,"
                + " duplicated %d", count.applyAsLong(Count.EXPECTED), count.applyAsLong(Count.RECEIVED_OF_EXPECTED),
                count.applyAsLong(Count.LOST_FROM_KEPT_SESSIONS), notOwed, count.applyAsLong(Count.DUPLICATES)));
        return b.toString();
    }

    /** A share's time, "not reached" when fewer clients came back. */
    private static String ms(ToLongFunction<Count> count, Count share) {
        long v = count.applyAsLong(share);
        return v == 0 ? "not reached" : v + " ms";
    }
}
