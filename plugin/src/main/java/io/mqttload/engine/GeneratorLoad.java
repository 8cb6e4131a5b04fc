package io.mqttload.engine;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.Consumer;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;

/**
 * The load generator's own CPU, second by second: a second in which this engine's process used at least
 * {@link #SATURATED_SHARE} of every core is a second whose figures the generator, not the broker, may have limited.
 * Read by the metrics ticker only.
 */
final class GeneratorLoad {
    /** Share of all cores at or above which the engine counts as saturated. */
    static final double SATURATED_SHARE = 0.9;

    private final com.sun.management.OperatingSystemMXBean os = processBean();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private long lastCpuNanos = -1;
    private long lastWallNanos;
    private double lastShare;

    private static com.sun.management.OperatingSystemMXBean processBean() {
        java.lang.management.OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        // The HotSpot bean gives the process's CPU time; elsewhere the flag stays silent rather than guess.
        return bean instanceof com.sun.management.OperatingSystemMXBean ? (com.sun.management.OperatingSystemMXBean) bean
                : null;
    }

    /**
     * One tick: counts the second as saturated when the process used at least 90 % of every core in it and the run is
     * in its {@code steady} phase, and tells {@code event} about the first such second.
     */
    void tick(EngineMetrics metrics, boolean steady, Consumer<String> event) {
        if (saturatedSinceLast() && steady) {
            metrics.count(Count.GENERATOR_SATURATED_SECONDS);
            if (metrics.sum(Count.GENERATOR_SATURATED_SECONDS) == 1) {
                event.accept(String.format(Locale.ROOT, "load generator at %.0f %% of %d cores: figures may be limited"
                        + " by the generator, not the broker", lastShare * 100, cores));
            }
        }
    }

    /** Samples the process's CPU since the last call; true when it used at least 90 % of every core. */
    private boolean saturatedSinceLast() {
        if (os == null) {
            return false;
        }
        long cpu = os.getProcessCpuTime();
        long wall = System.nanoTime();
        boolean saturated = false;
        if (lastCpuNanos >= 0 && cpu >= 0 && wall > lastWallNanos) {
            lastShare = (double) (cpu - lastCpuNanos) / (wall - lastWallNanos) / cores;
            saturated = lastShare >= SATURATED_SHARE;
        }
        lastCpuNanos = cpu;
        lastWallNanos = wall;
        return saturated;
    }

}
