package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What a search leaves behind, from a search over the model broker: the verdict in one sentence with its figures,
 * every step's row in Markdown, JSON and HTML, the two charts with a point per judged step, and the exit code.
 */
class CapacityOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static SweepOptions options(Path dir, String... extra) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.jmx"), "<jmeterTestPlan/>");
        Files.createDirectories(dir.resolve("home/bin"));
        List<String> args = new ArrayList<>(List.of("--plan", plan.toString(), "--out",
                dir.resolve("out").toString(), "--jmeter-home", dir.resolve("home").toString(), "--search", "rate",
                "--start", "100", "--sweep-id", "cap"));
        args.addAll(List.of(extra));
        return SweepOptions.parse(args.toArray(new String[0]));
    }

    @Test
    void aFoundLimit_isOneSentenceWithItsFigures_andEveryStepIsARow(@TempDir Path dir) throws Exception {
        SweepOptions o = options(dir);
        CapacitySearch search = new CapacitySearch(o.capacity.settings);
        CapacitySearch.Result result = search.run(new CapacityModelBroker(1234));
        Path out = Files.createDirectories(dir.resolve("out"));

        CapacityOutput output = new CapacityOutput(o, search, result, Instant.EPOCH, Instant.EPOCH);
        List<String> files = output.write(out);

        String verdict = output.verdict();
        assertThat(verdict).matches("SUSTAINS rate=\\d+ \\(offered \\d+\\.0 msg/s, delivered \\d+\\.0 msg/s, p99 from"
                + " intended 5\\.0 ms\\), confirmed over 120 s, and fails at rate=\\d+ because .* \\(bisect, step \\d+\\)");
        assertThat(output.exitCode()).isZero();
        assertThat(files).contains("capacity.md", "capacity.json", "capacity.html", "offered-delivered.svg",
                "offered-delivered.png", "latency-load.svg", "latency-load.png");
        String md = Files.readString(out.resolve("capacity.md"));
        assertThat(md).contains("**Verdict:** " + verdict).contains("| 1 | ramp up | 100 | 100.0 | 100.0 | 100.0 | 2.0"
                + " / 5.0 |").contains("| confirm | " + search.number(result.sustained) + " |");
        assertThat(md.lines().filter(l -> l.matches("\\| \\d+ \\| (ramp up|bisect|confirm) \\|.*"))).hasSize(
                result.steps.size());
        // The model's steps have no report, hence no drain figures: said so, not shown as 0.
        assertThat(md).contains("| after production (drain) | result |").contains("| n/a | passed |");
        JsonNode json = JSON.readTree(out.resolve("capacity.json").toFile());
        assertThat(json.path("outcome").asText()).isEqualTo("SUSTAINS");
        assertThat(json.path("sustained").asDouble()).isEqualTo(result.sustained);
        assertThat(json.path("steps")).hasSize(result.steps.size());
        assertThat(json.path("criteria").path("p99SlaMillis").asDouble()).isEqualTo(100);
        JsonNode failedStep = json.path("steps").get(result.failedStep.result.index - 1);
        assertThat(failedStep.path("passed").asBoolean()).isFalse();
        assertThat(failedStep.path("reasons").get(0).path("criterion").asText()).isNotEmpty();
        String svg = Files.readString(out.resolve("offered-delivered.svg"));
        assertThat(svg.split("<title>step ", -1)).as("a point per step and series").hasSize(2 * result.steps.size() + 1);
        assertThat(ImageIO.read(out.resolve("latency-load.png").toFile()).getWidth()).isEqualTo(XyChart.WIDTH);
        assertThat(Files.readString(out.resolve("capacity.html"))).contains(verdict.replace("'", "&#39;"))
                .doesNotContain("<script");
    }

    @Test
    void anOperatingPoint_namesItsCriterion_inTheVerdict_theReports_andTheJson(@TempDir Path dir) throws Exception {
        SweepOptions o = options(dir, "--broker-pid", "4242", "--max-broker-cpu", "75");
        CapacitySearch search = new CapacitySearch(o.capacity.settings);
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        broker.brokerCpuPerValue = 0.1;
        broker.criteria.maxBrokerCpuPercent = 75;
        CapacitySearch.Result result = search.run(broker);
        Path out = Files.createDirectories(dir.resolve("out"));

        CapacityOutput output = new CapacityOutput(o, search, result, Instant.EPOCH, Instant.EPOCH);
        output.write(out);

        assertThat(output.verdict()).matches("SUSTAINS rate=\\d+ \\(offered .*, broker CPU \\d+\\.\\d %\\), confirmed over"
                + " 120 s, and fails at rate=\\d+ because broker CPU: \\d+\\.\\d % > 75 % \\(average over the window, of 1"
                + " core\\) \\(bisect, step \\d+\\)");
        assertThat(output.exitCode()).isZero();
        String md = Files.readString(out.resolve("capacity.md"));
        assertThat(md).contains("broker CPU avg <= 75 % of 1 core, generator or machine saturated")
                .contains("The recommended operating point (--max-broker-cpu): the highest rate at which a step passed"
                        + " with broker CPU avg <= 75 % of 1 core over its window");
        assertThat(Files.readString(out.resolve("capacity.html"))).contains("The recommended operating point");
        JsonNode json = JSON.readTree(out.resolve("capacity.json").toFile());
        assertThat(json.path("formatVersion").asInt()).isEqualTo(2);
        assertThat(json.path("criteria").path("maxBrokerCpuPercent").asDouble()).isEqualTo(75);
        assertThat(json.path("criteria").path("brokerCores").asDouble()).isEqualTo(1);
        assertThat(json.path("steps").get(result.failedStep.result.index - 1).path("reasons").get(0).path("criterion")
                .asText()).isEqualTo("broker CPU");

        SweepOptions highest = options(Files.createDirectories(dir.resolve("h")));
        assertThat(new CapacityOutput(highest, search, result, Instant.EPOCH, Instant.EPOCH).operatingPoint()).isEmpty();
        assertThat(JSON.readTree(new CapacityOutput(highest, search, result, Instant.EPOCH, Instant.EPOCH).json())
                .path("criteria").has("maxBrokerCpuPercent")).isFalse();
    }

    @Test
    void theOtherOutcomes_readAsWhatTheyAre_andExitAccordingly(@TempDir Path dir) throws Exception {
        SweepOptions o = options(dir, "--require", "3000");
        CapacitySearch search = new CapacitySearch(o.capacity.settings);
        CapacityModelBroker limited = new CapacityModelBroker(5000);
        limited.generatorLimit = 700;

        CapacityOutput generator = new CapacityOutput(o, search, search.run(limited), Instant.EPOCH, Instant.EPOCH);
        CapacityOutput below = new CapacityOutput(o, search, search.run(new CapacityModelBroker(1000)), Instant.EPOCH,
                Instant.EPOCH);
        CapacityOutput none = new CapacityOutput(o, search, search.run(new CapacityModelBroker(0.5)), Instant.EPOCH,
                Instant.EPOCH);

        assertThat(generator.verdict()).startsWith("LIMITED BY THE LOAD GENERATOR at rate=800 (ramp up, step 4):"
                + " generator: its process used over 90 % of every core for 30 of 30 s: add engines; the broker"
                + " sustained rate=400").endsWith("the broker's limit is not known");
        assertThat(generator.exitCode()).isEqualTo(3);
        assertThat(below.verdict()).contains("; BELOW --require 3000");
        assertThat(below.exitCode()).isEqualTo(1);
        assertThat(none.verdict()).startsWith("SUSTAINS NONE of the values tried: fails at rate=1 because");
        assertThat(none.exitCode()).isEqualTo(1);
    }

    @Test
    void aLimitFoundOnABusyMachine_thatTheUserAllowed_saysSoInTheVerdict(@TempDir Path dir) throws Exception {
        SweepOptions o = options(dir, "--max-saturated", "100");
        CapacitySearch search = new CapacitySearch(o.capacity.settings);
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        broker.machineBusyFrom = 1000;
        broker.criteria.maxSaturatedPercent = o.capacity.criteria.maxSaturatedPercent;
        CapacitySearch.Result result = search.run(broker);

        CapacityOutput output = new CapacityOutput(o, search, result, Instant.EPOCH, Instant.EPOCH);

        assertThat(result.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(output.verdict()).contains(", while the engine's machine was over 90 % busy for 30 of 30 s (allowed:"
                + " saturated <= 100 %): that limit may be the machine's as much as the broker's)");
        JsonNode failed = JSON.readTree(output.json()).path("steps").get(result.failedStep.result.index - 1);
        assertThat(failed.path("limit").asText()).isEqualTo("BROKER");
        assertThat(failed.path("saturationCaveat").asText()).startsWith("the engine's machine was over 90 % busy");
    }

    @Test
    void aStepRunAgain_saysWhyInItsRow_andTheRepeatNamesIt(@TempDir Path dir) throws Exception {
        SweepOptions o = options(dir);
        CapacitySearch search = new CapacitySearch(o.capacity.settings);
        CapacityModelBroker broker = new CapacityModelBroker(1234) {
            @Override
            StepResult.Builder step(double value, CapacitySearch.Phase phase, boolean repeat) {
                StepResult.Builder r = super.step(value, phase, repeat);
                if (value == 1600 && !repeat) {
                    r.generatorSaturatedSeconds = 2;
                    r.machineSaturatedSeconds = 3;
                }
                return r;
            }
        };
        CapacitySearch.Result result = search.run(broker);
        CapacityOutput output = new CapacityOutput(o, search, result, Instant.EPOCH, Instant.EPOCH);

        String md = output.markdown();
        assertThat(md).containsPattern("\\| 5 \\| ramp up \\| 1600 \\|.*; run again: the generator or machine was saturated"
                + " for 2 / 3 s \\|").containsPattern("\\| 6 \\| ramp up, repeated \\| 1600 \\|");
        JsonNode steps = JSON.readTree(output.json()).path("steps");
        assertThat(steps.get(4).path("repeated").asBoolean()).isTrue();
        assertThat(steps.get(4).has("repeatOf")).isFalse();
        assertThat(steps.get(5).path("repeatOf").asInt()).isEqualTo(5);
        assertThat(steps.get(5).path("repeated").asBoolean()).isFalse();
    }
}
