package io.mqttload.client;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.ConnectSettings;

/**
 * Bounded reconnection after a lost connection: at most {@code maxAttempts} tries, the delay
 * doubling from {@code initialDelayMillis} up to {@code maxDelayMillis}.
 */
public final class ReconnectPolicy {
    private final int maxAttempts;
    private final long initialDelayMillis;
    private final long maxDelayMillis;

    /**
     * Each value within its setting's range ({@code ConnectSettings}); refuses only a maximum delay below the first,
     * which no single setting's check can see.
     */
    public ReconnectPolicy(int maxAttempts, long initialDelayMillis, long maxDelayMillis) {
        if (maxDelayMillis < initialDelayMillis) {
            throw new InvalidSettingException("reconnectMaxDelayMs", maxDelayMillis, "must be between "
                    + initialDelayMillis + " and " + ConnectSettings.MAX_RECONNECT_DELAY_MS);
        }
        this.maxAttempts = maxAttempts;
        this.initialDelayMillis = initialDelayMillis;
        this.maxDelayMillis = maxDelayMillis;
    }

    private ReconnectPolicy(long initialDelayMillis, long maxDelayMillis) {
        this.maxAttempts = Integer.MAX_VALUE;
        this.initialDelayMillis = initialDelayMillis;
        this.maxDelayMillis = maxDelayMillis;
    }

    public static ReconnectPolicy none() {
        return new ReconnectPolicy(0, 0, 0);
    }

    /**
     * Retries until the client is closed: for the engine's control clients that must outlive a broker restart the
     * load's clients count as failures (the rendezvous, the broker agent).
     */
    static ReconnectPolicy untilClosed(long initialDelayMillis, long maxDelayMillis) {
        return new ReconnectPolicy(initialDelayMillis, maxDelayMillis);
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** Delay before attempt {@code attempt} (0-based). */
    public long delayMillis(int attempt) {
        long d = initialDelayMillis;
        for (int i = 0; i < attempt && d < maxDelayMillis; i++) {
            d *= 2;
        }
        return Math.min(d, maxDelayMillis);
    }

    /** The longest a whole reconnect sequence may take, for bounding waits. */
    public long worstCaseMillis(long connectTimeoutMillis) {
        if (maxAttempts == Integer.MAX_VALUE) {
            throw new IllegalStateException("a policy that retries until its client is closed has no worst case");
        }
        long total = 0;
        for (int i = 0; i < maxAttempts; i++) {
            total += delayMillis(i) + connectTimeoutMillis;
        }
        return total;
    }
}
