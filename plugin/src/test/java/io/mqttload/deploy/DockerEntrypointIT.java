package io.mqttload.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.testsupport.Command;

/**
 * The JMeter image's entry point without Docker: the command line of each role, as a stand-in {@code jmeter} or
 * {@code jmeter-server} receives it, and the settings it refuses before starting anything.
 */
class DockerEntrypointIT {
    @TempDir
    Path directory;

    private Entrypoint entrypoint;

    @BeforeEach
    void stubs() {
        entrypoint = new Entrypoint(directory);
    }

    @Test
    void script_isValidBashAndExecutable() {
        Command.Result syntax = Command.run(List.of("bash", "-n", Entrypoint.SCRIPT.toString()), directory, "",
                Duration.ofSeconds(10));
        assertThat(syntax.exit).as(syntax.all()).isZero();
        // The Dockerfile copies it without --chmod: the mode in git is what the image gets.
        assertThat(Files.isExecutable(Entrypoint.SCRIPT)).isTrue();
    }

    @Test
    void engine_inAStatefulSetPod_isOrdinalPlusOne_withFixedPortsAndItsDnsName() {
        Entrypoint.Run run = entrypoint.run(Map.of("JMETER_ROLE", "engine", "STATEFULSET_POD_NAME", "load-engine-2",
                "RMI_HOSTNAME", "load-engine-2.load-engines.perf.svc", "RMI_SSL_DISABLE", "true", "PROMETHEUS_PORT", "9270"),
                "-Jextra=1");

        assertThat(run.result.exit).as(run.result.all()).isZero();
        assertThat(run.command).containsExactly("jmeter-server", "-Dserver_port=1099", "-Jserver.rmi.localport=4000",
                "-Djava.rmi.server.hostname=load-engine-2.load-engines.perf.svc", "-Jserver.rmi.ssl.disable=true",
                "-Jmqttload.engineNumber=3", "-Jmqttload.engineId=engine-3", "-Jmqttload.prometheus.port=9270",
                "-Jmqttload.prometheus.host=0.0.0.0", "-Jextra=1");
    }

    @Test
    void engine_takesPortsIdentityRunAndKeystoreFromTheEnvironment_passwordOffTheCommandLine() throws Exception {
        Path keystore = Files.writeString(directory.resolve("rmi_keystore.jks"), "keystore");
        Entrypoint.Run run = entrypoint.run(Map.ofEntries(Map.entry("JMETER_ROLE", "engine"), Map.entry("HOSTNAME", "edge7"),
                Map.entry("SERVER_PORT", "24001"), Map.entry("RMI_LOCAL_PORT", "24101"), Map.entry("ENGINE_NUMBER", "07"),
                Map.entry("ENGINE_ID", "edge-7"), Map.entry("RUN_ID", "r-1"), Map.entry("ENGINES", "3"),
                Map.entry("RMI_KEYSTORE_FILE", keystore.toString()), Map.entry("RMI_KEYSTORE_PASSWORD", "s3cret"),
                Map.entry("PROMETHEUS_PUSHGATEWAY", "http://pushgateway:9091")));

        assertThat(run.result.exit).as(run.result.all()).isZero();
        assertThat(run.command).hasSize(11);
        assertThat(run.command.subList(0, 4)).containsExactly("jmeter-server", "-Dserver_port=24001",
                "-Jserver.rmi.localport=24101", "-Djava.rmi.server.hostname=edge7");
        assertThat(run.command.get(4)).isEqualTo("-q");
        assertThat(run.command.subList(6, 11)).containsExactly("-Jmqttload.engineNumber=7", "-Jmqttload.engineId=edge-7",
                "-Jmqttload.runId=r-1", "-Jmqttload.engines=3", "-Jmqttload.prometheus.pushgateway=http://pushgateway:9091");
        assertThat(String.join(" ", run.command)).doesNotContain("s3cret");
        String properties = Files.readString(Path.of(run.command.get(5)), StandardCharsets.UTF_8);
        assertThat(properties).contains("server.rmi.ssl.keystore.file=" + keystore, "server.rmi.ssl.keystore.password=s3cret",
                "server.rmi.ssl.truststore.file=" + keystore, "server.rmi.ssl.keystore.alias=rmi");
    }

