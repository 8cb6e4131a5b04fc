package io.mqttload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.jmeter.sampler.DebugSampler;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JMeterTestEngineSelfTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static HashTree debugPlan(int threads, int loops) {
        return PlanBuilder.testPlan("self-test")
                .threadGroup("group", threads, loops)
                .add(PlanBuilder.testBean(new DebugSampler(), "debug"))
                .build();
    }

    @Test
    void twoThreadsTimesThreeLoops_giveSixSamples_andASecondRunStartsFromScratch() {
        HashTree plan = debugPlan(2, 3);

        RunResult first = JMeterTestEngine.run(plan, TIMEOUT);
        RunResult second = JMeterTestEngine.run(plan, TIMEOUT);

        for (RunResult result : new RunResult[] {first, second}) {
            assertThat(result.count()).as(result.describe()).isEqualTo(6);
            assertThat(result.byLabel("debug")).hasSize(6);
            assertThat(result.failures()).isEmpty();
            assertThat(result.samples()).extracting(SampleResult::getThreadName).containsOnly(
                    "group 1-1", "group 1-2");
        }
    }

    @Test
    void testBean_getsItsBeanInfoDefaults_likeTheGuiWouldStoreThem() {
        DebugSampler sampler = PlanBuilder.testBean(new DebugSampler(), "debug");

        assertThat(sampler.getPropertyAsString(TestElement.GUI_CLASS)).isEqualTo(PlanBuilder.TEST_BEAN_GUI);
        assertThat(sampler.getPropertyAsString(TestElement.TEST_CLASS)).isEqualTo(DebugSampler.class.getName());
        assertThat(sampler.getPropertyAsString("displayJMeterProperties")).isEqualTo("false");
        assertThat(sampler.getPropertyAsString("displayJMeterVariables")).isEqualTo("true");
    }

    @Test
    void runProperties_areVisibleToThePlan_andRemovedAfterwards() {
        DebugSampler sampler = PlanBuilder.testBean(new DebugSampler(), "${__P(selftest.label)}");
        HashTree plan = PlanBuilder.testPlan("properties").threadGroup("group", 1, 1).add(sampler).build();

        RunResult result = JMeterTestEngine.run(plan, TIMEOUT, Map.of("selftest.label", "from-property"));

        assertThat(result.byLabel("from-property")).as(result.describe()).hasSize(1);
        assertThat(JMeterUtils.getJMeterProperties().get("selftest.label")).isNull();
    }

    @Test
    void durationPlan_thatOutlivesTheTimeout_isStopped_andFailsClearly() {
        HashTree plan = PlanBuilder.testPlan("too long")
                .threadGroup("group", 1, PlanBuilder.FOREVER)
                .duration(Duration.ofSeconds(60))
                .add(PlanBuilder.testBean(new DebugSampler(), "debug"))
                .build();

        assertThatThrownBy(() -> JMeterTestEngine.run(plan, Duration.ofSeconds(2)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("did not end within PT2S");
        assertThat(JMeterTestEngine.run(debugPlan(1, 1), TIMEOUT).count()).isEqualTo(1);
    }

    @Test
    void savedPlan_loadsBack_andRunsTheSame(@TempDir Path dir) {
        Path jmx = dir.resolve("plan.jmx");
        JMeterTestEngine.save(debugPlan(2, 2), jmx);

        HashTree loaded = JMeterTestEngine.load(jmx);

        assertThat(JMeterTestEngine.run(loaded, TIMEOUT).byLabel("debug")).hasSize(4);
    }
}
