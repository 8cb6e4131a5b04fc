package io.mqttload.engine;

import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.SamplerMetrics;

/**
 * The plan's publishing schedule, where throughput timers set one, against what the engine offered: a second of the
 * steady phase in which some Publish sampler's rate over the last {@link #WINDOW_SECONDS} s stayed under
 * {@link #BEHIND_SHARE} of its schedule counts as behind. The broker then saw less load than the plan says, whether
 * the generator or the broker's acknowledgements held it back. Ticked by the metrics ticker only.
 */
public final class PublishSchedule {
    static final double BEHIND_SHARE = 0.9;
    /** The rate is judged over this many seconds: throughput timers even out over several samples, not within one. */
    static final int WINDOW_SECONDS = 10;
    /** Fewer steady seconds than this judge nothing: the first samples of a paced thread are not yet spread out. */
    static final int MIN_WINDOW_SECONDS = 5;

    private final Map<SamplerMetrics, Target> targets = new ConcurrentHashMap<>();
    /** Messages scheduled over the measured window so far: from its start to {@link #accountedToMillis}. */
    private double scheduledInWindow;
    /** Up to where the window's schedule is added (ms since the run's start); -1: no window measured now. */
    private long accountedToMillis = -1;
    /** The scheduled rate read at the last tick, held until the next; NaN: none read since the window began. */
    private double heldRate = Double.NaN;

    /** One paced sampler: the threads that run it with their share of the schedule, and its recent published counts. */
    private static final class Target {
        private final Map<Thread, DoubleSupplier> threads = new ConcurrentHashMap<>();
        private final ArrayDeque<long[]> window = new ArrayDeque<>();

        /** The scheduled rate now: threads that ended publish no more and are owed nothing. */
        double messagesPerSecond() {
            double rate = 0;
            for (Map.Entry<Thread, DoubleSupplier> t : threads.entrySet()) {
                if (t.getKey().isAlive()) {
                    rate += t.getValue().getAsDouble();
                }
            }
            return rate;
        }
    }

    /**
     * The calling thread runs {@code sampler} paced by throughput timers that give it {@code messagesPerSecond} (read
     * at every tick: a timer that shares its rate over the active threads gives each a share that changes).
     */
    public void offer(SamplerMetrics sampler, DoubleSupplier messagesPerSecond) {
        targets.computeIfAbsent(sampler, s -> new Target()).threads.put(Thread.currentThread(), messagesPerSecond);
    }

    /**
     * The measured window begins at {@code fromMillis} (ms since the run's start), or none is measured now (-1): the
     * scheduled messages counted so far are dropped.
     */
    synchronized void window(long fromMillis) {
        scheduledInWindow = 0;
        accountedToMillis = fromMillis;
        heldRate = Double.NaN;
    }

    /**
     * The messages the throughput timers scheduled over the measured window, to {@code productionEndMillis}: the
     * offered load, which over the window's seconds is exact where the timers' rates are fractional.
     */
    synchronized long scheduledInWindow(long productionEndMillis) {
        account(productionEndMillis, Double.isNaN(heldRate) ? scheduledRate() : heldRate);
        return Math.round(scheduledInWindow);
    }

    /**
     * Adds the schedule of the window's time up to {@code untilMillis} at {@code rate}. Only up to the last Publish
     * sample's end: the window closes with production, while paced threads may live on at a barrier, still counted as
     * scheduled for a couple of seconds.
     */
    private void account(long untilMillis, double rate) {
        if (accountedToMillis >= 0 && untilMillis > accountedToMillis) {
            scheduledInWindow += rate * (untilMillis - accountedToMillis) / 1000.0;
            accountedToMillis = untilMillis;
        }
    }

    private double scheduledRate() {
        double rate = 0;
        for (Target t : targets.values()) {
            rate += t.messagesPerSecond();
        }
        return rate;
    }

    /**
     * One tick: outside the steady phase the windows start again; a second behind is counted once for all samplers. The
     * measured window's schedule is added up to {@code lastPublishEndMillis} (ms since the run's start) at the rate read
     * at the tick before (sample and hold: a thread that ended since reads 0 now but was owed its messages until it
     * ended), or at this tick's when the window began after the last.
     */
    void tick(EngineMetrics metrics, boolean steady, long lastPublishEndMillis, Consumer<String> event) {
        long now = System.nanoTime();
        String behind = null;
        double scheduled = 0;
        for (Map.Entry<SamplerMetrics, Target> e : targets.entrySet()) {
            double rate = e.getValue().messagesPerSecond();
            scheduled += rate;
            String late = check(e.getKey(), e.getValue(), rate, steady, now);
            if (behind == null) {
                behind = late;
            }
        }
        synchronized (this) {
            account(lastPublishEndMillis, Double.isNaN(heldRate) ? scheduled : heldRate);
            heldRate = scheduled;
        }
        if (steady) {
            metrics.peak(Count.SCHEDULED_PUBLISH_RATE, Math.round(scheduled));
        }
        if (behind != null) {
            metrics.count(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS);
            if (metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS) == 1) {
                event.accept(behind);
            }
        }
    }

    private static String check(SamplerMetrics sampler, Target target, double scheduled, boolean steady, long now) {
        synchronized (target) {
            if (!steady) {
                target.window.clear();
                return null;
            }
            long published = sampler.sum(Count.PUBLISHED);
            target.window.addLast(new long[] {now, published});
            if (target.window.size() > WINDOW_SECONDS + 1) {
                target.window.removeFirst();
            }
            if (target.window.size() <= MIN_WINDOW_SECONDS) {
                return null;
            }
            long[] first = target.window.getFirst();
            double seconds = (now - first[0]) / 1e9;
            double offered = (published - first[1]) / seconds;
            if (scheduled <= 0 || offered >= BEHIND_SHARE * scheduled) {
                return null;
            }
            return String.format(Locale.ROOT, "'%s' published %.1f msg/s over the last %.0f s, behind the %.1f msg/s its"
                    + " throughput timers schedule: the broker saw less load than the plan asks", sampler.label, offered,
                    seconds, scheduled);
        }
    }
}
