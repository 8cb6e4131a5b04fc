package io.mqttload.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class RunSetupTest {
    private static Map<String, String> settings(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private static RunSetup engine(String plan, Map<String, String> brokers, RunSetup.Step... steps) {
        RunSetup s = new RunSetup();
        s.setTestPlan(plan);
        s.steps.addAll(Arrays.asList(steps));
        s.brokers.putAll(brokers);
        return s;
    }

    @Test
    void merge_addsTheClientsOfTheSameSamplerAndSettingsOverEnginesAndKeepsOtherSettingsApart() {
        RunSetup one = engine("P2P", Map.of("tcp://b:1883", ""),
                new RunSetup.Step("publish", "pub", settings("topic", "t/{client}", "QoS", "1"), 500),
                new RunSetup.Step("connect", "connect", settings("MQTT", "5"), 1000));
        RunSetup two = engine("P2P", Map.of("tcp://b:1883", "mosquitto version 2.0.11", "tcp://c:1883", ""),
                new RunSetup.Step("connect", "connect", settings("MQTT", "5"), 1000),
                new RunSetup.Step("publish", "pub", settings("topic", "t/{client}", "QoS", "1"), 500),
                new RunSetup.Step("publish", "pub", settings("topic", "t/{client}", "QoS", "2"), 7));

        RunSetup merged = RunSetup.merge(Arrays.asList(one, null, two));

        assertThat(merged.getTestPlan()).isEqualTo("P2P");
        assertThat(merged.steps.stream().map(s -> s.role + " " + s.settingsLine() + " x" + s.clients)
                .collect(Collectors.toList())).containsExactly(
                        "connect MQTT 5 x2000",
                        "publish topic t/{client}, QoS 1 x1000",
                        "publish topic t/{client}, QoS 2 x7");
        // An engine that heard the broker's announcement wins over one that heard nothing.
        assertThat(merged.brokers).containsEntry("tcp://b:1883", "mosquitto version 2.0.11").containsEntry("tcp://c:1883", "");
        assertThat(merged.brokerSays("tcp://c:1883")).isEqualTo("(does not say its name or version)");
    }

    @Test
    void theSetupReadsAsTextAndMarkdownWithCellsEscaped() {
        RunSetup s = engine("Shared | fan-in", Map.of("tcp://b:1883", "mosquitto version 2.0.11"),
                new RunSetup.Step("subscribe", "subs", settings("filter", "$share/g/t/#", "QoS", "1"), 50));
        StringBuilder t = new StringBuilder();
        s.appendText(t, "shared-sub", RunSetup.scheduleText(1000, 2), "2 (e1 on a; e2 on b)");
        assertThat(t.toString()).isEqualTo(String.join("\n",
                "test plan    'Shared | fan-in' (shared-sub)",
                "subscribe    'subs' on 50 client(s): filter $share/g/t/#, QoS 1",
                "schedule     publish 1000 msg/s (the plan's schedule), behind it 2 s",
                "broker       tcp://b:1883 mosquitto version 2.0.11",
                "engines      2 (e1 on a; e2 on b)", ""));
        StringBuilder m = new StringBuilder();
        s.appendMarkdown(m, "shared-sub", "", "1");
        assertThat(m.toString()).contains("Test plan **Shared \\| fan-in** (`shared-sub`); engines: 1.\n")
                .contains("| subscribe | subs | 50 | filter $share/g/t/#, QoS 1 |")
                .contains("| tcp://b:1883 | mosquitto version 2.0.11 |")
                .doesNotContain("Schedule");
    }

    @Test
    void noTimerNoSchedule() {
        assertThat(RunSetup.scheduleText(0, 0)).isEmpty();
        assertThat(List.of(RunSetup.scheduleText(50, 0))).containsExactly("publish 50 msg/s (the plan's schedule), behind it 0 s");
    }

    @Test
    void theSetupTravelsInTheSummaryJson() {
        EngineSummary e = new EngineSummary();
        e.setup = engine("P", Map.of("tcp://b:1883", "x"), new RunSetup.Step("connect", "c", settings("MQTT", "3.1.1"), 3));
        EngineSummary back = SummaryJson.readEngineSummary(SummaryJson.write(e));
        assertThat(back.setup.getTestPlan()).isEqualTo("P");
        assertThat(back.setup.steps.get(0).settings).containsExactly(Map.entry("MQTT", "3.1.1"));
        assertThat(back.setup.steps.get(0).clients).isEqualTo(3);
        assertThat(back.setup.brokers).containsExactly(Map.entry("tcp://b:1883", "x"));
    }
}
