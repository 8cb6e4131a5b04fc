package io.mqttload.client;

import java.util.Random;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.ConnectSettings;

/**
 * How a device retries a connection: after a lost one, and (when {@link #retriesFirstConnect()}) after a first connect
 * that failed. The delays follow the AWS Architecture Blog's definitions ("Exponential Backoff And Jitter", 2015), with
 * {@code base} the first delay, {@code cap} the longest and {@code n} the 0-based attempt: none, immediate (0), fixed
 * ({@code base}), exponential ({@code min(cap, base * 2^n)}, today's doubling delay and the default), full jitter
 * ({@code random_between(0, min(cap, base * 2^n))}) and decorrelated jitter ({@code min(cap, random_between(base,
 * previous * 3))}, the previous delay starting at {@code base}). A first connect may wait a random time between
 * {@code initialWaitMin} and {@code initialWaitMax} first, as a fleet's devices start apart. Pure: no client library,
 * the random source given, so tests hold each policy to its definition with a seed.
 */
public final class ReconnectPolicy {
    /** The policies; the names are the {@code reconnectPolicy} setting's values. */
    public enum Kind {
        NONE, IMMEDIATE, FIXED, EXPONENTIAL, FULL_JITTER, DECORRELATED_JITTER
    }

    /** The {@code reconnectAttempts} value for attempts without a bound: the run's end stops them. */
    public static final int UNBOUNDED = -1;

    private final Kind kind;
    /** Attempts per outage; {@link Integer#MAX_VALUE} when unbounded. */
    private final int maxAttempts;
    private final long baseMillis;
    private final long capMillis;
    private final long initialWaitMinMillis;
    private final long initialWaitMaxMillis;
    private final boolean retryFirstConnect;

    /**
     * Today's policy: exponential, {@code maxAttempts} after a lost connection, a first connect that fails not retried,
     * no initial wait.
     */
    public ReconnectPolicy(int maxAttempts, long baseMillis, long capMillis) {
        this(Kind.EXPONENTIAL, maxAttempts, baseMillis, capMillis, 0, 0, false);
    }

    /**
     * Each value within its setting's range ({@code ConnectSettings}); refuses only what no single setting's check can
     * see: a cap below the base, a longest initial wait below the shortest.
     *
     * @param maxAttempts attempts per outage, or {@link #UNBOUNDED}
     */
    public ReconnectPolicy(Kind kind, int maxAttempts, long baseMillis, long capMillis, long initialWaitMinMillis,
            long initialWaitMaxMillis, boolean retryFirstConnect) {
        if (capMillis < baseMillis) {
            throw new InvalidSettingException("reconnectMaxDelayMs", capMillis, "must be between " + baseMillis
                    + " (reconnectDelayMs) and " + ConnectSettings.MAX_RECONNECT_DELAY_MS);
        }
        if (initialWaitMaxMillis < initialWaitMinMillis) {
            throw new InvalidSettingException("initialWaitMaxMs", initialWaitMaxMillis, "must be between "
                    + initialWaitMinMillis + " (initialWaitMinMs) and " + ConnectSettings.MAX_RECONNECT_DELAY_MS);
        }
        this.kind = kind;
        this.maxAttempts = kind == Kind.NONE ? 0 : maxAttempts == UNBOUNDED ? Integer.MAX_VALUE : maxAttempts;
        this.baseMillis = baseMillis;
        this.capMillis = capMillis;
        this.initialWaitMinMillis = initialWaitMinMillis;
        this.initialWaitMaxMillis = initialWaitMaxMillis;
        this.retryFirstConnect = retryFirstConnect;
    }

    public static ReconnectPolicy none() {
        return new ReconnectPolicy(0, 0, 0);
    }

    /**
     * Retries until the client is closed: for the engine's control clients that must outlive a broker restart the
     * load's clients count as failures (the rendezvous, the broker agent).
     */
    static ReconnectPolicy untilClosed(long initialDelayMillis, long maxDelayMillis) {
        return new ReconnectPolicy(Kind.EXPONENTIAL, UNBOUNDED, initialDelayMillis, maxDelayMillis, 0, 0, false);
    }

    public Kind kind() {
        return kind;
    }

    /** Attempts per outage; {@link Integer#MAX_VALUE} when unbounded. */
    public int maxAttempts() {
        return maxAttempts;
    }

    public boolean isUnbounded() {
        return maxAttempts == Integer.MAX_VALUE;
    }

    /** Whether a first connect that failed is retried under this policy (a device's is; a benchmark's may not be). */
    public boolean retriesFirstConnect() {
        return retryFirstConnect && maxAttempts > 0;
    }

