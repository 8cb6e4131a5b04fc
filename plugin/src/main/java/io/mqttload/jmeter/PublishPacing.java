package io.mqttload.jmeter;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.SamplePackage;
import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jmeter.timers.Timer;
import org.apache.jmeter.timers.poissonarrivals.PreciseThroughputTimer;
import org.apache.jorphan.collections.HashTree;

/**
 * The publishing schedule a plan sets with JMeter's throughput timers, as this thread's share in messages per second:
 * read from the sample package JMeter compiled for the sampler, counting only timers whose scope holds no other
 * sampler (a timer over several samplers spreads its rate over all of them, and which share is the Publish sampler's
 * cannot be known). Timers that only wait (constant, random) set no schedule.
 */
final class PublishPacing {
    /** Constant Throughput Timer's calculation modes: per thread, over all active threads, over the thread group's. */
    private static final int THIS_THREAD_ONLY = 0;
    private static final int ALL_ACTIVE_THREADS = 1;
    private static final int ALL_ACTIVE_THREADS_SHARED = 3;

    private PublishPacing() {
    }

    /** This thread's scheduled messages per second for {@code sampler}, or null when no throughput timer paces it. */
    static DoubleSupplier threadShare(JMeterContext context, Sampler sampler, int messagesPerSample) {
        Object pack = context.getVariables() == null ? null : context.getVariables().getObject(JMeterThread.PACKAGE_OBJECT);
        JMeterThread thread = context.getThread();
        if (!(pack instanceof SamplePackage) || thread == null) {
            return null;
        }
        List<DoubleSupplier> shares = new ArrayList<>();
        for (Timer timer : ((SamplePackage) pack).getTimers()) {
            DoubleSupplier samplesPerSecond = samplesPerSecond(timer, context.getThreadGroup());
            if (samplesPerSecond != null && pacesAlone(thread.getTestTree(), timer, sampler)) {
                shares.add(samplesPerSecond);
            }
        }
        if (shares.isEmpty()) {
            return null;
        }
        // Several throughput timers each hold the sampler back: the slowest schedule is the one that applies.
        return () -> shares.stream().mapToDouble(DoubleSupplier::getAsDouble).min().orElse(0) * messagesPerSample;
    }

    private static DoubleSupplier samplesPerSecond(Timer timer, AbstractThreadGroup group) {
        if (timer instanceof ConstantThroughputTimer) {
            ConstantThroughputTimer t = (ConstantThroughputTimer) timer;
            double perSecond = t.getThroughput() / 60.0;
            switch (t.getCalcMode()) {
                case THIS_THREAD_ONLY:
                    return () -> perSecond;
                case ALL_ACTIVE_THREADS:
                case ALL_ACTIVE_THREADS_SHARED:
                    return () -> perSecond / Math.max(1, JMeterContextService.getNumberOfThreads());
                default:
                    return () -> perSecond / Math.max(1, group == null ? 1 : group.getNumberOfThreads());
            }
        }
        if (timer instanceof PreciseThroughputTimer) {
            // One schedule for the thread group, whose threads take its events in turn.
            PreciseThroughputTimer t = (PreciseThroughputTimer) timer;
            double perSecond = t.getThroughput() / Math.max(1, t.getThroughputPeriod());
            return () -> perSecond / Math.max(1, group == null ? 1 : group.getNumberOfThreads());
        }
        return null;
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
