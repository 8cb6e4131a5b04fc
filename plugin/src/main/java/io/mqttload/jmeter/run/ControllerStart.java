package io.mqttload.jmeter.run;

import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.WeakHashMap;

import io.mqttload.engine.RunConfig;

/**
 * One start a controller sends its engines: its run id, its engine count, and the number given to each stream that
 * wrote the plan (1 for the first engine the plan is sent to, 2 for the next).
 */
public final class ControllerStart {
    private final String runId;
    private final int engines;
    /** Weak: a stream is done with once its plan is sent. ObjectOutputStream keeps Object's identity equality. */
    private final Map<ObjectOutputStream, RunConfig.FromController> byStream = new WeakHashMap<>();
    private int sent;

    public ControllerStart(String runId, int engines) {
        this.runId = runId;
        this.engines = engines;
    }

    public String runId() {
        return runId;
    }

    public int engines() {
        return engines;
    }

    /** What the engine whose copy of the plan {@code out} writes is given. */
    public synchronized RunConfig.FromController givenTo(ObjectOutputStream out) {
        return byStream.computeIfAbsent(out, o -> new RunConfig.FromController(runId, ++sent, engines));
    }
}
