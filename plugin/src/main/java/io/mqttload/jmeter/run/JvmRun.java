package io.mqttload.jmeter.run;

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
 * The one holder of the run this JVM is in, engine side and controller side, and the only mutable static state of
 * the JMeter side: JMeter makes its elements anew for every run and calls them from many threads, so what they share
 * of a run is one {@link RunState}, which a run's {@link #begin} replaces whole and its end closes. Every read is one
 * read: an element asks for the running engine and gets it or nothing, never "is one running?" and then "which?" with
 * the run ending in between.
 *
 * <p>A run begins with the first of our elements to see it: an engine's first MQTT element at test start, a
 * controller's Remote Start (GUI) or first plan sent (headless), or a Run Report's test start. The others join it
 * while it is open. It ends when its engine has stopped, or on a controller once the report is written.
 */
public final class JvmRun {
    private static final Logger log = LoggerFactory.getLogger(JvmRun.class);
    private static final Object LOCK = new Object();
    /** Before the first run: one that ended before anything began. */
    private static volatile RunState state = new RunState(0, true);
    private static long runsBegun;
    /** Who follows every run of this JVM ({@link #followRuns}); added to, never reset: a follower outlives runs. */
    private static final List<Consumer<EngineRuntime>> FOLLOWERS = new CopyOnWriteArrayList<>();

    private JvmRun() {
    }

    /** The run this JVM is in, or the last one that ended (its results stay readable until the next begins). */
    public static RunState current() {
        return state;
    }

    /** The open run, or a new one when the last has ended. */
    public static RunState beginOrJoin() {
        synchronized (LOCK) {
            return state.ended() ? begin() : state;
        }
    }

    /** A new run, the one before ended whatever it was doing (a GUI's Remote Start, an engine that starts anew). */
    public static RunState beginNew() {
        synchronized (LOCK) {
            return begin();
        }
    }

    private static RunState begin() {
        RunState before = state;
        before.end();
        state = new RunState(++runsBegun, false);
        return state;
    }

    /**
     * On a controller, engine {@code host} has started: the run it belongs to, whose {@link RunState#engineReports()}
     * now counts it. An engine starting again belongs to a new run: the old one never heard from all its engines (a
     * crashed engine, or a GUI controller that stopped a run), and is not mixed into the new one.
     */
    public static RunState engineStarted(String host) {
        synchronized (LOCK) {
            RunState run = state.ended() ? begin() : state;
            EngineReports reports = run.engineReports();
            if (reports != null && (reports.reported() || reports.enginesStarted.contains(host))) {
                if (reports.markReported()) {
                    log.warn("MQTT Run Report: a new run started before every engine of the previous one ended ({}"
                            + " started, {} ended); that run is not reported", reports.enginesStarted,
                            reports.enginesEnded);
                }
                run = begin();
                reports = null;
            }
            if (reports == null) {
                reports = new EngineReports();
                run.engineReports(reports);
            }
            synchronized (reports) {
                reports.enginesStarted.add(host);
            }
            return run;
        }
    }

    /** What a Run Report run alone collects: for itself, apart from any controller's engines. */
    public static EngineReports engineReportsAlone() {
        return new EngineReports();
    }

    /** Ends {@code run}: its resources are closed, its results kept until the next run begins. */
    public static void end(RunState run) {
        run.end();
    }

    /**
     * Starts the engine unless it is running: the first MQTT element to start makes it, with the configuration {@code
     * config} reads and {@code started} run on it before any other element can see it, all under one lock. The open
     * run is joined unless its engine already ran; otherwise a new run begins.
     *
     * @throws io.mqttload.common.InvalidSettingException from {@code config}: then no engine is started
     * @throws RuntimeException from {@code config} or {@code started}: then no engine is started, and a runtime made
     *     already is abandoned
     */
    public static void startEngineIfNone(Supplier<RunConfig> config, PrintStream console,
            Consumer<EngineRuntime> started) {
        EngineRuntime runtime;
        synchronized (LOCK) {
            if (state.runtime() != null) {
                return;
            }
            RunState run = state.ended() || state.engineStarted() ? begin() : state;
            runtime = new EngineRuntime(config.get(), console);
            try {
                started.accept(runtime);
            } catch (RuntimeException | Error e) {
                // Never running, so never shut down: its ticker would tick for the life of a jmeter-server.
                runtime.abandon();
                throw e;
            }
            run.engineRunning(runtime);
        }
        for (Consumer<EngineRuntime> follower : FOLLOWERS) {
            follower.accept(runtime);
        }
    }

    /**
     * Calls {@code follower} with every engine that starts in this JVM from now on, after it is running: how the GUI's
     * Run Report panel follows runs, so that the run holder knows no Swing.
     */
    public static void followRuns(Consumer<EngineRuntime> follower) {
        FOLLOWERS.add(follower);
    }

    /** The running engine, if there is one. */
    public static Optional<EngineRuntime> running() {
        return Optional.ofNullable(state.runtime());
    }

    /** Stops the running engine and returns its summary, or null when none was running (another element stopped it). */
    public static RunSummary stopEngine() {
        EngineRuntime ending;
        CompletableFuture<RunSummary> summary;
        synchronized (LOCK) {
            ending = state.runtime();
            if (ending == null) {
                return null;
            }
            RunConfig c = ending.config();
            summary = state.engineStopping(c.drainTimeoutMillis() + 4 * c.closeTimeoutMillis() + 60_000);
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
     * Stops the engine of {@code run} and returns its summary; when another element is stopping it or has stopped it
     * (a second Run End, or Run End before the report's test end), that summary once the shutdown is over; null when
     * no engine ran in {@code run}.
     */
    public static RunSummary stopOrSummaryOf(RunState run) {
        if (run.runtime() != null) {
            RunSummary summary = stopEngine();
            if (summary != null) {
                return summary;
            }
        }
        CompletableFuture<RunSummary> last = run.summary();
        if (last == null) {
            return null;
        }
        long bound = run.shutdownBoundMillis();
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

    /** The summary of the last engine that stopped in this JVM (null while it is still stopping), for tests and tools. */
    public static RunSummary lastSummary() {
        synchronized (LOCK) {
            CompletableFuture<RunSummary> summary = state.summary();
            return summary != null && summary.isDone() ? summary.join() : null;
        }
    }
}
