package io.mqttload.jmeter;

import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

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
    private static final Object LOCK = new Object();
    private static volatile EngineRuntime running;
    /** Runs started in this JVM, and the number of the running one. */
    private static long runsStarted;
    private static long runningNumber;
    /** The summary of the last run that was ended (complete once its shutdown is over), and that run's number. */
    private static CompletableFuture<RunSummary> lastSummary = CompletableFuture.completedFuture(null);
    private static long lastRunNumber;

    private EngineLifecycle() {
    }

    /** Starts a run, or returns the running one: the first MQTT element to start makes it. */
    static EngineRuntime start(RunConfig config, PrintStream console) {
        synchronized (LOCK) {
            if (running == null) {
                running = new EngineRuntime(config, console);
                runningNumber = ++runsStarted;
            }
            return running;
        }
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
        synchronized (LOCK) {
            if (lastRunNumber <= runsBefore) {
                return null;
            }
            last = lastSummary;
        }
        // The shutdown bounds each of its waits (drain, acknowledgements, disconnects, barrier clients) by the run's
        // own timeouts, so it ends by itself; this thread only waits for it to.
        return last.join();
    }

    /** The summary of the last run that ended in this JVM (null while it is still ending), for tests and tools. */
    public static RunSummary lastSummary() {
        synchronized (LOCK) {
            return lastSummary.isDone() ? lastSummary.join() : null;
        }
    }
}
