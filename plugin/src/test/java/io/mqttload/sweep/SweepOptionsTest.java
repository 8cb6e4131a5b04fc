package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepOptionsTest {
    @TempDir
    Path dir;
    private Path plan;
    private Path home;

    @BeforeEach
    void files() throws IOException {
        plan = Files.writeString(dir.resolve("plan.jmx"), "<jmeterTestPlan/>");
        home = Files.createDirectories(dir.resolve("home/bin")).getParent();
    }

    private SweepOptions parse(String... extra) throws SweepOptions.UsageException {
        List<String> args = new ArrayList<>(List.of("--plan", plan.toString(), "--out", dir.resolve("out").toString(),
                "--jmeter-home", home.toString()));
        args.addAll(List.of(extra));
        return SweepOptions.parse(args.toArray(new String[0]));
    }

    @Test
    void inlineSteps_labelsAndPropertiesInOrder() throws Exception {
        SweepOptions o = parse("--steps", "small:partitions=1,qos=0; partitions=4 ;url:influx.url=http://h:8086",
                "--clients-property", "partitions", "-JdurationSeconds=3");

        assertThat(o.steps).hasSize(3);
        assertThat(o.label(o.steps.get(0))).isEqualTo("small");
        assertThat(o.steps.get(0).properties).containsExactly(Map.entry("partitions", "1"), Map.entry("qos", "0"));
        assertThat(o.label(o.steps.get(1))).isEqualTo("partitions=4");
        assertThat(o.label(o.steps.get(2))).isEqualTo("url");
        assertThat(o.steps.get(2).properties).containsExactly(Map.entry("influx.url", "http://h:8086"));
        assertThat(o.localProperties).containsEntry("durationSeconds", "3");
    }

    @Test
    void stepFile_isOneStepNamedAfterTheFile() throws Exception {
        Path file = Files.writeString(dir.resolve("4k.properties"), "partitions=4\npublishersPerPartition=1000\n",
                StandardCharsets.UTF_8);

        SweepOptions o = parse("--step-file", file.toString());

        assertThat(o.label(o.steps.get(0))).isEqualTo("4k");
        assertThat(o.steps.get(0).describe()).isEqualTo("partitions=4,publishersPerPartition=1000");
    }

    @Test
    void badInput_isOneLineNamingTheOptionAndValue() {
        assertThatThrownBy(() -> parse("--steps", "partitions=1;;partitions=2"))
                .hasMessageStartingWith("--steps 'partitions=1;;partitions=2': empty step");
        assertThatThrownBy(() -> parse("--steps", "partitions=1;partitions")).hasMessage(
                "--steps 'partitions': 'partitions' is not name=value");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--bogus", "x")).hasMessage("unknown option '--bogus'");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--step-timeout", "ten"))
                .hasMessage("--step-timeout 'ten': not a whole number");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--settle-seconds", "-1"))
                .hasMessageStartingWith("--settle-seconds '-1'");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--on-failure", "retry"))
                .hasMessage("--on-failure 'retry': expected continue or stop");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--clients-property", "partitions"))
                .hasMessage("--clients-property 'partitions': step 'p=1' does not set it (nor has a label)");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--broker-pid", "1", "--broker-process", "mosquitto"))
                .hasMessage("--broker-pid 1 and --broker-process 'mosquitto': give one");
        assertThatThrownBy(() -> parse("--steps", "p=1", "-Jnovalue")).hasMessage("-J 'novalue': expected -Jname=value");
        assertThatThrownBy(() -> parse()).hasMessage("--steps / --step-file: no step given (or --search for a"
                + " capacity search)");
        assertThatThrownBy(() -> SweepOptions.parse(new String[] {"--plan", dir.resolve("missing.jmx").toString()}))
                .hasMessage("--plan '" + dir.resolve("missing.jmx") + "': no such file");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--sweep-id", "a/b"))
                .hasMessage("--sweep-id 'a/b': letters, digits, '.', '_' and '-' only");
    }

    @Test
    void warmEngine_isOffByDefault_andWarmsUpForTenSecondsUnlessTold() throws Exception {
        assertThat(parse("--steps", "p=1").warmEngine).isFalse();
        SweepOptions warm = parse("--steps", "p=1", "--warm-engine");
        assertThat(warm.warmEngine).isTrue();
        assertThat(warm.engineWarmUpSeconds).isEqualTo(10);
        assertThat(parse("--steps", "p=1", "--warm-engine", "--engine-warm-up", "0").engineWarmUpSeconds).isZero();
    }

    @Test
    void warmEngine_badInputNamesTheOptionAndValue() {
        assertThatThrownBy(() -> parse("--steps", "p=1", "--warm-engine", "--remote", "127.0.0.1:24001"))
                .hasMessage("--warm-engine with --remote '127.0.0.1:24001': give one (remote engines stay up between"
                        + " steps already)");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--engine-warm-up", "5")).hasMessage("--engine-warm-up 5: only"
                + " with --warm-engine (a fresh JVM per step would not keep what it warmed)");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--warm-engine", "--engine-warm-up", "soon"))
                .hasMessage("--engine-warm-up 'soon': not a whole number");
        assertThatThrownBy(() -> parse("--steps", "p=1", "--warm-engine", "--engine-warm-up", "-1"))
                .hasMessage("--engine-warm-up '-1': out of range 0..3600");
    }

    @Test
    void outputDirectory_mustBeNewOrEmpty() throws Exception {
        Files.createDirectories(dir.resolve("out"));
        Files.writeString(dir.resolve("out/sweep.json"), "{}");

        assertThatThrownBy(() -> parse("--steps", "p=1")).hasMessageContaining("not empty");
    }

    @Test
    void secrets_stayOutOfTheRecordedCommand() throws Exception {
        SweepOptions o = parse("--steps", "p=1", "-Jinflux.password=hunter2", "-Jqos=1");

        assertThat(o.arguments).contains("-Jinflux.password=****", "-Jqos=1").doesNotContain("-Jinflux.password=hunter2");
    }

    @Test
    void help_isGeneratedFromTheOptions_andRunsNothing() throws Exception {
        SweepOptions o = SweepOptions.parse(new String[] {"--help"});

        assertThat(o.helpRequested).isTrue();
        assertThat(SweepOptions.usage()).contains("--plan=PLAN.jmx", "--steps=[label:]k=v,k=v;...", "--step-file=FILE",
                "--remote=HOST:PORT,...", "-J=name=value", "--on-failure=continue|stop", "Exit code of a sweep: 0 every step passed",
                "--search=NAME", "--sla-p99-ms=MS", "--disturbed=repeat|accept", "under 20 % of a core");
    }

    @Test
    void search_takesItsSettingsAndThresholds_andKeepsTheStartsPrecision() throws Exception {
        SweepOptions o = parse("--search", "floodRate", "--start", "250.5", "--max", "4000", "--factor", "1.5",
                "--tolerance", "5", "--step-seconds", "20", "--sla-p99-ms", "50", "--max-loss", "0.1", "--require", "300");

        assertThat(o.capacity.searching()).isTrue();
        assertThat(o.capacity.settings.start).isEqualTo(250.5);
        assertThat(o.capacity.settings.resolution).isEqualTo(0.1);
        assertThat(o.capacity.settings.factor).isEqualTo(1.5);
        assertThat(o.capacity.criteria.p99SlaMillis).isEqualTo(50);
        assertThat(o.capacity.criteria.scheduleLagLimitMillis()).as("the lag's bound defaults to the SLA").isEqualTo(50);
        assertThat(o.capacity.criteria.paceRequired).isTrue();
        assertThat(parse("--search", "publishers", "--start", "1000").capacity.settings.resolution).isEqualTo(1);
        assertThat(o.capacity.settings.repeatDisturbed).as("a disturbed failure is repeated by default").isTrue();
        assertThat(parse("--search", "rate", "--start", "1", "--disturbed", "accept").capacity.settings.repeatDisturbed)
                .isFalse();
    }

    @Test
    void search_badInputNamesTheOptionAndValue() {
        assertThatThrownBy(() -> parse("--search", "rate")).hasMessage("--search 'rate': --start missing (the first"
                + " value to try)");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "fast")).hasMessage("--start 'fast': not a number");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "1", "--disturbed", "retry"))
                .hasMessage("--disturbed 'retry': expected repeat or accept");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "0")).hasMessage("--start '0': must be above 0");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--factor", "1"))
                .hasMessage("--factor '1': out of range (1..100]");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--max", "50"))
                .hasMessage("--max 50: below --start 100");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--min-delivered", "101"))
                .hasMessage("--min-delivered '101': out of range [0..100]");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--steps", "rate=1"))
                .hasMessage("--search 'rate' and --steps / --step-file: give one; a search chooses its own steps");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "-JdurationSeconds=60"))
                .hasMessage("-JdurationSeconds: the search sets it at every step (--step-seconds, --confirm-seconds)");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "-Jrate=5"))
                .hasMessage("-Jrate: the search sets it at every step (--start, --max)");
    }

    @Test
    void maxBrokerCpu_isAShareOfTheBrokersCores_andItsBadValuesNameTheOption() throws Exception {
        SweepOptions o = parse("--search", "rate", "--start", "100", "--broker-pid", "4242", "--max-broker-cpu", "75");
        assertThat(o.capacity.criteria.maxBrokerCpuPercent).isEqualTo(75);
        assertThat(o.capacity.criteria.brokerCores).as("one core unless told").isEqualTo(1);
        assertThat(parse("--search", "rate", "--start", "100", "--broker-process", "emqx", "--max-broker-cpu", "70.5",
                "--broker-cores", "4").capacity.criteria.brokerCores).isEqualTo(4);
        assertThat(parse("--search", "rate", "--start", "100").capacity.criteria.brokerCpuAsked()).isFalse();

        String[] search = {"--search", "rate", "--start", "100", "--broker-pid", "4242"};
        assertThatThrownBy(() -> parse(with(search, "--max-broker-cpu", "abc")))
                .isInstanceOf(SweepOptions.UsageException.class).hasMessage("--max-broker-cpu 'abc': not a number");
        assertThatThrownBy(() -> parse(with(search, "--max-broker-cpu", "0")))
                .hasMessage("--max-broker-cpu '0': out of range (0..100]");
        assertThatThrownBy(() -> parse(with(search, "--max-broker-cpu", "150")))
                .hasMessage("--max-broker-cpu '150': out of range (0..100]");
        assertThatThrownBy(() -> parse(with(search, "--max-broker-cpu", "75", "--broker-cores", "0")))
                .hasMessage("--broker-cores '0': out of range (0..100000]");
        assertThatThrownBy(() -> parse(with(search, "--broker-cores", "4")))
                .hasMessage("--broker-cores 4: only with --max-broker-cpu, whose cores it counts");
    }

    @Test
    void maxBrokerCpu_withNothingToReportTheBrokersCpu_isRefusedBeforeAnyStep() throws Exception {
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--max-broker-cpu", "75"))
                .hasMessageStartingWith("--max-broker-cpu 75: nothing reports the broker's CPU to judge it by; give"
                        + " --broker-pid or --broker-process");

        // The shipped plans' monitor reads broker.pid / broker.process: set, it reports CPU; unset, it watches nothing.
        Files.writeString(plan, "<jmeterTestPlan><hashTree>"
                + "<io.mqttload.jmeter.MqttBrokerMonitor guiclass=\"TestBeanGUI\""
                + " testclass=\"io.mqttload.jmeter.MqttBrokerMonitor\" testname=\"MQTT Broker Monitor\" enabled=\"true\">"
                + "<stringProp name=\"agent\">${__P(broker.agent,false)}</stringProp>"
                + "<stringProp name=\"pid\">${__P(broker.pid,)}</stringProp>"
                + "<stringProp name=\"pidFile\"></stringProp>"
                + "<stringProp name=\"processName\">${__P(broker.process,)}</stringProp>"
                + "<stringProp name=\"sysTopics\">${__P(broker.sysTopics,true)}</stringProp>"
                + "</io.mqttload.jmeter.MqttBrokerMonitor><hashTree/></hashTree></jmeterTestPlan>");
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--max-broker-cpu", "75"))
                .hasMessageStartingWith("--max-broker-cpu 75: nothing reports");
        assertThat(parse("--search", "rate", "--start", "100", "--max-broker-cpu", "75", "-Jbroker.process=mosquitto")
                .capacity.criteria.brokerCpuAsked()).isTrue();
        Path q = Files.writeString(dir.resolve("broker.properties"), "broker.pid=4242\n");
        assertThat(parse("--search", "rate", "--start", "100", "--max-broker-cpu", "75", "-q", q.toString())
                .capacity.criteria.brokerCpuAsked()).isTrue();
        assertThat(parse("--steps", "a:broker.pid=1;b:broker.pid=2", "--max-broker-cpu", "75").capacity.criteria
                .brokerCpuAsked()).as("a sweep's steps may name the broker").isTrue();
        Files.writeString(plan, Files.readString(plan).replace("enabled=\"true\"", "enabled=\"false\""));
        assertThatThrownBy(() -> parse("--search", "rate", "--start", "100", "--max-broker-cpu", "75",
                "-Jbroker.pid=4242")).as("a disabled monitor reports nothing").hasMessageStartingWith("--max-broker-cpu 75:");
    }

    private static String[] with(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
