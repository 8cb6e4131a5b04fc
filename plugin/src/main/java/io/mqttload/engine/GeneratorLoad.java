package io.mqttload.engine;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.Consumer;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;

/**
 * The load generator's own CPU, second by second: a second in which this engine's process used at least
 * {@link #SATURATED_SHARE} of every core is a second whose figures the generator, not the broker, may have limited.
 * Beside it the whole machine's: a broker on the engine's host takes cores the process's share does not see, so a
 * machine busy at {@link #SATURATED_SHARE} or more marks a second the host, not the broker's own limit, may have
 * capped. Read by the metrics ticker only.
 */
final class GeneratorLoad {
    /** Share of all cores at or above which the engine counts as saturated. */
    static final double SATURATED_SHARE = 0.9;

    private final com.sun.management.OperatingSystemMXBean os = processBean();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private long lastCpuNanos = -1;
    private long lastWallNanos;
    private double lastShare;
    private boolean machineRead;
    private double lastMachineShare;

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
        if (machineSaturatedSinceLast() && steady) {
            metrics.count(Count.MACHINE_SATURATED_SECONDS);
            if (metrics.sum(Count.MACHINE_SATURATED_SECONDS) == 1) {
                event.accept(String.format(Locale.ROOT, "machine at %.0f %% of its %d cores: the broker and the generator"
                        + " may share it", lastMachineShare * 100, cores));
            }
        }
    }

    /**
     * Samples the whole machine's CPU since the last call (what JDK 17 calls getCpuLoad; the plugin compiles for Java
     * 11, where it is getSystemCpuLoad); true when it was at least 90 % busy. The first reading covers an unknown
     * time and counts nothing; a negative one is not available.
     */
    private boolean machineSaturatedSinceLast() {
        if (os == null) {
            return false;
        }
        double share = os.getSystemCpuLoad();
        boolean first = !machineRead;
        machineRead = true;
        if (first || share < 0) {
            return false;
        }
        lastMachineShare = share;
        return share >= SATURATED_SHARE;
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
