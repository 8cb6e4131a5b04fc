package io.mqttload.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** The agent's command line: generated help, and bad arguments refused with exit code 2 before anything runs. */
class BrokerAgentCommandTest {
    private final StringWriter err = new StringWriter();
    private final StringWriter help = new StringWriter();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private int run(String... args) {
        CommandLine command = BrokerAgent.commandLine(new PrintStream(console, true, StandardCharsets.UTF_8));
        command.setErr(new PrintWriter(err, true));
        command.setOut(new PrintWriter(help, true));
        return command.execute(args);
    }

    @Test
    void help_listsEveryOption() {
        assertThat(run("--help")).isZero();

        assertThat(help.toString()).contains("--process=NAME", "--pid=N", "--pid-file=FILE", "--name=NAME",
                "--mqtt-host=HOST", "--mqtt-port=PORT", "--interval=SECONDS", "--count=N", "Exit code");
    }

    @Test
    void noProcess_isRefusedNamingTheChoices() {
        assertThat(run("--name", "node1")).isEqualTo(2);

        assertThat(err.toString()).startsWith("broker agent: Missing required argument")
                .contains("--process=NAME").contains("--pid=N").contains("--pid-file=FILE");
    }

    @Test
    void twoWaysToFindTheProcess_areRefused() {
        assertThat(run("--pid", "1", "--process", "mosquitto")).isEqualTo(2);

        assertThat(err.toString()).contains("mutually exclusive");
    }

    @Test
    void badNumbers_nameTheOptionAndTheValue() {
        assertThat(run("--pid", "1", "--mqtt-port", "http")).isEqualTo(2);
        assertThat(err.toString()).contains("--mqtt-port").contains("'http'");

        assertThat(run("--pid", "1", "--mqtt-port", "70000")).isEqualTo(2);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("--mqtt-port '70000': not a port");
    }

    @Test
    void aProcessThatIsNotThere_endsWithExitCode1() {
        assertThat(run("--process", "no-such-broker-process-here")).isEqualTo(1);

        assertThat(console.toString(StandardCharsets.UTF_8))
                .contains("--process 'no-such-broker-process-here': no process of that name");
    }
}
