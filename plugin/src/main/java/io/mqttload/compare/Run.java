package io.mqttload.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One run of one side, as the comparison keeps it: where it came from, its round and its place in the order the runs
 * were made, every figure it measured, what its report says of its setup, and why its figures are not clean (loss, a
 * failure, a saturated generator), if they are not.
 */
public final class Run {
    public final String side;
    /** 1-based. */
    public final int round;
    /** The report, sweep or search it was read from, relative to the comparison's directory where it lies inside it. */
    public final String source;
    public final Map<Figure, Double> values;
    /** Plan, broker versions, engines, as the run's report recorded them. */
    public final String setup;
    /** Why the figures are not clean; empty when they are. */
    public final List<String> marks;
    /** 1-based place in the order the runs were made; 0 for results read from a directory. */
    int sequence;
    /** When it started (ISO-8601), for runs this comparison made. */
    String started;
    /** For a capacity search: the property searched, the capacity's unit. */
    String searched;
    /** Whether its only mark is a saturated generator or machine: a run the comparison may make again. */
    boolean disturbedOnly;
    /** For a run made again: the disturbed run it replaces (its place in the order, why, where it lies); else null. */
    String repeats;

    public Run(String side, int round, String source, Map<Figure, Double> values, String setup, List<String> marks) {
        this.side = side;
        this.round = round;
        this.source = source;
        this.values = Collections.unmodifiableMap(values.isEmpty() ? new EnumMap<>(Figure.class) : new EnumMap<>(values));
        this.setup = setup;
        this.marks = Collections.unmodifiableList(new ArrayList<>(marks));
    }

    /** The figure's value, NaN when the run did not measure it. */
    public double value(Figure f) {
        Double v = values.get(f);
        return v == null ? Double.NaN : v;
    }

    /** The same run under another side's name and round (a kept result set read as a side of this comparison). */
    Run as(String newSide, int newRound) {
        Run r = new Run(newSide, newRound, source, values, setup, marks);
        r.sequence = sequence;
        r.started = started;
        r.searched = searched;
        r.disturbedOnly = disturbedOnly;
        r.repeats = repeats;
        return r;
    }
}
