package io.mqttload.summary;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

import io.mqttload.measure.Count;

/**
 * The rates of a run, declared once: a rate is what happened inside its window. The publish and receive rates count
 * what was acknowledged and received within the measured window ({@link Count#ACKNOWLEDGED_IN_WINDOW},
 * {@link Count#RECEIVED_IN_WINDOW}) over its seconds; what arrived after production is the drain's, reported beside
 * them (count, time, rate) and never folded in: through a broker at its limit, the backlog it delivers after
 * production would otherwise read as a rate it never sustained. The summary, its JSON, the merge, the reports, the
 * sweep and the InfluxDB points read these figures, and nothing else computes a publish, receive or drain rate of a
 * run (the live figures are rates over their own intervals).
 */
public final class Rates {
    /** Acknowledged publishes per second of the measured window. */
    public final double publish;
    /** Messages received per second of the measured window. */
    public final double receive;
    /** Messages received after production: {@link Count#RECEIVED_IN_DRAIN}. */
    public final long drainReceived;
    /** From the end of production until the clients closed: {@link Count#DRAIN_MILLIS}, in seconds. */
    public final double drainSeconds;
    /** {@link #drainReceived} over {@link #drainSeconds}. */
    public final double drainRate;
    /** Whether the figures say what the drain held: summaries written before format 5 do not. */
    public final boolean drainKnown;

    /** Figures that say nothing: no window measured, no drain known. */
    public static final Rates UNKNOWN = new Rates(0, 0, 0, 0, false);

    private Rates(double publish, double receive, long drainReceived, double drainSeconds, boolean drainKnown) {
        this.publish = publish;
        this.receive = receive;
        this.drainReceived = drainReceived;
        this.drainSeconds = drainSeconds;
        this.drainRate = drainSeconds > 0 ? drainReceived / drainSeconds : 0;
        this.drainKnown = drainKnown;
    }

    /** One engine's rates, from its counts over its measured window of {@code measuredSeconds}. */
    public static Rates of(ToLongFunction<Count> count, double measuredSeconds) {
        return new Rates(perSecond(count.applyAsLong(Count.ACKNOWLEDGED_IN_WINDOW), measuredSeconds),
                perSecond(count.applyAsLong(Count.RECEIVED_IN_WINDOW), measuredSeconds),
                count.applyAsLong(Count.RECEIVED_IN_DRAIN), count.applyAsLong(Count.DRAIN_MILLIS) / 1000.0, true);
    }

    /**
     * An engine's rates from its summary. One written before format 5 has no drain figures, and its rate fields
     * counted the drain in: its window counts give the rates instead where it carries them (format 4 does), and a
     * summary without them keeps the rates it was written with.
     */
    public static Rates of(EngineSummary s) {
        if (s.counts.containsKey(Count.DRAIN_MILLIS.key())) {
            return of(s::count, s.measuredSeconds);
        }
        return before5(s.counts, s.measuredSeconds, s.publishRate, s.receiveRate);
    }

    /**
     * A run report's rates: the engines' rates as the merge added them up, and the drain from the merged counts; a
     * report written before format 5 as {@link #of(EngineSummary)} reads a summary of then.
     */
    public static Rates of(ReportFigures r) {
        if (r.counts.containsKey(Count.DRAIN_MILLIS.key())) {
            return new Rates(r.publishRate, r.receiveRate, r.count(Count.RECEIVED_IN_DRAIN),
                    r.count(Count.DRAIN_MILLIS) / 1000.0, true);
        }
        return before5(r.counts, r.measuredSeconds, r.publishRate, r.receiveRate);
    }

    private static Rates before5(Map<String, Long> counts, double seconds, double publishRate, double receiveRate) {
        Long acknowledged = counts.get(Count.ACKNOWLEDGED_IN_WINDOW.key());
        Long received = counts.get(Count.RECEIVED_IN_WINDOW.key());
        return new Rates(acknowledged == null ? publishRate : perSecond(acknowledged, seconds),
                received == null ? receiveRate : perSecond(received, seconds), 0, 0, false);
    }

    /**
     * The run's rates over engines: their window rates add up (each engine's over its own window); the drain is the
     * messages every engine received after production over the longest engine's drain.
     */
    public static Rates merge(List<Rates> engines) {
        double publish = 0;
        double receive = 0;
        long drainReceived = 0;
        double drainSeconds = 0;
        boolean known = !engines.isEmpty();
        for (Rates r : engines) {
            publish += r.publish;
            receive += r.receive;
            drainReceived += r.drainReceived;
            drainSeconds = Math.max(drainSeconds, r.drainSeconds);
            known &= r.drainKnown;
        }
        return new Rates(publish, receive, drainReceived, drainSeconds, known);
    }

    /** "pub : sub" msg/s, as every table shows the actual rate. */
    public String pubSub() {
        return String.format(Locale.ROOT, "%.1f : %.1f", publish, receive);
    }

    /** The drain beside the rates, in words: count, time, rate. */
    public String drainText() {
        if (!drainKnown) {
            return "not recorded (a summary written before format 5)";
        }
        return drainCell() + " received after production, not in the rates";
    }

    /** The drain as a table cell: "16600 in 9.6 s (1729.2 msg/s)", or "n/a" when the figures do not say. */
    public String drainCell() {
        return drainKnown ? String.format(Locale.ROOT, "%d in %.1f s (%.1f msg/s)", drainReceived, drainSeconds, drainRate)
                : "n/a";
    }

    private static double perSecond(long n, double seconds) {
        return seconds <= 0 ? 0 : n / seconds;
    }
}
