package io.mqttload.compare;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mqttload.sweep.SweepResults;

/**
 * The comparison command ({@code compare.sh}): sides run here are run round by round, interleaved (A B A B ...), each
 * run a one-step sweep (or, with {@code --search}, a capacity search) through the sweep runner with the same arguments
 * but the side's properties, the broker settled before every run but the first; sides read from results are read;
 * then every later side is compared with the first and the reports are written.
 */
public final class Compare {
    /** What makes one run: the sweep runner, given its arguments; its exit code. */
    @FunctionalInterface
    interface RunMaker {
        int run(List<String> sweepArgs, PrintStream console) throws IOException, InterruptedException;
    }

    private final CompareOptions o;
    private final PrintStream console;
    private final RunMaker runMaker;

    Compare(CompareOptions o, PrintStream console) {
        this(o, console, SweepResults::run);
    }

    Compare(CompareOptions o, PrintStream console, RunMaker runMaker) {
        this.o = o;
        this.console = console;
        this.runMaker = runMaker;
    }

    public static void main(String[] args) {
        int code;
        try {
            CompareOptions o = CompareOptions.parse(args);
            if (o.help) {
                System.out.println(CompareOptions.USAGE);
                System.exit(0);
                return;
            }
            code = new Compare(o, System.out).run();
        } catch (IllegalArgumentException e) {
            System.err.println("compare: " + e.getMessage());
            System.err.println("compare: --help lists the options");
            code = 2;
        } catch (IOException e) {
            System.err.println("compare: " + e.getMessage());
            code = 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("compare: interrupted");
            code = 2;
        }
        System.exit(code);
    }

    int run() throws IOException, InterruptedException {
        Path dir = o.out.toAbsolutePath().normalize();
        boolean searching = o.sweepArgs.contains("--search");
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        for (CompareOptions.SideSpec s : o.sides) {
            if (s.runs()) {
                // Every run's arguments are checked before the first run: a bad one must not cost a round.
                SweepResults.check(sweepArgs(s, 1, dir));
                runs.put(s.name, new ArrayList<>());
            } else {
                runs.put(s.name, RunReader.read(s.name, s.results));
            }
        }
        Files.createDirectories(dir);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        int sequence = 0;
        for (int round = 1; round <= o.rounds; round++) {
            for (CompareOptions.SideSpec s : o.sides) {
                if (!s.runs()) {
                    continue;
                }
                sequence++;
                if (sequence > 1 && o.brokerPid > 0 && o.settleSeconds > 0) {
                    console.printf(Locale.ROOT, "compare %s: %s%n", o.compareId,
                            SweepResults.settle(o.brokerPid, o.settleSeconds));
                }
                console.printf(Locale.ROOT, "compare %s: round %d/%d, side %s (run %d)%n", o.compareId, round, o.rounds,
                        s.name, sequence);
                Run r = makeRun(s, round, "", dir, searching);
                r.sequence = sequence;
                if (o.repeatDisturbed && !searching && r.disturbedOnly) {
                    // A stall of the generator's machine is no property of the side: the repeat counts, the first is
                    // kept where it lies and named. A search repeats its disturbed steps itself.
                    sequence++;
                    console.printf(Locale.ROOT, "compare %s: round %d/%d, side %s (run %d) was disturbed (%s): run %d"
                            + " makes it again%n", o.compareId, round, o.rounds, s.name, r.sequence,
                            String.join("; ", r.marks), sequence);
                    Run again = makeRun(s, round, "-repeat", dir, false);
                    again.sequence = sequence;
                    again.repeats = String.format(Locale.ROOT, "run %d (%s), in %s", r.sequence,
                            String.join("; ", r.marks), r.source);
                    r = again;
                }
                runs.get(s.name).add(r);
            }
        }
        Instant finished = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<Comparison.Side> sides = new ArrayList<>();
        for (CompareOptions.SideSpec s : o.sides) {
            sides.add(new Comparison.Side(s.name, s.definition(), runs.get(s.name)));
        }
        Comparison c = new Comparison(sides, o.thresholds);
        String capacityUnit = searchedProperty(sides);
        CompareFile f = CompareFile.of(c, capacityUnit);
        f.compareId = o.compareId;
        f.rounds = o.rounds;
        f.arguments.addAll(o.arguments);
        if (o.sides.stream().anyMatch(CompareOptions.SideSpec::runs)) {
            f.started = started.toString();
            f.finished = finished.toString();
            f.machine = machine();
        }
        CompareOutput out = new CompareOutput(c, f, capacityUnit);
        List<String> files = out.write(dir);
        console.print(out.console());
        console.println("compare " + o.compareId + ": wrote " + String.join(", ", files) + " in " + dir);
        return c.exitCode();
    }

    /** The property the sides' searches searched, the capacity's unit; empty when no run was a search. */
    private static String searchedProperty(List<Comparison.Side> sides) {
        for (Comparison.Side s : sides) {
            for (Run r : s.runs) {
                if (r.searched != null) {
                    return r.searched;
                }
            }
        }
        return "";
    }

    /** One run of {@code s} in {@code round}, in its own directory ({@code suffix} tells a repeat's apart). */
    private Run makeRun(CompareOptions.SideSpec s, int round, String suffix, Path dir, boolean searching)
            throws IOException, InterruptedException {
        String at = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        int exit = runMaker.run(sweepArgs(s, round, suffix, dir), console);
        Run r = made(s.name, round, dir, runDir(dir, s, round, suffix), exit, searching);
        r.started = at;
        return r;
    }

    private static Path runDir(Path dir, CompareOptions.SideSpec s, int round, String suffix) {
        return dir.resolve("runs").resolve(String.format(Locale.ROOT, "round-%02d-%s%s", round, s.name, suffix));
    }

    /** The sweep runner's arguments for one run of {@code s}: the common ones, the side's properties, its own place. */
    List<String> sweepArgs(CompareOptions.SideSpec s, int round, Path dir) {
        return sweepArgs(s, round, "", dir);
    }

    private List<String> sweepArgs(CompareOptions.SideSpec s, int round, String suffix, Path dir) {
        List<String> a = new ArrayList<>(o.sweepArgs);
        a.addAll(List.of("--out", runDir(dir, s, round, suffix).toString(), "--sweep-id",
                o.compareId + "-r" + round + "-" + s.name + suffix));
        if (a.contains("--search")) {
            s.properties.forEach((k, v) -> a.add("-J" + k + "=" + v));
        } else {
            // The side's name is a property too, so a step always has one and its run records which side it was.
            StringBuilder step = new StringBuilder(s.name + ":mqttload.compareSide=" + s.name);
            s.properties.forEach((k, v) -> step.append(',').append(k).append('=').append(v));
            a.addAll(List.of("--steps", step.toString()));
        }
        return a;
    }

    /** The run just made, read from what the sweep runner left; a run that left nothing to read is marked. */
    private static Run made(String side, int round, Path base, Path runDir, int exit, boolean searching)
            throws IOException {
        List<Run> found = RunReader.find(side, runDir, base);
        if (found.isEmpty()) {
            return new Run(side, round, base.relativize(runDir).toString().replace('\\', '/'), Map.of(), null,
                    List.of("the run left no " + (searching ? "capacity.json" : "report") + " (sweep exit code " + exit
                            + ")"));
        }
        return found.get(0).as(side, round);
    }

    private static String machine() {
        return String.format(Locale.ROOT, "%s %s %s, %d cores, Java %s", System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    }
}
