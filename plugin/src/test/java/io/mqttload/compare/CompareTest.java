package io.mqttload.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.measure.Count;
import io.mqttload.measure.LatencyStats;
import io.mqttload.summary.ReportFigures;
import io.mqttload.summary.SummaryJson;

/**
 * The command on results kept in directories (no run made): sides read from run reports, an earlier comparison read
 * back as a baseline, the reports' forms, the exit codes the gate reads, and bad arguments named.
 */
class CompareTest {
    @TempDir
    Path tmp;

    /** A run report with pub-to-sub around {@code p50Micros} (this run's {@code jitter} added) and 1,000 msg/s. */
    private static void report(Path dir, String runId, long p50Micros, long jitter, long lost) throws IOException {
        report(dir, runId, p50Micros, jitter, lost, 0);
    }

    /** As above, the generator saturated for {@code saturatedSeconds} of the 10 measured. */
    private static void report(Path dir, String runId, long p50Micros, long jitter, long lost, long saturatedSeconds)
            throws IOException {
        ReportFigures r = new ReportFigures();
        r.counts.put(Count.GENERATOR_SATURATED_SECONDS.key(), saturatedSeconds);
        r.runId = runId;
        r.scenario = "p2p";
        r.engines = 1;
        r.measuredSeconds = 10;
        r.publishRate = 1000;
        r.receiveRate = 1000 + jitter;
        r.counts.putAll(Map.of(Count.EXPECTED.key(), 10_000L, Count.ACKNOWLEDGED.key(), 10_000L, Count.LOST.key(), lost,
                Count.DRAIN_MILLIS.key(), 100L, Count.RECEIVED_IN_DRAIN.key(), 0L));
        Histogram h = new Histogram(3);
        h.recordValueWithCount(p50Micros + jitter, 600);
        h.recordValueWithCount(2 * p50Micros + jitter, 400);
        r.latencyMicros.put("pubToSub", new LatencyStats(h));
        r.verdict = lost > 0 ? Verdict.LOSS : Verdict.NO_LOSS;
        r.verdictText = r.verdict.name();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report-" + runId + ".json"), SummaryJson.write(r));
    }

    private Path side(String name, long p50Micros, long lostInRound2) throws IOException {
        Path dir = tmp.resolve(name);
        long[] jitter = {0, 10, -10, 5, -5};
        for (int round = 1; round <= jitter.length; round++) {
            report(dir.resolve("run-" + round), name + round, p50Micros, jitter[round - 1], round == 2 ? lostInRound2 : 0);
        }
        return dir;
    }