    /** Whether a connection with {@code attemptsDone} failed attempts in this outage may try once more. */
    public boolean allowsAttempt(int attemptsDone) {
        return attemptsDone < maxAttempts;
    }

    /** The wait before a first connect: uniform between the shortest and the longest. */
    public long initialWaitMillis(Random random) {
        return between(initialWaitMinMillis, initialWaitMaxMillis, random);
    }

    /** The longest initial wait, for bounding the wait for a first connect. */
    public long initialWaitMaxMillis() {
        return initialWaitMaxMillis;
    }

    /**
     * The delay before attempt {@code attempt} (0-based within the outage).
     *
     * @param previousMillis the delay before the previous attempt ({@code base} before the first): decorrelated jitter
     *                       grows from it
     */
    public long delayMillis(int attempt, long previousMillis, Random random) {
        switch (kind) {
            case FULL_JITTER:
                return between(0, exponential(attempt), random);
            case DECORRELATED_JITTER:
                long upper = Math.max(baseMillis, saturatingTimes3(Math.max(previousMillis, baseMillis)));
                return Math.min(capMillis, between(baseMillis, upper, random));
            default:
                // Without jitter, the delay is the longest there is.
                return longestDelayMillis(attempt);
        }
    }

    /** The delay a decorrelated series starts from: the base. */
    public long firstPreviousMillis() {
        return baseMillis;
    }

    /** The longest delay before attempt {@code attempt} any draw can give, for bounding waits. */
    public long longestDelayMillis(int attempt) {
        switch (kind) {
            case NONE:
            case IMMEDIATE:
                return 0;
            case FIXED:
                return baseMillis;
            case DECORRELATED_JITTER:
                return capMillis;
            default:
                // Exponential, and full jitter's upper end.
                return exponential(attempt);
        }
    }

    /** {@code min(cap, base * 2^attempt)}, without overflowing. */
    private long exponential(int attempt) {
        long d = baseMillis;
        for (int i = 0; i < attempt && d < capMillis; i++) {
            d *= 2;
        }
        return Math.min(d, capMillis);
    }

    private static long saturatingTimes3(long v) {
        return v > Long.MAX_VALUE / 3 ? Long.MAX_VALUE : v * 3;
    }

    /** A whole number drawn uniformly from {@code [low, high]}. */
    private static long between(long low, long high, Random random) {
        if (high <= low) {
            return low;
        }
        long span = high - low + 1;
        return low + Math.min(span - 1, (long) (random.nextDouble() * span));
    }

    /** The longest a whole bounded sequence of attempts may take, for bounding waits. */
    public long worstCaseMillis(long connectTimeoutMillis) {
        if (isUnbounded()) {
            throw new IllegalStateException("a policy that retries until its client is closed has no worst case");
        }
        long total = 0;
        for (int i = 0; i < maxAttempts; i++) {
            total += longestDelayMillis(i) + connectTimeoutMillis;
        }
        return total;
    }

    /**
     * The policy in a report's setup words, e.g. "EXPONENTIAL (3 attempts, 1000 to 10000 ms)": in parentheses, as the
     * setup line separates its entries with commas.
     */
    public String describe() {
        if (maxAttempts == 0) {
            return "none" + (initialWaitMaxMillis > 0 ? " (" + initialWait() + ")" : "");
        }
        StringBuilder d = new StringBuilder(kind.name()).append(" (")
                .append(isUnbounded() ? "unbounded" : Integer.toString(maxAttempts)).append(" attempts");
        if (kind != Kind.IMMEDIATE) {
            d.append(", ").append(baseMillis).append(kind == Kind.FIXED ? "" : " to " + capMillis).append(" ms");
        }
        d.append(retryFirstConnect ? "; first connect retried" : "");
        d.append(initialWaitMaxMillis > 0 ? "; " + initialWait() : "");
        return d.append(')').toString();
    }

    private String initialWait() {
        return "initial wait " + initialWaitMinMillis + " to " + initialWaitMaxMillis + " ms";
    }

    /**
     * Whether a CONNACK refusal means "later" and is retried under the policy: server unavailable (MQTT 5 0x88,
     * MQTT 3.1.1 return code 3), server busy (0x89), quota exceeded (0x97), connection rate exceeded (0x9F). Any other
     * refusal (bad credentials, not authorized) would be refused again and is not retried.
     */
    public static boolean meansLater(int code, boolean mqtt5) {
        return mqtt5 ? code == 0x88 || code == 0x89 || code == 0x97 || code == 0x9F : code == 3;
    }
}
