package io.mqttload.engine;

import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.SamplerMetrics;

/**
 * The plan's publishing schedule, where a Publish sampler's rate or throughput timers set one, against what the engine
 * offered: a second of the steady phase in which some Publish sampler's rate over the last {@link #WINDOW_SECONDS} s stayed under
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
    /** Messages of paced samples whose intended send time fell in the measured window. */
    private final LongAdder scheduledInWindow = new LongAdder();
    /** Where the measured window begins (wall clock, µs): the warm-up's end; the whole run without a warm-up. */
    private volatile long measuredFromMicros = Long.MIN_VALUE;

    /** One paced sampler: the threads that run it with their share of the schedule, and its recent published counts. */
    private static final class Target {
        private final Map<Thread, PacedThread> threads = new ConcurrentHashMap<>();
        private final ArrayDeque<long[]> window = new ArrayDeque<>();

        /** The scheduled rate now: threads that ended publish no more and are owed nothing. */
        double messagesPerSecond() {
            double rate = 0;
            for (Map.Entry<Thread, PacedThread> t : threads.entrySet()) {
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
    public void offer(SamplerMetrics sampler, PacedThread messagesPerSecond) {
        targets.computeIfAbsent(sampler, s -> new Target()).threads.put(Thread.currentThread(), messagesPerSecond);
    }

    /** The warm-up ended at {@code micros} (wall clock): slots of a sampler's own schedule count from here. */
    void measuredFrom(long micros) {
        measuredFromMicros = micros;
    }

    /**
     * A paced sample of {@code messages} starts in the measured window: they were offered there. Counted at the
     * intended send time's granularity (whole samples), like what the broker then acknowledges and delivers, so that
     * offered and delivered over a window agree to the message however the window's edges cut the samples.
     */
    public void offeredInWindow(int messages) {
        scheduledInWindow.add(messages);
    }

    /**
     * The messages offered in the measured window ending at {@code endMicros} (wall clock, µs): the samples that
     * started in it, and the whole intervals that threads held up (by a broker that does not acknowledge, or a busy
     * generator) owed at its end and never started, which the plan offered all the same. A sampler's own schedule
     * offered exactly its slots in the window, sent or owed, up to where each thread stopped publishing.
     */
    long scheduledInWindow(long endMicros) {
        long owed = 0;
        for (Target t : targets.values()) {
            for (PacedThread thread : t.threads.values()) {
                if (thread instanceof PublishSlots) {
                    PublishSlots slots = (PublishSlots) thread;
                    owed += slots.slotsIn(measuredFromMicros, slots.offeredUntil(endMicros));
                } else {
                    owed += thread.owedMessages(endMicros);
                }
            }
        }
        return scheduledInWindow.sum() + owed;
    }

    /**
     * One tick: outside the steady phase the windows start again; a second behind is counted once for all samplers.
     */
    void tick(EngineMetrics metrics, boolean steady, Consumer<String> event) {
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
                    + " schedule asks (its rate or throughput timers): the broker saw less load than the plan asks", sampler.label, offered,
                    seconds, scheduled);
        }
    }
}