    private int compare(String... args) throws IOException, InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new Compare(CompareOptions.parse(args), new PrintStream(out, true, StandardCharsets.UTF_8)).run();
        console = out.toString(StandardCharsets.UTF_8);
        return code;
    }

    private String console;

    @Test
    void addedDelay_isRegressed_withTheDelayInItsInterval_andRateSame() throws Exception {
        Path a = side("direct", 1000, 0);
        Path b = side("delayed", 21_000, 0);
        Path out = tmp.resolve("out");
        assertThat(compare("--results", "A:" + a, "--results", "B:" + b, "--out", out.toString())).isEqualTo(1);
        CompareFile f = CompareFile.read(out.resolve("compare.json"));
        CompareFile.Entry p50 = f.comparisons.stream().filter(e -> e.figure.equals("pubToSubP50")).findFirst().orElseThrow();
        assertThat(p50.verdict).isEqualTo("REGRESSED");
        assertThat(p50.differenceLow).isLessThan(20.0);
        assertThat(p50.differenceHigh).isGreaterThan(20.0);
        CompareFile.Entry rate = f.comparisons.stream().filter(e -> e.figure.equals("deliveredRate")).findFirst()
                .orElseThrow();
        assertThat(rate.verdict).isEqualTo("SAME");
        assertThat(rate.aValues).hasSize(5);
        assertThat(f.sides).extracting(s -> s.name).containsExactly("A", "B");
        assertThat(f.verdict).startsWith("REGRESSED: B pub-to-sub p50");
        assertThat(console).startsWith("Side A: results in " + a);
        assertThat(console).contains("figure", "A median [min..max]", "B/A [95 % interval]", "pub-to-sub p50 (ms)");
        assertThat(Files.readString(out.resolve("compare.md"))).contains("| pub-to-sub p50 (ms) | 1.000 [0.990..1.010] |");
        String html = Files.readString(out.resolve("compare.html"));
        assertThat(html).contains("<svg", "B round 5").doesNotContain("http-equiv", "<script src", "<link");
        String junit = Files.readString(out.resolve("compare-junit.xml"));
        assertThat(junit).contains("tests=\"5\" failures=\"4\"", "type=\"REGRESSED\"", "name=\"pubToSubP50 B against A\"",
                "threshold 5 %");

        // The comparison kept as a baseline: its last side against new runs of the same.
        Path again = tmp.resolve("again");
        assertThat(compare("--baseline", out.toString(), "--results", "B:" + b, "--out", again.toString())).isZero();
        assertThat(CompareFile.read(again.resolve("compare.json")).sides.get(0).runs).hasSize(5);
    }

    @Test
    void lossInARun_namesTheSideFirst_andFailsTheGate() throws Exception {
        Path a = side("a", 1000, 0);
        Path b = side("b", 1000, 7);
        assertThat(compare("--results", "A:" + a, "--results", "B:" + b, "--out", tmp.resolve("o").toString()))
                .isEqualTo(1);
        assertThat(console.lines().filter(l -> l.startsWith("* Side B was not clean")).findFirst().orElseThrow())
                .contains("round 2: lost 7 of 10000 deliveries", "verdict LOSS");
        assertThat(console).contains("SAME *");
        assertThat(console.indexOf("* Side B")).isLessThan(console.indexOf("pub-to-sub p50"));
    }

    @Test
    void aRunThatFailed_isNamed_andItsFiguresStayOutOfTheIntervals() throws Exception {
        Path a = side("a", 1000, 0);
        Path b = side("b", 1000, 0);
        // Round 2 of B never produced (a rendezvous that timed out): a FAILED run whose rates are 0.
        ReportFigures failed = new ReportFigures();
        failed.runId = "b2";
        failed.scenario = "p2p";
        failed.engines = 1;
        failed.measuredSeconds = 10;
        failed.counts.put(Count.DRAIN_MILLIS.key(), 0L);
        failed.verdict = Verdict.FAILED;
        failed.verdictText = "FAILED: the rendezvous 'start' timed out";
        Files.writeString(b.resolve("run-2").resolve("report-b2.json"), SummaryJson.write(failed));

        compare("--results", "A:" + a, "--results", "B:" + b, "--out", tmp.resolve("o").toString());

        assertThat(console).contains("round 2: verdict FAILED", "its figures left out of the comparison");
        CompareFile.Entry rate = CompareFile.read(tmp.resolve("o").resolve("compare.json")).comparisons.stream()
                .filter(e -> e.b.equals("B") && e.figure.equals(Figure.DELIVERED_RATE.key())).findFirst().orElseThrow();
        // Every run keeps its place (round 2's value none), and 0 is not among them.
        assertThat(rate.bValues).as(console).containsExactly(1000.0, null, 990.0, 1005.0, 995.0);
        assertThat(rate.ratioLow).as(console).isGreaterThan(0.9);
        assertThat(rate.ratioHigh).as(console).isLessThan(1.1);
    }

    @Test
    void aAgainstA_exitsZero() throws Exception {
        Path a = side("a", 1000, 0);
        assertThat(compare("--results", "A:" + a, "--results", "A2:" + a, "--out", tmp.resolve("o").toString())).isZero();
        assertThat(console).contains("no regression");
    }

    /** capacity.json as the search writes it (format 1), with only the fields the comparison reads. */
    private static void search(Path dir, double sustained, String outcome) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("capacity.json"), "{\"formatVersion\": 1, \"property\": \"floodRate\","
                + " \"outcome\": \"" + outcome + "\", \"answered\": " + outcome.startsWith("SUSTAINS")
                + ", \"sustained\": " + sustained + ", \"verdict\": \"" + outcome + " at " + sustained + "\"}");
    }

    @Test
    void capacitySearches_compareTheirCapacities_andAGeneratorLimitedOneIsMarked() throws Exception {
        double[] a = {1000, 1040, 980, 1010, 990};
        for (int i = 0; i < a.length; i++) {
            search(tmp.resolve("a/search-" + i), a[i], "SUSTAINS");
            search(tmp.resolve("b/search-" + i), a[i] * 1.5, i == 3 ? "LIMITED_BY_GENERATOR" : "SUSTAINS");
        }
        Path out = tmp.resolve("o");
        assertThat(compare("--results", "A:" + tmp.resolve("a"), "--results", "B:" + tmp.resolve("b"), "--out",
                out.toString())).isZero();
        CompareFile f = CompareFile.read(out.resolve("compare.json"));
        assertThat(f.comparisons).extracting(e -> e.figure + " " + e.unit + " " + e.verdict)
                .containsExactly("capacity floodRate IMPROVED");
        assertThat(f.comparisons.get(0).bValues).containsExactly(1500.0, 1560.0, 1470.0, null, 1485.0);
        assertThat(console).contains("* Side B was not clean, its figures are marked: round 4: limited by the load"
                + " generator: LIMITED_BY_GENERATOR", "capacity (floodRate)");
    }

    /**
     * Runs made by a stand-in for the sweep runner, each writing a report where the runner would: the first of side A
     * with its generator saturated for 5 of 10 s, the others clean.
     */
    private List<String> compareRuns(String... extra) throws IOException, InterruptedException {
        List<String> made = new ArrayList<>();
        Compare.RunMaker runner = (args, out) -> {
            String id = args.get(args.indexOf("--sweep-id") + 1);
            made.add(id);
            report(Path.of(args.get(args.indexOf("--out") + 1)), id, 1_000, 10L * made.size(), 0, made.size() == 1 ? 5 : 0);
            return 0;
        };
        Path plan = Files.writeString(tmp.resolve("plan.jmx"), "<jmeterTestPlan/>\n");
        // The runner's arguments are checked as for real runs: a JMeter home, however empty.
        Files.createDirectories(tmp.resolve("bin"));
        List<String> args = new ArrayList<>(List.of("--jmeter-home", tmp.toString(), "--plan", plan.toString(), "--side",
                "A:", "--side", "B:", "--rounds",
                "2", "--compare-id", "c", "--out", tmp.resolve("c").toString()));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Compare(CompareOptions.parse(args.toArray(new String[0])), new PrintStream(out, true,
                StandardCharsets.UTF_8), runner).run();
        console = out.toString(StandardCharsets.UTF_8);
        return made;
    }

    @Test
    void aRunDisturbedOnlyBySaturation_isMadeAgain_theRepeatCounts_andTheFirstIsNamed() throws Exception {
        assertThat(compareRuns()).containsExactly("c-r1-A", "c-r1-A-repeat", "c-r1-B", "c-r2-A", "c-r2-B");

        CompareFile f = CompareFile.read(tmp.resolve("c").resolve("compare.json"));
        CompareFile.SideEntry a = f.sides.get(0);
        assertThat(a.marks).as(console).isEmpty();
        assertThat(a.runs).hasSize(2);
        assertThat(a.runs.get(0).sequence).isEqualTo(2);
        assertThat(a.runs.get(0).source).startsWith("runs/round-01-A-repeat/");
        assertThat(a.runs.get(0).repeats).startsWith("run 1 (generator or its machine saturated for 5 of 10 s), in"
                + " runs/round-01-A/");
        assertThat(console).contains("side A (run 1) was disturbed (generator or its machine saturated for 5 of 10 s):"
                + " run 2 makes it again").contains("Side A, round 1: run 2 made again run 1");
    }

    @Test
    void disturbedRunsAccepted_stayMarked_andNothingIsMadeAgain() throws Exception {
        assertThat(compareRuns("--disturbed-runs", "accept")).containsExactly("c-r1-A", "c-r1-B", "c-r2-A", "c-r2-B");

        CompareFile.SideEntry a = CompareFile.read(tmp.resolve("c").resolve("compare.json")).sides.get(0);
        assertThat(a.marks).containsExactly("round 1: generator or its machine saturated for 5 of 10 s");
        assertThat(a.runs.get(0).repeats).isNull();
    }

    @Test
    void badArguments_nameOptionAndValue() {
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--side", "A", "--out", "x"}))
                .hasMessage("--side 'A': NAME:k=v,k=v expected (NAME: for the plan as given)");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--rounds", "one"}))
                .hasMessage("--rounds 'one': a whole number from 2 to 1000 expected");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--threshold", "p99=5"}))
                .hasMessageStartingWith("--threshold 'p99=5': 'p99' is no figure");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--threshold", "0"}))
                .hasMessage("--threshold '0': a percentage above 0 and below 100 expected");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--side", "A:mqttload.warmupSeconds=3",
            "--side", "B:", "--out", "x"})).hasMessageContaining("mqttload.warmupSeconds is the comparison's");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--side", "A:", "--side", "B:", "--out", "x"}))
                .hasMessage("--plan: missing (a --side runs the plan)");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--side", "A:", "--out", "x", "--plan", "p"}))
                .hasMessageStartingWith("two sides or more are compared: 1 given");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--disturbed-runs", "skip"}))
                .hasMessage("--disturbed-runs 'skip': expected repeat or accept");
        assertThatThrownBy(() -> CompareOptions.parse(new String[] {"--steps", "a=1"}))
                .hasMessageStartingWith("--steps: a comparison makes each run's step itself");
        assertThat(CompareOptions.parse(new String[] {"--threshold", "10", "--threshold", "capacity=2", "--results",
            "A:a", "--results", "B:b", "--out", "o"}).thresholds()).containsEntry(Figure.CAPACITY, 2.0)
                .containsEntry(Figure.PUB_TO_SUB_P99, 10.0);
    }

    @Test
    void unreadableResults_areNamed() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThatThrownBy(() -> compare("--results", "A:" + empty, "--results", "B:" + empty, "--out", "o"))
                .hasMessageStartingWith("--results A:" + empty + ": no compare.json, capacity.json");
        Files.writeString(empty.resolve("compare.json"), "{\"formatVersion\": 9}");
        assertThatThrownBy(() -> CompareFile.read(empty.resolve("compare.json")))
                .hasMessageEndingWith("a comparison of formatVersion 9, and this plugin reads formatVersion 1: read it"
                        + " with the plugin version that wrote it");
    }

    /** Each run of a side is a one-step sweep with the side's properties, or a search with them as -J. */
    @Test
    void runArguments_carryTheSidesProperties() {
        CompareOptions o = CompareOptions.parse(new String[] {"--side", "A:", "--side", "B:mqtt.port=1884", "--out",
            "o", "--plan", "p.jmx", "-Jx=1", "--compare-id", "c"});
        Compare c = new Compare(o, System.out);
        assertThat(c.sweepArgs(o.sides.get(1), 2, Path.of("/d"))).containsExactly("--plan", "p.jmx", "-Jx=1", "--out",
                Path.of("/d/runs/round-02-B").toString(), "--sweep-id", "c-r2-B", "--steps",
                "B:mqttload.compareSide=B,mqtt.port=1884");
        CompareOptions s = CompareOptions.parse(new String[] {"--side", "A:", "--side", "B:mqtt.port=1884", "--out",
            "o", "--plan", "p.jmx", "--search", "floodRate", "--compare-id", "c"});
        assertThat(new Compare(s, System.out).sweepArgs(s.sides.get(1), 1, Path.of("/d"))).containsSubsequence(
                "--search", "floodRate", "-Jmqtt.port=1884").doesNotContain("--steps");
        assertThat(List.of(o.sides.get(0).definition(), o.sides.get(1).definition()))
                .containsExactly("the plan as given", "the plan with mqtt.port=1884");
    }
}
