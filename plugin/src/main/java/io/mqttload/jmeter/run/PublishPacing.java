package io.mqttload.jmeter.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.SamplePackage;
import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jmeter.timers.Timer;
import org.apache.jorphan.collections.HashTree;

import io.mqttload.engine.PacedThread;
import io.mqttload.measure.MicroClock;

/**
 * The publishing schedule a plan sets with JMeter's Constant Throughput Timer, as one thread's share in messages per
 * second: read from the sample package JMeter compiled for the sampler, counting only timers whose scope holds no
 * other sampler (a timer over several samplers spreads its rate over all of them, and which share is the Publish
 * sampler's cannot be known). The modes that give each thread its own pace are read (this thread only, all active
 * threads, all active threads of the group); the shared modes and the Precise Throughput Timer keep one schedule for
 * whichever threads pass any such timer, which no thread's share can express, and set none. Timers that only wait
 * (constant, random) set none either.
 */
public final class PublishPacing {
    private static final int THIS_THREAD_ONLY = 0;
    private static final int ALL_ACTIVE_THREADS = 1;
    private static final int ALL_ACTIVE_THREADS_IN_GROUP = 2;
    /** A thread out of samples longer than this (and than three of its own intervals) is owed nothing: it waits. */
    private static final long IDLE_MICROS = TimeUnit.SECONDS.toMicros(2);

    private PublishPacing() {
    }

    /**
     * One thread's share of the schedule, updated by the thread at every sample (a timer's rate may change during the
     * run) and read by the engine's ticker. A thread that waits outside its samples for longer than its pace explains
     * (at a barrier before the run's end, say) is owed nothing meanwhile.
     */
    public static final class ThreadPace implements PacedThread {
        private final List<ConstantThroughputTimer> timers;
        private final AbstractThreadGroup group;
        private volatile double messagesPerSecond;
        private volatile boolean inSample;
        private volatile long lastSampleEndMicros = MicroClock.nowMicros();
        /** Where the schedule puts this thread's next sample (wall clock, µs); -1 before the first. */
        private volatile long nextIntendedMicros = -1;
        /** The interval the schedule advanced by at the last sample, µs. */
        private volatile long lastIntervalMicros;
        private volatile int lastMessagesPerSample;
        /** Whether the schedule has started again in the measured window (see intendedMicros). */
        private boolean anchoredInWindow;

        ThreadPace(List<ConstantThroughputTimer> timers, AbstractThreadGroup group) {
            this.timers = timers;
            this.group = group;
        }

        public void sampleStarted() {
            inSample = true;
        }

        /**
         * The intended send time of the sample starting at {@code nowMicros}, or -1 when the timers set no rate: the
         * thread's schedule advances by the timers' delay per sample, computed as the Constant Throughput Timer computes
         * it (whole milliseconds), from the first sample on. The timer itself forgets a sample that started late (its next
         * delay counts from that late start), so a thread held up once stays behind; the schedule does not forget, and
         * every later message of the thread carries the time it lost. A sample that starts before the schedule (the
         * timer's rounding, a raised rate) starts it again from now, and so does a thread that was out of samples for
         * longer than its pace explains (a barrier, a pause): it is owed nothing for that time.
         */
        long intendedMicros(long nowMicros) {
            return intendedMicros(nowMicros, true);
        }

        /**
         * As {@link #intendedMicros(long)}; {@code measuring} tells whether the run's measured window has begun: the first
         * sample in it starts the schedule again, so that lateness from the warm-up (JIT, connections still settling),
         * which the figures exclude, is not carried into every message after it.
         */
        public long intendedMicros(long nowMicros, boolean measuring) {
            long interval = intervalMicros();
            if (interval <= 0) {
                nextIntendedMicros = -1;
                return -1;
            }
            long idle = nowMicros - lastSampleEndMicros;
            boolean windowBegins = measuring && !anchoredInWindow;
            anchoredInWindow |= measuring;
            boolean owedNothing = windowBegins || nextIntendedMicros < 0 || nextIntendedMicros > nowMicros
                    || idle > Math.max(IDLE_MICROS, 3 * interval);
            long intended = owedNothing ? nowMicros : nextIntendedMicros;
            nextIntendedMicros = intended + interval;
            lastIntervalMicros = interval;
            return intended;
        }

        /**
         * Up to {@code endMicros}, or to the end of the thread's last sample when it is out of samples: a thread that
         * finished its samples early, on schedule, owes nothing for the slots after; one held up in a sample owes the
         * slots that passed meanwhile.
         */
        @Override
        public long owedMessages(long endMicros) {
            long next = nextIntendedMicros;
            long interval = lastIntervalMicros;
            long until = inSample ? endMicros : Math.min(endMicros, lastSampleEndMicros);
            if (next < 0 || interval <= 0 || next > until) {
                return 0;
            }
            // Whole intervals only: a thread whose run ended just before its next slot owed nothing.
            return (until - next) / interval * lastMessagesPerSample;
        }