    @Test
    void controller_runsThePlanOnEveryEngine_withAFixedCallbackPortAndOneRunId() {
        Entrypoint.Run run = entrypoint.run(Map.of("JMETER_ROLE", "controller", "PLAN", "multi-publisher.jmx",
                "ENGINE_HOSTS", "e0:1099,e1:1099,e2:1099", "RMI_HOSTNAME", "controller.perf", "RUN_ID", "r-1",
                "RMI_SSL_DISABLE", "true", "RESULTS_DIR", "/results"), "-Gqos=1");

        assertThat(run.result.exit).as(run.result.all()).isZero();
        assertThat(run.command).containsExactly("jmeter", "-n", "-t", "/plans/multi-publisher.jmx", "-R",
                "e0:1099,e1:1099,e2:1099", "-Djava.rmi.server.hostname=controller.perf", "-Jclient.rmi.localport=4445",
                "-Jserver.rmi.ssl.disable=true", "-Jclient.tries=30", "-Jclient.retries_delay=2000",
                "-Gmqttload.runId=r-1", "-Gmqttload.engines=3", "-l", "/results/r-1.jtl", "-X", "-Gqos=1");
    }

    @Test
    void controller_withoutRunId_makesOne_andKeepsTheEnginesWhenAsked() {
        Entrypoint.Run run = entrypoint.run(Map.of("JMETER_ROLE", "controller", "PLAN", "/custom/plan.jmx",
                "ENGINE_HOSTS", "e0:1099", "ENGINES", "4", "RMI_SSL_DISABLE", "true", "CLIENT_RMI_LOCAL_PORT", "0",
                "STOP_ENGINES_AFTER_RUN", "false", "RESULTS_DIR", directory.toString()));

        assertThat(run.result.exit).as(run.result.all()).isZero();
        assertThat(run.command).contains("/custom/plan.jmx", "-Jclient.rmi.localport=0", "-Gmqttload.engines=4")
                .doesNotContain("-X");
        assertThat(run.command).anySatisfy(a -> assertThat(a).matches("-Gmqttload\\.runId=run-\\d{8}-\\d{6}"));
    }

    @Test
    void controller_holdsTheResults_thenExitsWithJMetersCode() {
        long start = System.nanoTime();
        Entrypoint.Run run = entrypoint.run(Map.of("JMETER_ROLE", "controller", "PLAN", "p.jmx", "ENGINE_HOSTS", "e0:1099",
                "RMI_SSL_DISABLE", "true", "RESULTS_HOLD_SECONDS", "1", "STUB_EXIT", "3", "RESULTS_DIR", directory.toString()));

        assertThat(run.result.exit).as(run.result.all()).isEqualTo(3);
        assertThat(run.result.out).contains("JMeter exited with 3; results in " + directory + " for 1s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void withoutRole_runsTheGivenCommand_asDockerComposeGivesIt() {
        Entrypoint.Run run = entrypoint.run(Map.of(), "jmeter-server", "-Dserver_port=1099", "-Jmqttload.engineNumber=1");

        assertThat(run.result.exit).as(run.result.all()).isZero();
        assertThat(run.command).containsExactly("jmeter-server", "-Dserver_port=1099", "-Jmqttload.engineNumber=1");
    }

    @Test
    void refusesWhatWouldStartAMisconfiguredEngine_namingTheSetting() {
        assertRefused(Map.of("JMETER_ROLE", "engine", "RMI_SSL_DISABLE", "true", "RMI_LOCAL_PORT", "70000"), "RMI_LOCAL_PORT");
        assertRefused(Map.of("JMETER_ROLE", "engine", "RMI_SSL_DISABLE", "true", "ENGINE_NUMBER", "4096"), "0-4095");
        assertRefused(Map.of("JMETER_ROLE", "engine", "RMI_SSL_DISABLE", "true", "STATEFULSET_POD_NAME", "engine"), "ordinal");
        assertRefused(Map.of("JMETER_ROLE", "engine", "RMI_SSL_DISABLE", "true", "ENGINE_ID", "e"), "ENGINE_NUMBER");
        assertRefused(Map.of("JMETER_ROLE", "engine"), "RMI_KEYSTORE_FILE");
        assertRefused(Map.of("JMETER_ROLE", "engine", "RMI_SSL_DISABLE", "yes"), "RMI_SSL_DISABLE");
        assertRefused(Map.of("JMETER_ROLE", "controller", "RMI_SSL_DISABLE", "true", "PLAN", "p.jmx"), "ENGINE_HOSTS");
        assertRefused(Map.of("JMETER_ROLE", "controller", "RMI_SSL_DISABLE", "true", "ENGINE_HOSTS", "e0:1099"), "PLAN");
        assertRefused(Map.of("JMETER_ROLE", "server"), "JMETER_ROLE");
        assertRefused(Map.of(), "JMETER_ROLE");
    }

    private void assertRefused(Map<String, String> environment, String named) {
        Entrypoint.Run run = entrypoint.run(environment);
        assertThat(run.result.exit).as(environment + ": " + run.result.all()).isEqualTo(64);
        assertThat(run.result.err).as(environment.toString()).contains(named);
        assertThat(run.command).as(environment + " started nothing").isEmpty();
    }
}
