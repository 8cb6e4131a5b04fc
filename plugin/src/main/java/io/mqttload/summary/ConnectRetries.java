package io.mqttload.summary;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

import io.mqttload.measure.Count;

/** The retries line of an engine's summary and of the merged report. */
public final class ConnectRetries {
    /** The CONNACK refusals that mean "later", in a report's words, in the order it lists them. */
    private static final Map<Count, String> LATER_REFUSALS = laterRefusals();

    private ConnectRetries() {
    }

    /**
     * What the clients' retries did ("" when no connect was retried nor refused "later"): connect attempts, first
     * connects retried, reconnect attempts, CONNACK refusals meaning "later" by reason, first connects given up; in
     * the summary's and the report's words.
     */
    public static String line(ToLongFunction<Count> count) {
        StringBuilder refusals = new StringBuilder();
        long refused = 0;
        for (Map.Entry<Count, String> r : LATER_REFUSALS.entrySet()) {
            long n = count.applyAsLong(r.getKey());
            if (n > 0) {
                refusals.append(refusals.length() == 0 ? "" : ", ").append(n).append(' ').append(r.getValue());
                refused += n;
            }
        }
        long retries = count.applyAsLong(Count.CONNECT_RETRIES);
        long reconnectAttempts = count.applyAsLong(Count.RECONNECT_ATTEMPTS_MADE);
        if (retries == 0 && reconnectAttempts == 0 && refused == 0) {
            return "";
        }
        long gaveUp = count.applyAsLong(Count.CONNECTS_GIVEN_UP);
        return String.format(Locale.ROOT, "connect attempts %d: %d first-connect retries, %d reconnect attempts%s%s",
                count.applyAsLong(Count.CONNECT_ATTEMPTS), retries, reconnectAttempts,
                refused == 0 ? "" : "; refused 'later': " + refusals,
                gaveUp == 0 ? "" : "; " + gaveUp + " first connect(s) gave up");
    }

    private static Map<Count, String> laterRefusals() {
        Map<Count, String> m = new EnumMap<>(Count.class);
        m.put(Count.CONNACK_SERVER_UNAVAILABLE, "server unavailable");
        m.put(Count.CONNACK_SERVER_BUSY, "server busy");
        m.put(Count.CONNACK_QUOTA_EXCEEDED, "quota exceeded");
        m.put(Count.CONNACK_CONNECTION_RATE_EXCEEDED, "connection rate exceeded");
        return Collections.unmodifiableMap(m);
    }
}
