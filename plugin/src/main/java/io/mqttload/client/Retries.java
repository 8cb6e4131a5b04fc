package io.mqttload.client;

import java.util.Random;

/**
 * One connection's attempts under its {@link ReconnectPolicy}: after each failed connect or lost connection, whether
 * to try again and after how long. The transports ask it and schedule what it answers (the HiveMQ client through its
 * reconnector); it keeps the delay decorrelated jitter grows from. Called on the connection's event loop only.
 */
public final class Retries {
    /** No further attempt. */
    public static final long NONE = -1;

    private final ReconnectPolicy policy;
    private final Random random;
    private long previousMillis;

    public Retries(ReconnectPolicy policy, Random random) {
        this.policy = policy;
        this.random = random;
        this.previousMillis = policy.firstPreviousMillis();
    }

    /**
     * Whole milliseconds from now until {@code nanoTime} (a {@link System#nanoTime()} instant), rounded up so that a
     * delay of that many milliseconds never ends before it; 0 when it has passed.
     */
    public static long millisUntil(long nanoTime) {
        long nanos = nanoTime - System.nanoTime();
        return nanos <= 0 ? 0 : (nanos + 999_999) / 1_000_000;
    }

    public ReconnectPolicy policy() {
        return policy;
    }

    /**
     * The delay before the next attempt, or {@link #NONE}.
     *
     * @param firstConnect whether the connection never worked: retried only when the policy says so
     * @param attemptsDone attempts already made in this outage (a first connect's own attempt not counted)
     * @param refusal      the CONNACK's refusal code of the attempt that failed, or -1 when it was not refused: a
     *                     refusal that does not mean "later" ({@link ReconnectPolicy#meansLater}) ends the attempts
     * @param mqtt5        whether {@code refusal} is an MQTT 5 reason code (else an MQTT 3.1.1 return code)
     */
    public long next(boolean firstConnect, int attemptsDone, int refusal, boolean mqtt5) {
        if (firstConnect && !policy.retriesFirstConnect() || !policy.allowsAttempt(attemptsDone)
                || refusal >= 0 && !ReconnectPolicy.meansLater(refusal, mqtt5)) {
            return NONE;
        }
        long delay = policy.delayMillis(attemptsDone, previousMillis, random);
        previousMillis = delay;
        return delay;
    }

    /** The connection is up: the next outage starts its series again. */
    public void connected() {
        previousMillis = policy.firstPreviousMillis();
    }
}
