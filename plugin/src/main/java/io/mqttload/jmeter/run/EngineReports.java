package io.mqttload.jmeter.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.mqttload.summary.EngineSummary;

/**
 * What a controller gathered in one run: engines started, ended or gone, and their summaries. JMeter gives every remote
 * engine its own copy of the Run Report listener on the controller; the copies of one run report together through
 * this, held by the run ({@link RunState#engineReports()}). Every field is guarded by this object's monitor.
 */
public final class EngineReports {
    public final Map<String, EngineSummary> summariesByEngine = new LinkedHashMap<>();
    /** Summaries that arrived but could not be read (another plugin version): the engines count as missing. */
    public final List<String> unreadable = new ArrayList<>();
    public final Set<String> enginesStarted = new LinkedHashSet<>();
    public final Set<String> enginesEnded = new LinkedHashSet<>();
    /** Engines whose process is gone (RMI port closed), with when and why it was noticed. */
    public final Map<String, String> enginesGone = new LinkedHashMap<>();
    private boolean reported;

    EngineReports() {
    }

    /** Engines started that have neither ended nor are known to be gone. */
    public synchronized List<String> running() {
        List<String> running = new ArrayList<>(enginesStarted);
        running.removeAll(enginesEnded);
        running.removeAll(enginesGone.keySet());
        return running;
    }

    /** Every engine that started has ended or is gone. */
    public synchronized boolean allAccountedFor() {
        Set<String> done = new LinkedHashSet<>(enginesEnded);
        done.addAll(enginesGone.keySet());
        return done.containsAll(enginesStarted);
    }

    public synchronized boolean reported() {
        return reported;
    }

    /** Marks the run reported (or given up) once: true the first time. */
    public synchronized boolean markReported() {
        if (reported) {
            return false;
        }
        reported = true;
        return true;
    }

    /** On a controller during a run: its engines so far ("2 started, 1 ended: e1, e2"); null once reported. */
    public synchronized String status() {
        if (reported) {
            return null;
        }
        return enginesStarted.size() + " engine(s) started, " + enginesEnded.size() + " ended"
                + (enginesGone.isEmpty() ? "" : ", " + enginesGone.size() + " gone") + ": "
                + String.join(", ", enginesStarted);
    }
}