        /** The slowest timer's delay between this thread's samples, in µs; 0 when a timer asks for no throughput. */
        private long intervalMicros() {
            long slowestMillis = 0;
            for (ConstantThroughputTimer t : timers) {
                double share = threadShare(t);
                if (!(share > 0)) {
                    return 0;
                }
                slowestMillis = Math.max(slowestMillis, Math.round(60_000.0 / share));
            }
            return TimeUnit.MILLISECONDS.toMicros(slowestMillis);
        }

        /**
         * On the JMeter thread, after each sample: the rate of the schedule the thread keeps now, with the messages one
         * sample sends. That is the whole-millisecond interval the timer waits and the intended times advance by, not
         * the timer's nominal rate: 2.5 ms rounded to 3 offers a sixth less than the nominal rate says. A rate whose
         * interval rounds to 0 ms makes the timer wait nothing, which keeps no schedule of its own: there the rate asked
         * for is the only one to judge the thread by. 0 when a timer asks for no throughput.
         */
        public void sampleEnded(int messagesPerSample) {
            sampleEnded(messagesPerSample, MicroClock.nowMicros());
        }

        void sampleEnded(int messagesPerSample, long nowMicros) {
            long interval = intervalMicros();
            double slowest = Double.MAX_VALUE;
            for (ConstantThroughputTimer t : timers) {
                slowest = Math.min(slowest, threadShare(t) / 60.0);
            }
            messagesPerSecond = messagesPerSample * (interval > 0 ? 1e6 / interval : Math.max(0, slowest));
            lastMessagesPerSample = messagesPerSample;
            lastSampleEndMicros = nowMicros;
            inSample = false;
        }

        private double threadShare(ConstantThroughputTimer t) {
            switch (t.getCalcMode()) {
                case ALL_ACTIVE_THREADS:
                    return t.getThroughput() / Math.max(1, JMeterContextService.getNumberOfThreads());
                case ALL_ACTIVE_THREADS_IN_GROUP:
                    return t.getThroughput() / Math.max(1, group == null ? 1 : group.getNumberOfThreads());
                default:
                    return t.getThroughput();
            }
        }

        @Override
        public double getAsDouble() {
            double rate = messagesPerSecond;
            if (inSample || rate <= 0) {
                return rate;
            }
            long idle = MicroClock.nowMicros() - lastSampleEndMicros;
            long ownIntervals = (long) (3 * TimeUnit.SECONDS.toMicros(1) / rate);
            return idle > Math.max(IDLE_MICROS, ownIntervals) ? 0 : rate;
        }
    }

    /** This thread's pace for {@code sampler}, or null when no throughput timer of a per-thread mode paces it alone. */
    public static ThreadPace threadPace(JMeterContext context, Sampler sampler) {
        Object pack = context.getVariables() == null ? null : context.getVariables().getObject(JMeterThread.PACKAGE_OBJECT);
        JMeterThread thread = context.getThread();
        if (!(pack instanceof SamplePackage) || thread == null) {
            return null;
        }
        List<ConstantThroughputTimer> pacing = new ArrayList<>();
        for (Timer timer : ((SamplePackage) pack).getTimers()) {
            if (timer instanceof ConstantThroughputTimer && perThread((ConstantThroughputTimer) timer)
                    && pacesAlone(thread.getTestTree(), timer, sampler)) {
                pacing.add((ConstantThroughputTimer) timer);
            }
        }
        return pacing.isEmpty() ? null : new ThreadPace(pacing, context.getThreadGroup());
    }

    private static boolean perThread(ConstantThroughputTimer timer) {
        int mode = timer.getCalcMode();
        return mode == THIS_THREAD_ONLY || mode == ALL_ACTIVE_THREADS || mode == ALL_ACTIVE_THREADS_IN_GROUP;
    }

    /** Whether {@code timer}'s scope (the subtree of the element that holds it) holds no sampler but {@code sampler}. */
    static boolean pacesAlone(HashTree tree, Object timer, Sampler sampler) {
        HashTree holder = holderOf(tree, timer);
        return holder != null && onlySampler(holder, timer, sampler);
    }

    /** The subtree whose top-level children include {@code element}, searched depth first by identity. */
    private static HashTree holderOf(HashTree tree, Object element) {
        for (Object key : tree.list()) {
            if (key == element) {
                return tree;
            }
            HashTree found = holderOf(tree.getTree(key), element);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean onlySampler(HashTree tree, Object timer, Sampler sampler) {
        for (Object key : tree.list()) {
            if (key == timer) {
                continue;
            }
            if (key instanceof Sampler && key != sampler) {
                return false;
            }
            if (!onlySampler(tree.getTree(key), timer, sampler)) {
                return false;
            }
        }
        return true;
    }
}
