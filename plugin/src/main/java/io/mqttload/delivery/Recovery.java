package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

import io.mqttload.measure.Count;

/**
 * The verdict's words on a run whose plan declared an outage (MQTT Outage): the rule that judges it on recovery
 * (every client it took offline back, within the plan's bound) and the clause the verdict line carries. Part of
 * {@link Judgement}: one rule, one vocabulary; a run without a declared outage reads nothing here.
 */
final class Recovery {
    private Recovery() {
    }

    /** Why the recovery failed, or nothing: each reason makes the verdict FAILED. */
    static List<String> failures(ToLongFunction<Count> count) {
        List<String> why = new ArrayList<>();
        long affected = count.applyAsLong(Count.OUTAGE_CLIENTS);
        long back = count.applyAsLong(Count.OUTAGE_CLIENTS_BACK);
        long bound = count.applyAsLong(Count.RECOVERY_BOUND_MILLIS);
        long all = count.applyAsLong(Count.RECOVERY_P100_MILLIS);
        if (affected == 0) {
            why.add("the outage the plan declared was not seen: no client lost its connection after the declaration");
        } else if (back < affected) {
            why.add(String.format(Locale.ROOT, "%d of %d client(s) the declared outage took offline were not connected"
                    + " again", affected - back, affected));
        } else if (bound > 0 && all > bound) {
            why.add(String.format(Locale.ROOT, "recovery from the declared outage took %d ms until every client was"
                    + " connected again, over the plan's bound of %d ms", all, bound));
        }
        return why;
    }

    /** The recovery clause of the verdict line ("" without a declared outage). */
    static String line(ToLongFunction<Count> count) {
        if (count.applyAsLong(Count.OUTAGES_DECLARED) == 0) {
            return "";
        }
        long affected = count.applyAsLong(Count.OUTAGE_CLIENTS);
        long back = count.applyAsLong(Count.OUTAGE_CLIENTS_BACK);
        StringBuilder b = new StringBuilder("; declared outage: ");
        if (affected == 0) {
            return b.append("not seen (no client lost its connection)").toString();
        }
        b.append(String.format(Locale.ROOT, "%d of %d client(s) back", back, affected));
        if (back == affected) {
            b.append(String.format(Locale.ROOT, ", recovered in %d ms (bound %d ms; 50 %% back in %d ms, 90 %% in %d ms,"
                    + " 99 %% in %d ms)", count.applyAsLong(Count.RECOVERY_P100_MILLIS),
                    count.applyAsLong(Count.RECOVERY_BOUND_MILLIS), count.applyAsLong(Count.RECOVERY_P50_MILLIS),
                    count.applyAsLong(Count.RECOVERY_P90_MILLIS), count.applyAsLong(Count.RECOVERY_P99_MILLIS)));
        }
        b.append(String.format(Locale.ROOT, ", sessions kept %d, lost %d; lost against the broker's promise %d",
                count.applyAsLong(Count.OUTAGE_SESSIONS_KEPT), count.applyAsLong(Count.OUTAGE_SESSIONS_LOST),
                count.applyAsLong(Count.LOST_FROM_KEPT_SESSIONS)));
        long publishes = count.applyAsLong(Count.PUBLISH_FAILED_IN_OUTAGE);
        if (publishes > 0) {
            b.append(String.format(Locale.ROOT, "; %d publish(es) failed while it held their client offline"
                    + " (publishFailedInOutage, not failures)", publishes));
        }
        return b.toString();
    }
}
