package io.mqttload.jmeter.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.engine.EngineRuntime;
import io.mqttload.rendezvous.FleetClaim;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.delivery.Verdict;

/**
 * Everything one run of this JVM holds, engine side and controller side: made whole by {@link JvmRun} when the run
 * begins and replaced, never reset field by field, when the next one begins, so nothing of a run can leak into the
 * next. Its resources (a fleet claim, the live figures offered to a controller, the watch on remote engines) are
 * closed when it ends; its results (summary, verdict, report) stay readable until the next run begins.
 */
public final class RunState {
    private static final Logger log = LoggerFactory.getLogger(RunState.class);

    private final long number;
    private volatile boolean ended;

    /** Engine side: the running runtime, whether one was started in this run, and its summary once it stopped. */
    private volatile EngineRuntime runtime;
    private volatile boolean engineStarted;
    private volatile CompletableFuture<RunSummary> summary;
    private volatile long shutdownBoundMillis;
    private volatile String startupError;
    private volatile FleetClaim fleetClaim;
    private volatile boolean jmeterEngineAtStart;

    /** Controller side: the plan's start being sent to the engines, and what the engines sent back. */
    private volatile ControllerStart sending;
    private volatile EngineReports engineReports;

    /** Both sides: the verdict for the exit status, whether an exit thread is armed, and the report written. */
    private volatile Verdict verdict;
    private final AtomicBoolean exitArmed = new AtomicBoolean();
    private volatile MergedReport report;
    private volatile Path htmlReport;

    private final Set<String> said = ConcurrentHashMap.newKeySet();
    private final Map<Class<?>, AutoCloseable> resources = new LinkedHashMap<>();

    RunState(long number, boolean ended) {
        this.number = number;
        this.ended = ended;
    }

    /** This run's number in this JVM, from 1. */
    public long number() {
        return number;
    }

    public boolean ended() {
        return ended;
    }

    EngineRuntime runtime() {
        return runtime;
    }

    boolean engineStarted() {
        return engineStarted;
    }

    void engineRunning(EngineRuntime r) {
        runtime = r;
        engineStarted = true;
    }

    /** The engine stops: from now on its summary, once the shutdown is over, is the run's. */
    CompletableFuture<RunSummary> engineStopping(long boundMillis) {
        CompletableFuture<RunSummary> s = new CompletableFuture<>();
        summary = s;
        shutdownBoundMillis = boundMillis;
        runtime = null;
        return s;
    }

    /** The engine's summary, complete once its shutdown is over; null while it runs or when it never ran. */
    CompletableFuture<RunSummary> summary() {
        return summary;
    }

    long shutdownBoundMillis() {
        return shutdownBoundMillis;
    }

    /** Why the engine could not start in this run, so that every sample can say it; null when it started. */
    public String startupError() {
        return startupError;
    }

    void startupError(String why) {
        startupError = why;
    }

    void fleetClaim(FleetClaim claim) {
        fleetClaim = claim;
    }

    /** Gives up this run's place in its fleet now, rather than at the end (a start that failed). */
    void releaseFleetClaim() {
        FleetClaim claim = fleetClaim;
        fleetClaim = null;
        if (claim != null) {
            claim.close();
        }
    }

    boolean jmeterEngineAtStart() {
        return jmeterEngineAtStart;
    }

    void jmeterEngineAtStart(boolean there) {
        jmeterEngineAtStart = there;
    }

    /** The start a controller is sending its engines (GUI: one Remote Start; headless: its one test); null: none. */
    public ControllerStart sending() {
        return sending;
    }

    public void sending(ControllerStart start) {
        sending = start;
    }

    /** On a controller: what its engines reported in this run; null before the first engine started. */
    public EngineReports engineReports() {
        return engineReports;
    }

    void engineReports(EngineReports reports) {
        engineReports = reports;
    }

    /** The run's verdict so far; the last one recorded wins (the merged report comes after the engine's summary). */
    public Verdict verdict() {
        return verdict;
    }

    public void verdict(Verdict v) {
        verdict = v;
    }

    /** True the first time only: one exit thread per run. */
    boolean armExit() {
        return exitArmed.compareAndSet(false, true);
    }

    /** The merged report of this run, once written; null before. */
    public MergedReport report() {
        return report;
    }

    /** The HTML file of {@link #report()}, or null when it could not be written. */
    public Path htmlReport() {
        return htmlReport;
    }

    public void reported(MergedReport merged, Path html) {
        report = merged;
        htmlReport = html;
    }

    /** True the first time {@code what} is asked about in this run: a warning given once per run, not per client. */
    public boolean firstTime(String what) {
        return said.add(what);
    }

    /**
     * This run's resource of {@code type}, made by {@code make} on the first call; closed when the run ends (or by
     * {@link #close(Class)}). Null when {@code make} gave null.
     */
    public <T extends AutoCloseable> T resource(Class<T> type, Supplier<T> make) {
        synchronized (resources) {
            AutoCloseable held = resources.get(type);
            if (held == null) {
                held = make.get();
                if (held != null) {
                    resources.put(type, held);
                }
            }
            return type.cast(held);
        }
    }

    /** Closes this run's resource of {@code type} now, if it has one. */
    public void close(Class<? extends AutoCloseable> type) {
        AutoCloseable held;
        synchronized (resources) {
            held = resources.remove(type);
        }
        closeQuietly(held);
    }

    /** Ends the run once: its resources are closed, its results kept. */
    void end() {
        List<AutoCloseable> held;
        synchronized (resources) {
            if (ended) {
                return;
            }
            ended = true;
            held = new ArrayList<>(resources.values());
            resources.clear();
        }
        releaseFleetClaim();
        held.forEach(RunState::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            // A resource of a run that is over: its failure to close changes nothing the run reports.
            log.warn("MQTT: closing {} at the end of the run failed: {}", resource.getClass().getSimpleName(), e.toString());
        }
    }
}
