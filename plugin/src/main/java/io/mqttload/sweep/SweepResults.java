package io.mqttload.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.mqttload.measure.Count;
import io.mqttload.summary.Rates;
import io.mqttload.summary.ReportFigures;

/**
 * What the comparison ({@code io.mqttload.compare}) uses of the sweep runner: a sweep or search run in-process as the
 * command line runs it, the results it leaves read through the one JSON mapping ({@link ResultJson}), and the
 * delivered rate computed as the step's judgement computes it, so that a comparison and a sweep never disagree on a
 * figure.
 */
public final class SweepResults {
    private SweepResults() {
    }

    /** A capacity search's answer as {@code capacity.json} keeps it. */
    public static final class Capacity {
        public final String property;
        /** NaN when the search sustained nothing. */
        public final double sustained;
        public final String outcome;
        /** Whether the outcome is a limit the user may quote. */
        public final boolean answered;
        public final boolean generatorLimited;
        public final String verdict;

        Capacity(CapacityFile f) {
            property = f.property;
            sustained = f.answered && f.sustained != null ? f.sustained : Double.NaN;
            outcome = f.outcome;
            answered = f.answered;
            generatorLimited = CapacitySearch.Outcome.LIMITED_BY_GENERATOR.name().equals(f.outcome);
            verdict = f.verdict;
        }
    }

    /** Checks a sweep's or search's arguments as the command does; a bad one fails with the command's message. */
    public static void check(List<String> args) {
        parse(args);
    }

    /** Runs a sweep or search as {@code sweep.sh} would; returns its exit code. */
    public static int run(List<String> args, PrintStream console) throws IOException, InterruptedException {
        SweepOptions o = parse(args);
        try {
            return new Sweep(o, console).run();
        } catch (SweepOptions.UsageException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static SweepOptions parse(List<String> args) {
        try {
            return SweepOptions.parse(args.toArray(new String[0]));
        } catch (SweepOptions.UsageException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The run reports of a sweep's steps that wrote one, in step order. */
    public static List<Path> sweepReports(Path sweepJson) throws IOException {
        SweepFile f = ResultJson.readSweep(sweepJson);
        List<Path> reports = new ArrayList<>();
        for (SweepFile.Step s : f.steps) {
            if (s.report != null) {
                reports.add(sweepJson.resolveSibling(s.report));
            }
        }
        return reports;
    }

    public static Capacity capacity(Path capacityJson) throws IOException {
        return new Capacity(ResultJson.readCapacity(capacityJson));
    }

    /** Deliveries owed per message the broker took; 0 without subscribers. */
    static double fanOut(long expected, long acknowledged) {
        return acknowledged > 0 ? (double) expected / acknowledged : 0;
    }

    /**
     * Publishes per second that made it through within the window: deliveries received ÷ fan-out, or, without
     * subscribers, publishes the broker acknowledged; what a step's judgement reads.
     */
    static double deliveredRate(Rates rates, double fanOut) {
        return fanOut > 0 ? rates.receive / fanOut : rates.publish;
    }

    public static double deliveredRate(ReportFigures r) {
        return deliveredRate(Rates.of(r), fanOut(r.count(Count.EXPECTED),
                r.count(Count.ACKNOWLEDGED)));
    }

    /** Waits, bounded, for the broker process to be quiet, as before a sweep's step; says how that went. */
    public static String settle(long pid, long maxSeconds) throws InterruptedException {
        return BrokerSettle.await(pid, maxSeconds).describe();
    }
}
