package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.measure.Count;
import io.mqttload.summary.Rates;

/**
 * {@code sweep.json} and {@code capacity.json} keep the fields tools and scripts read, and read back as written; a file
 * of another format is refused naming the file and the version.
 */
class ResultJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Every field of {@code sweep.json} with every optional one present, and its JSON type, as the node-by-node writer
     * wrote them before the file had a format version ({@code formatVersion} is the one field added since).
     */
    private static final Set<String> SWEEP_FIELDS = Set.of("formatVersion NUMBER", "arguments ARRAY", "charts OBJECT",
            "charts.broker-cpu STRING", "charts.latency STRING", "charts.throughput STRING", "finished STRING",
            "ok BOOLEAN", "plan STRING", "remote ARRAY", "started STRING", "steps ARRAY", "steps[].broker OBJECT",
            "steps[].broker.cpuAvg NUMBER", "steps[].broker.cpuMax NUMBER", "steps[].broker.rssAvg NUMBER",
            "steps[].broker.rssMax NUMBER", "steps[].brokerSettle OBJECT", "steps[].brokerSettle.lastCpuPercent NUMBER",
            "steps[].brokerSettle.seconds NUMBER", "steps[].brokerSettle.settled BOOLEAN", "steps[].clients NUMBER",
            "steps[].dir STRING", "steps[].drainRate NUMBER", "steps[].drainSeconds NUMBER", "steps[].duplicates NUMBER",
            "steps[].errors NUMBER", "steps[].exitCode NUMBER", "steps[].expected NUMBER", "steps[].index NUMBER",
            "steps[].label STRING", "steps[].lost NUMBER", "steps[].ok BOOLEAN", "steps[].properties OBJECT",
            "steps[].properties.partitions STRING", "steps[].pubToSubMillis OBJECT", "steps[].pubToSubMillis.max NUMBER",
            "steps[].pubToSubMillis.mean NUMBER", "steps[].pubToSubMillis.p50 NUMBER", "steps[].pubToSubMillis.p90 NUMBER",
            "steps[].pubToSubMillis.p99 NUMBER", "steps[].pubToSubMillis.p99.9 NUMBER", "steps[].publishRate NUMBER",
            "steps[].receiveRate NUMBER", "steps[].received NUMBER", "steps[].receivedInDrain NUMBER",
            "steps[].report STRING", "steps[].reportHtml STRING", "steps[].runId STRING", "steps[].seconds NUMBER",
            "steps[].status STRING", "steps[].timedOut BOOLEAN", "steps[].verdict STRING", "steps[].verdictText STRING",
            "sweepId STRING");

    /**
     * The same for {@code capacity.json} (format 2 adds the broker-CPU criterion); a judged step that passed has
     * {@code limit} null, a failed one its name.
     */
    private static final Set<String> CAPACITY_FIELDS = Set.of("formatVersion NUMBER", "answered BOOLEAN",
            "arguments ARRAY", "charts OBJECT", "charts.latency-load STRING", "charts.offered-delivered STRING",
            "criteria OBJECT", "criteria.brokerCores NUMBER", "criteria.maxBacklogGrowthPercent NUMBER",
            "criteria.maxBrokerCpuPercent NUMBER", "criteria.maxLossPercent NUMBER",
            "criteria.maxSaturatedPercent NUMBER", "criteria.maxScheduleLagMillis NUMBER",
            "criteria.minDeliveredPercent NUMBER", "criteria.p99SlaMillis NUMBER", "exitCode NUMBER", "failed NUMBER",
            "finished STRING", "outcome STRING", "plan STRING", "property STRING", "remote ARRAY", "required NUMBER",
            "searchId STRING", "settings OBJECT", "settings.confirmSeconds NUMBER", "settings.durationProperty STRING",
            "settings.factor NUMBER", "settings.max NUMBER", "settings.maxSteps NUMBER", "settings.resolution NUMBER",
            "settings.start NUMBER", "settings.stepSeconds NUMBER", "settings.tolerancePercent NUMBER",
            "settings.warmupSeconds NUMBER", "started STRING", "steps ARRAY", "steps[].backlogGrowth NUMBER",
            "steps[].broker OBJECT", "steps[].broker.cpuAvg NUMBER", "steps[].broker.cpuMax NUMBER",
            "steps[].brokerSettle OBJECT", "steps[].brokerSettle.lastCpuPercent NUMBER",
            "steps[].brokerSettle.seconds NUMBER", "steps[].brokerSettle.settled BOOLEAN", "steps[].clients NUMBER",
            "steps[].deliveredRate NUMBER", "steps[].dir STRING", "steps[].drainRate NUMBER",
            "steps[].drainSeconds NUMBER", "steps[].exitCode NUMBER", "steps[].expected NUMBER", "steps[].fanOut NUMBER",
            "steps[].generatorSaturatedSeconds NUMBER", "steps[].index NUMBER", "steps[].intendedP50Millis NUMBER",
            "steps[].intendedP99Millis NUMBER", "steps[].lagP99Millis NUMBER", "steps[].limit NULL",
            "steps[].limit STRING", "steps[].lost NUMBER", "steps[].machineSaturatedSeconds NUMBER",
            "steps[].measuredSeconds NUMBER", "steps[].offeredRate NUMBER", "steps[].passed BOOLEAN",
            "steps[].phase STRING", "steps[].pubToSubP99Millis NUMBER", "steps[].reasons ARRAY",
            "steps[].reasons[].criterion STRING", "steps[].reasons[].figure STRING", "steps[].receivedInDrain NUMBER",
            "steps[].repeatOf NUMBER", "steps[].repeated BOOLEAN", "steps[].report STRING", "steps[].runId STRING",
            "steps[].seconds NUMBER", "steps[].timedOut BOOLEAN", "steps[].value NUMBER", "steps[].verdict STRING",
            "steps[].windowReceiveRate NUMBER", "sustained NUMBER", "verdict STRING");

    /** A sweep of one step with every optional figure: a report, a broker, the drain and a settle before it. */
    static String sweepJson(Path dir) throws Exception {
        StepResult.Builder b = SweepOutputTest.reported(dir, 1, 6, "NO_LOSS", true);
        b.settle = new BrokerSettle.Result(true, 2.04, 3.1);
        return new SweepOutput(SweepOutputTest.options(dir), List.of(b.judgedBy(new StepCriteria())), Instant.EPOCH,
                Instant.EPOCH).json();
    }

    /**
     * A search over the model broker whose steps carry every optional figure, one of them run again, with every
     * optional criterion.
     */
    static String capacityJson(Path dir) throws Exception {
        SweepOptions o = CapacityOutputTest.options(dir, "--require", "500", "--broker-pid", "4242",
                "--max-broker-cpu", "75", "--broker-cores", "2");
        CapacitySearch search = new CapacitySearch(o.capacity.settings);
        CapacityModelBroker broker = new CapacityModelBroker(1234) {
            @Override
            StepResult.Builder step(double value, CapacitySearch.Phase phase, boolean repeat) {
                StepResult.Builder r = super.step(value, phase, repeat);
                r.settle = new BrokerSettle.Result(false, 5, 40);
                r.reportJson = "step-" + r.index + "/report-" + r.runId + ".json";
                r.hasBroker = true;
                r.brokerCpuAvg = 10;
                r.brokerCpuMax = 20;
                r.rates = Rates.of(c -> c == Count.RECEIVED_IN_DRAIN ? 30 : c == Count.DRAIN_MILLIS ? 4000 : 60, 30);
                if (value == 1600 && !repeat) {
                    r.generatorSaturatedSeconds = 2;
                    r.machineSaturatedSeconds = 3;
                }
                return r;
            }
        };
        CapacitySearch.Result result = search.run(broker);
        return new CapacityOutput(o, search, result, Instant.EPOCH, Instant.EPOCH).json();
    }

    @Test
    void sweepJson_hasTheFieldsItAlwaysHad_andItsFormatVersion(@TempDir Path dir) throws Exception {
        assertThat(fields(JSON.readTree(sweepJson(dir)))).isEqualTo(new TreeSet<>(SWEEP_FIELDS));
    }

    @Test
    void capacityJson_hasTheFieldsItAlwaysHad_andItsFormatVersion(@TempDir Path dir) throws Exception {
        assertThat(fields(JSON.readTree(capacityJson(dir)))).isEqualTo(new TreeSet<>(CAPACITY_FIELDS));
    }

    @Test
    void aSweepReadBack_isWhatWasWritten(@TempDir Path dir) throws Exception {
        String written = sweepJson(dir);
        Path file = Files.writeString(dir.resolve("sweep.json"), written);

        SweepFile read = ResultJson.readSweep(file);

        assertThat(read.formatVersion).isEqualTo(ResultJson.FORMAT_VERSION);
        assertThat(read.steps.get(0).pubToSubMillis).containsEntry("p99.9", 1.9).containsEntry("max", 2.0);
        assertThat(read.steps.get(0).brokerSettle.seconds).isEqualTo(2.0);
        assertThat(read.steps.get(0).receivedInDrain).isEqualTo(7);
        assertThat(ResultJson.write(read)).isEqualTo(written);
    }

    @Test
    void aSearchReadBack_isWhatWasWritten_aPassedStepsNullLimitIncluded(@TempDir Path dir) throws Exception {
        String written = capacityJson(dir);
        Path file = Files.writeString(dir.resolve("capacity.json"), written);

        CapacityFile read = ResultJson.readCapacity(file);

        assertThat(read.steps.get(0).passed).isTrue();
        assertThat(read.steps.get(0).limit).isNotNull().hasValue(null);
        assertThat(read.steps).anySatisfy(s -> assertThat(s.limit.get()).isEqualTo("BROKER"));
        assertThat(read.required).isEqualTo(500);
        assertThat(read.formatVersion).isEqualTo(2);
        assertThat(read.criteria.maxBrokerCpuPercent).isEqualTo(75);
        assertThat(read.criteria.brokerCores).isEqualTo(2);
        assertThat(ResultJson.write(read)).isEqualTo(written);
    }

    @Test
    void aSearchOfFormat1_isStillRead_asOneWithoutTheBrokerCpuCriterion_andALaterFormatIsRefused(@TempDir Path dir)
            throws Exception {
        // Format 1 is format 2 without the criterion: its sustained value is the highest sustained load.
        String v2 = capacityJson(dir);
        Path v1 = Files.writeString(dir.resolve("capacity-v1.json"), v2.replace("\"formatVersion\": 2", "\"formatVersion\": 1")
                .replaceAll(",\\s*\"(maxBrokerCpuPercent|brokerCores)\": [0-9.]+", ""));
        Path v3 = Files.writeString(dir.resolve("capacity-v3.json"), v2.replace("\"formatVersion\": 2",
                "\"formatVersion\": 3"));

        CapacityFile old = ResultJson.readCapacity(v1);
        assertThat(old.formatVersion).isEqualTo(1);
        assertThat(old.criteria.maxBrokerCpuPercent).isNull();
        assertThat(old.sustained).isNotNull();
        assertThat(SweepResults.capacity(v1).sustained).isEqualTo(old.sustained);
        assertThatThrownBy(() -> ResultJson.readCapacity(v3)).hasMessage(v3 + ": a capacity search's results of"
                + " formatVersion 3, and this plugin reads formatVersion 1 to 2: read it with the plugin version that"
                + " wrote it");
    }

    @Test
    void aFileOfAnotherFormat_isRefused_namingTheFileAndItsVersion(@TempDir Path dir) throws Exception {
        Path sweep = Files.writeString(dir.resolve("sweep.json"), sweepJson(dir).replace("\"formatVersion\": 1",
                "\"formatVersion\": 2"));
        Path search = Files.writeString(dir.resolve("capacity.json"), "{\"formatVersion\": \"one\", \"steps\": []}");

        assertThatThrownBy(() -> ResultJson.readSweep(sweep)).isInstanceOf(IOException.class)
                .hasMessage(sweep + ": a sweep's results of formatVersion 2, and this plugin reads formatVersion 1:"
                        + " read it with the plugin version that wrote it");
        assertThatThrownBy(() -> ResultJson.readCapacity(search)).hasMessageStartingWith(search
                + ": a capacity search's results of formatVersion \"one\"");
    }

    @Test
    void aFileWrittenBeforeTheVersion_isReadAsFormat1_andNotJsonIsRefusedNamingTheFile(@TempDir Path dir)
            throws Exception {
        Path old = Files.writeString(dir.resolve("sweep.json"), sweepJson(dir).replace("\"formatVersion\": 1,", ""));
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"steps\": [");

        assertThat(ResultJson.readSweep(old).steps.get(0).clients).isEqualTo(6);
        assertThatThrownBy(() -> ResultJson.readSweep(broken)).hasMessageStartingWith(broken
                + ": not a sweep's results (JSON)");
    }

    /** Each field's path ({@code steps[].x} for the elements of a list) and JSON type, over the whole tree. */
    private static Set<String> fields(JsonNode tree) {
        Set<String> out = new TreeSet<>();
        collect(tree, "", out);
        return out;
    }

    private static void collect(JsonNode n, String prefix, Set<String> out) {
        if (n.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                out.add(path + " " + e.getValue().getNodeType());
                collect(e.getValue(), path, out);
            }
        } else if (n.isArray()) {
            n.forEach(c -> collect(c, prefix + "[]", out));
        }
    }
}
