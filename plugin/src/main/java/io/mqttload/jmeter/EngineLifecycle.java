package io.mqttload.jmeter;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.RunConfig;
import io.mqttload.summary.RunSummary;

/**
 * The one place that knows which run this JVM's engine is in: JMeter makes its elements anew for every run and calls
 * them from many threads, so the run they share is held here, started by the first MQTT element's test start and
 * ended by whichever element ends it first. Every read is one read: an element asks for the running run and gets it
 * or nothing, never "is one running?" and then "which?" with the run ending in between.
 */
public final class EngineLifecycle {
    private static final Logger log = LoggerFactory.getLogger(EngineLifecycle.class);
    private static final Object LOCK = new Object();
    private static volatile EngineRuntime running;
    /** Runs started in this JVM, and the number of the running one. */
    private static long runsStarted;
    private static long runningNumber;
    /** The summary of the last run that was ended (complete once its shutdown is over), and that run's number. */
    private static CompletableFuture<RunSummary> lastSummary = CompletableFuture.completedFuture(null);
    private static long lastRunNumber;
    /** How long a second element may wait for the first to end the run: every wait of a shutdown, with room. */
    private static long lastShutdownBoundMillis;
    /** Who follows every run of this JVM ({@link #followRuns}); added to, never reset: a follower outlives runs. */
    private static final List<Consumer<EngineRuntime>> FOLLOWERS = new CopyOnWriteArrayList<>();

    private EngineLifecycle() {
    }

    /**
     * Starts a run unless one is running: the first MQTT element to start makes it, with the configuration {@code
     * config} reads and {@code started} run on it before any other element can see it, all under one lock.
     *
     * @throws io.mqttload.common.InvalidSettingException from {@code config}: then no run is started
     * @throws RuntimeException from {@code config} or {@code started}: then no run is started, and a runtime made
     *     already is abandoned
     */
    static void startIfNone(Supplier<RunConfig> config, PrintStream console, Consumer<EngineRuntime> started) {
        EngineRuntime runtime;
        synchronized (LOCK) {
            if (running != null) {
                return;
            }
            runtime = new EngineRuntime(config.get(), console);
            try {
                started.accept(runtime);
            } catch (RuntimeException | Error e) {
                // Never running, so never shut down: its ticker would tick for the life of a jmeter-server.
                runtime.abandon();
                throw e;
            }
            running = runtime;
            runningNumber = ++runsStarted;
        }
        for (Consumer<EngineRuntime> follower : FOLLOWERS) {
            follower.accept(runtime);
        }
    }

    /**
     * Calls {@code follower} with every run that starts in this JVM from now on, after it is running: how the GUI's
     * Run Report panel follows runs, so that the lifecycle knows no Swing.
     */
    public static void followRuns(Consumer<EngineRuntime> follower) {
        FOLLOWERS.add(follower);
    }

    /** The running run, if there is one. */
    public static Optional<EngineRuntime> running() {
        return Optional.ofNullable(running);
    }

    /** Ends the running run and returns its summary, or null when none was running (another element ended it). */
    static RunSummary stop() {
        EngineRuntime ending;
        CompletableFuture<RunSummary> summary = new CompletableFuture<>();
        synchronized (LOCK) {
            ending = running;
            if (ending == null) {
                return null;
            }
            running = null;
            lastSummary = summary;
            lastRunNumber = runningNumber;
            RunConfig c = ending.config();
            lastShutdownBoundMillis = c.drainTimeoutMillis() + 4 * c.closeTimeoutMillis() + 60_000;
        }
        try {
            summary.complete(ending.shutdown());
        } catch (RuntimeException | Error e) {
            summary.complete(null);
            throw e;
        }
        return summary.join();
    }

    /**
     * How many runs had started in this JVM: an element remembers it at test start, not counting a run already going,
     * to tell its own run's summary from an earlier one (see {@link #stopOrLastSummary}).
     */
    static long runsBefore() {
        synchronized (LOCK) {
            return runsStarted - (running == null ? 0 : 1);
        }
    }

    /**
     * Ends the running run and returns its summary; when another element is ending it or has ended it (a second Run
     * End, or Run End before the report's test end), the summary of that run once its shutdown is over, if it started
     * after {@code runsBefore} runs; else null.
     */
    static RunSummary stopOrLastSummary(long runsBefore) {
        RunSummary summary = stop();
        if (summary != null) {
            return summary;
        }
        CompletableFuture<RunSummary> last;
        long bound;
        synchronized (LOCK) {
            if (lastRunNumber <= runsBefore) {
                return null;
            }
            last = lastSummary;
            bound = lastShutdownBoundMillis;
        }
        // The shutdown bounds each of its waits (drain, acknowledgements, disconnects, barrier clients) by the run's
        // own timeouts; the bound here is their sum with room for writing the summary.
        try {
            return last.get(bound, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.error("MQTT run end: the run's shutdown did not end within {} ms; no summary", bound);
        } catch (ExecutionException e) {
            log.error("MQTT run end: the run's shutdown failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /** The summary of the last run that ended in this JVM (null while it is still ending), for tests and tools. */
    public static RunSummary lastSummary() {
        synchronized (LOCK) {
            return lastSummary.isDone() ? lastSummary.join() : null;
        }
    }
}
