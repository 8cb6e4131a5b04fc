package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Which run id, engine number and engine count an engine takes, and what it says about where they came from. */
class RunIdTest {
    private static final RunConfig.FromController CONTROLLER = new RunConfig.FromController(" run-from-controller ", 2, 3);

    @Test
    void properties_winOverWhatTheControllerGave() {
        RunConfig c = RunConfig.from(Map.of(RunConfig.RUN_ID, "given-1", RunConfig.ENGINE_NUMBER, "7",
                RunConfig.ENGINES, "4")::get, "s", CONTROLLER);

        assertThat(c.runId()).isEqualTo("given-1");
        assertThat(c.runIdSource()).isEqualTo(RunConfig.RunIdSource.PROPERTY);
        assertThat(c.engineNumber()).isEqualTo(7);
        assertThat(c.engines()).isEqualTo(4);
        assertThat(c.origins()).contains("property mqttload.runId", "property mqttload.engineNumber",
                "property mqttload.engines").doesNotContain("controller");
    }

    @Test
    void noProperties_whatTheControllerGaveIsTaken() {
        RunConfig c = RunConfig.from(Map.<String, String>of()::get, "s", CONTROLLER);

        assertThat(c.runId()).isEqualTo("run-from-controller");
        assertThat(c.runIdSource()).isEqualTo(RunConfig.RunIdSource.CONTROLLER);
        assertThat(c.engineNumber()).isEqualTo(2);
        assertThat(c.engineId()).isEqualTo("engine-2");
        assertThat(c.engines()).isEqualTo(3);
        assertThat(c.origins()).isEqualTo("run id run-from-controller (given by the controller that started the engines),"
                + " engine number 2 (given by the controller), 3 engine(s) (given by the controller)");
    }

    @Test
    void anEngineIdProperty_isKeptBesideTheControllersNumber() {
        RunConfig c = RunConfig.from(Map.of(RunConfig.ENGINE_ID, "east")::get, "s", CONTROLLER);

        assertThat(c.engineId()).isEqualTo("east");
        assertThat(c.engineNumber()).isEqualTo(2);
    }

    @Test
    void aControllerThatDidNotKnowTheEngineCount_leavesItToTheProperty() {
        RunConfig c = RunConfig.from(Map.<String, String>of()::get, "s", new RunConfig.FromController("r", 1, 0));

        assertThat(c.engines()).isEqualTo(1);
        assertThat(c.origins()).contains("1 engine(s) (the default, as no mqttload.engines was given)");
    }

    @Test
    void neither_theEngineMakesOneUp_andSaysSo() {
        RunConfig c = RunConfig.from(Map.of(RunConfig.RUN_ID, " ")::get, "s", RunConfig.FromController.NONE);

        assertThat(c.runId()).matches("r[0-9a-z]{6}[0-9a-z]{3}");
        assertThat(c.runIdSource()).isEqualTo(RunConfig.RunIdSource.ENGINE);
        assertThat(c.runIdSource().describe()).contains("no mqttload.runId was given");
        assertThat(c.origins()).contains("made from the engine id, as no mqttload.engineNumber was given");
    }

    @Test
    void onlyAnIdTheEngineMadeUp_isNotSharedByTheRun() {
        assertThat(RunConfig.RunIdSource.values()).filteredOn(RunConfig.RunIdSource::shared)
                .containsExactlyInAnyOrder(RunConfig.RunIdSource.PROPERTY, RunConfig.RunIdSource.CONTROLLER,
                        RunConfig.RunIdSource.FLEET);
    }
}
