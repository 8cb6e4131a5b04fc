package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.summary.EngineSummary;

/** What merge.sh refuses, and which engines it finds missing, before it merges (FleetIT merges real summaries). */
class MergeSummariesTest {
    private static EngineSummary summary(String run, String engineId, int number, String engines) {
        EngineSummary s = new EngineSummary();
        s.runId = run;
        s.engineId = engineId;
        s.engineNumber = number;
        if (engines != null) {
            s.parameters.put("mqttload.engines", engines);
        }
        return s;
    }

    @Test
    void summariesOfTwoRuns_areRefusedNamingBothFilesAndRuns() {
        Map<Path, EngineSummary> files = new LinkedHashMap<>();
        files.put(Path.of("summary-a-engine-1.json"), summary("run-a", "engine-1", 1, "2"));
        files.put(Path.of("summary-b-engine-2.json"), summary("run-b", "engine-2", 2, "2"));

        assertThatThrownBy(() -> MergeSummaries.check(files)).isInstanceOf(MergeSummaries.Refused.class)
                .hasMessage("'summary-b-engine-2.json' is of run 'run-b', 'summary-a-engine-1.json' of run 'run-a': give"
                        + " the summaries of one run");
    }

    @Test
    void oneEngineTwice_byIdOrByNumber_isRefusedNamingBothFiles() {
        Map<Path, EngineSummary> sameId = new LinkedHashMap<>();
        sameId.put(Path.of("one.json"), summary("run", "engine-1", 1, "2"));
        sameId.put(Path.of("copy.json"), summary("run", "engine-1", 1, "2"));
        assertThatThrownBy(() -> MergeSummaries.check(sameId)).hasMessageStartingWith("engine engine-1 (number 1) is in two"
                + " files, 'one.json' and 'copy.json'");

        Map<Path, EngineSummary> sameNumber = new LinkedHashMap<>();
        sameNumber.put(Path.of("a.json"), summary("run", "host-a", 7, null));
        sameNumber.put(Path.of("b.json"), summary("run", "host-b", 7, null));
        assertThatThrownBy(() -> MergeSummaries.check(sameNumber)).hasMessageStartingWith("engine host-b (number 7) is in"
                + " two files, 'a.json' and 'b.json'").hasMessageContaining("mqttload.engineNumber=auto");
    }

    @Test
    void enginesTheRunCounted_withoutAFile_areMissing_byNumberWhenNumberedFromOne() throws Exception {
        Map<Path, EngineSummary> files = new LinkedHashMap<>();
        files.put(Path.of("1.json"), summary("run", "engine-1", 1, "3"));
        files.put(Path.of("3.json"), summary("run", "engine-3", 3, "3"));
        assertThat(MergeSummaries.check(files)).containsExactly("engine number 2");

        Map<Path, EngineSummary> hashed = new LinkedHashMap<>();
        hashed.put(Path.of("x.json"), summary("run", "host-x", 1234, "2"));
        assertThat(MergeSummaries.check(hashed)).containsExactly("1 of 2 engines");

        Map<Path, EngineSummary> alone = new LinkedHashMap<>();
        alone.put(Path.of("x.json"), summary("run", "host-x", 1234, null));
        assertThat(MergeSummaries.check(alone)).isEmpty();
    }

    @Test
    void badArguments_exitWith2_andOneLineNamingTheInput(@TempDir Path dir) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = MergeSummaries.run(new String[] {dir.resolve("nothing-here").toString()},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("merge: '" + dir.resolve("nothing-here")
                + "': no such file or directory");

        ByteArrayOutputStream none = new ByteArrayOutputStream();
        assertThat(MergeSummaries.run(new String[] {dir.toString()}, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(none, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(none.toString(StandardCharsets.UTF_8)).startsWith("merge: no summary-*.json among [" + dir + "]");
    }
}
