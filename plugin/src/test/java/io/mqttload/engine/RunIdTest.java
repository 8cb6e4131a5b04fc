package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Which run id an engine takes, and what it says about where the id came from. */
class RunIdTest {
    @Test
    void runIdProperty_winsOverTheControllersId() {
        RunConfig c = RunConfig.from(Map.of(RunConfig.RUN_ID, "given-1")::get, "s", "run-from-gui");

        assertThat(c.runId()).isEqualTo("given-1");
        assertThat(c.runIdSource()).isEqualTo(RunConfig.RunIdSource.PROPERTY);
    }

    @Test
    void noProperty_theControllersIdIsTaken() {
        RunConfig c = RunConfig.from(Map.<String, String>of()::get, "s", " run-from-gui ");

        assertThat(c.runId()).isEqualTo("run-from-gui");
        assertThat(c.runIdSource()).isEqualTo(RunConfig.RunIdSource.CONTROLLER);
    }

    @Test
    void neither_theEngineMakesOneUp_andSaysSo() {
        RunConfig c = RunConfig.from(Map.of(RunConfig.RUN_ID, " ")::get, "s", null);

        assertThat(c.runId()).matches("r[0-9a-z]{6}[0-9a-z]{3}");
        assertThat(c.runIdSource()).isEqualTo(RunConfig.RunIdSource.ENGINE);
        assertThat(c.runIdSource().describe()).contains("no mqttload.runId was given");
    }
}
