package io.mqttload.delivery;

import java.util.Locale;

/**
 * The one verdict vocabulary of the suite: engine summary, merged report (every format), InfluxDB points, the
 * Run End sample's response code and the sweep all speak it. A verdict other than {@link #NO_LOSS} means the run
 * did not show that the broker delivered everything the plan asked for; {@link #passed()} is what exit codes
 * and CI gates read.
 */
public enum Verdict {
    /** Something was expected and all of it arrived; no failure beyond the tolerance. */
    NO_LOSS("NO LOSS"),
    /** Acknowledged messages did not arrive. */
    LOSS("LOSS"),
    /**
     * Messages did not arrive, but subscriptions made late, or subscribers whose broker kept no session across a
     * reconnect, may account for part of it; or nothing owed is missing, yet messages sent while a subscription was
     * being set up did not arrive and the clocks cannot tell whether they were owed.
     */
    LOSS_UNCERTAIN("LOSS (UNCERTAIN)"),
    /** The run could not do what the plan asked: failed connects, subscribes or publishes, a protocol violation, a failed rendezvous. */
    FAILED("FAILED"),
    /** Figures are missing: an engine's summary never arrived, or engines' figures cannot be combined. */
    INCOMPLETE("INCOMPLETE"),
    /** What arrived is judged elsewhere (another engine's publishers) or came from outside the run. */
    NOT_CHECKED("NOT CHECKED"),
    /** A plan that carries no messages (connections only), and did what it asked. */
    NOTHING_TO_CHECK("NOTHING TO CHECK"),
    /**
     * JMeter was asked to stop the test before the plan's end (Stop or Shutdown, stoptest.sh, a Thread Group's on-error
     * action) and nothing failed: the figures cover the run up to the stop, not what the plan asked for.
     */
    STOPPED("STOPPED");

    private final String title;

    Verdict(String title) {
        this.title = title;
    }

    /** The verdict as people read it: "NO LOSS", "LOSS (UNCERTAIN)". */
    public String title() {
        return title;
    }

    /** Whether a pipeline may go on: every expected message arrived and nothing failed. */
    public boolean passed() {
        return this == NO_LOSS;
    }

    /** A verdict that reports a fault (failure, loss, missing figures), as against one that only checked less. */
    public boolean isFault() {
        return this == LOSS || this == LOSS_UNCERTAIN || this == FAILED || this == INCOMPLETE;
    }

    /** Reads a verdict's name as the JSON files carry it; fails naming the value. */
    public static Verdict of(String name) {
        if (name == null) {
            throw new IllegalArgumentException("not an MQTT run verdict: none given");
        }
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an MQTT run verdict: '" + name + "'", e);
        }
    }
}
