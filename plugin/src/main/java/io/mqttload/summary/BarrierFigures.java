package io.mqttload.summary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mqttload.rendezvous.Rendezvous;

/** One rendezvous barrier passage as one engine saw it; the merged report adds engines' passages up. */
public final class BarrierFigures {
    public String name;
    public int generation;
    public int groupSize;
    public int arrived;
    public int arrivedAtRelease;
    public int localThreads;
    public boolean released;
    public double waitedMillis;
    /** When the first and the last thread of this engine went on after the release (µs since the epoch; 0: never). */
    public long firstWakeMicros;
    public long lastWakeMicros;
    /** Engines whose threads announced themselves at this barrier. */
    public List<String> engines = new ArrayList<>();

    static BarrierFigures of(Rendezvous.Barrier b) {
        BarrierFigures f = new BarrierFigures();
        f.name = b.name;
        f.generation = b.generation;
        f.groupSize = b.groupSize;
        f.arrived = b.arrived();
        f.arrivedAtRelease = b.arrivedAtRelease();
        f.localThreads = b.localThreads();
        f.released = b.isReleased();
        f.waitedMillis = Rendezvous.waitedMillis(b);
        f.firstWakeMicros = f.released ? b.firstWakeMicros() : 0;
        f.lastWakeMicros = f.released ? b.lastWakeMicros() : 0;
        f.engines.addAll(b.enginesSeen());
        return f;
    }

    /** The engine table's line. */
    String line() {
        String barrier = "'" + name + "' #" + generation;
        return released
                ? String.format(Locale.ROOT, "%s: %d of %d arrived, %d thread(s) here released after %.0f ms,"
                        + " spread here %.3f ms", barrier, arrivedAtRelease, groupSize, localThreads, waitedMillis,
                        (lastWakeMicros - firstWakeMicros) / 1000.0)
                : String.format(Locale.ROOT, "%s: TIMED OUT with %d of %d arrived (engines %s)", barrier, arrived,
                        groupSize, engines);
    }
}
