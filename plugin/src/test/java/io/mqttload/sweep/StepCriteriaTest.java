package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.mqttload.delivery.Verdict;

/** Each criterion breaks on its own figure, names it, and the generator's saturation takes the blame first. */
class StepCriteriaTest {

    /** A step that passes every criterion: 1000 msg/s offered and delivered to one subscriber each, p99 5 ms. */
    private static StepResult.Builder healthy() {
        StepResult.Builder r = new StepResult.Builder(1, "rate=1000", null, "run-1", "step-1");
        r.exitCode = 0;
        r.verdict = Verdict.NO_LOSS;
        r.verdictText = "NO LOSS: every expected message arrived";
        r.measuredSeconds = 30;
        r.offeredRate = 1000;
        r.fanOut = 1;
        r.deliveredRate = 1000;
        r.windowReceiveRate = 1000;
        r.expected = 30_000;
        r.intendedP50Millis = 2;
        r.intendedP99Millis = 5;
        r.lagP99Millis = 1;
        r.clients = 20;
        return r;
    }

    private static StepCriteria criteria() {
        StepCriteria c = new StepCriteria();
        c.paceRequired = true;
        return c;
    }

    @Test
    void aHealthyStepPasses() {
        StepCriteria.Judgement j = criteria().judge(healthy().unjudged());

        assertThat(j.passed).isTrue();
        assertThat(j.reason()).isEqualTo("passed");
    }

    @Test
    void lossBeyondTheTolerance_fails_withinItPasses() {
        StepResult.Builder r = healthy();
        r.verdict = Verdict.LOSS;
        r.lost = 30;
        assertThat(criteria().judge(r.unjudged()).reason()).isEqualTo("loss: 30 of 30000 deliveries lost (0.1 %, at most 0 %"
                + " allowed)");

        StepCriteria tolerant = criteria();
        tolerant.maxLossPercent = 0.5;
        assertThat(tolerant.judge(r.unjudged()).passed).isTrue();
    }

    @Test
    void deliveredUnder98PercentOfOffered_fails() {
        StepResult.Builder r = healthy();
        r.deliveredRate = 979;
        assertThat(criteria().judge(r.unjudged()).reason()).isEqualTo("delivered: 979.0 msg/s of 1000.0 offered (97.9 %, at least"
                + " 98 % needed)");
        r.deliveredRate = 981;
        assertThat(criteria().judge(r.unjudged()).passed).isTrue();
    }

    @Test
    void p99FromIntendedOverTheSla_fails_andScheduleLagOnItsOwnBound() {
        StepResult.Builder r = healthy();
        r.intendedP99Millis = 100.5;
        assertThat(criteria().judge(r.unjudged()).reason()).isEqualTo("p99 from intended: 100.5 ms, over the 100 ms SLA");

        StepResult.Builder lagging = healthy();
        lagging.lagP99Millis = 60;
        StepCriteria c = criteria();
        c.maxScheduleLagMillis = 50;
        assertThat(c.judge(lagging.unjudged()).reason()).isEqualTo("schedule lag: p99 60.0 ms, over 50 ms");
        assertThat(criteria().judge(lagging.unjudged()).passed).as("the lag's default bound is the SLA").isTrue();
    }

    @Test
    void aBacklogGrowingBeyondOnePercentOfTheWindow_orOneSecondsDeliveries_fails() {
        StepResult.Builder r = healthy();
        // 1 % of 30 s at 1000/s is 300 deliveries; one second's is 1000: the larger applies.
        r.backlogGrowth = 1000;
        assertThat(criteria().judge(r.unjudged()).passed).isTrue();
        r.backlogGrowth = 1001;
        assertThat(criteria().judge(r.unjudged()).reason()).isEqualTo("backlog: grew by 1001 over the 30 s window (+33.4/s), more"
                + " than the 1000 allowed");
        r.measuredSeconds = 300;
        r.backlogGrowth = 3001;
        assertThat(criteria().judge(r.unjudged()).reason()).as("a long window: 1 % of it").isEqualTo("backlog: grew by 3001 over"
                + " the 300 s window (+10.0/s), more than the 3000 allowed");
    }

    @Test
    void aSaturatedGenerator_isNamedFirst_evenWhenItsStepWouldPass() {
        StepResult.Builder r = healthy();
        r.generatorSaturatedSeconds = 4;
        StepCriteria.Judgement j = criteria().judge(r.unjudged());

        assertThat(j.passed).isFalse();
        assertThat(j.limit).isEqualTo(StepCriteria.Limit.GENERATOR);
        assertThat(j.reason()).isEqualTo("generator: its process used over 90 % of every core for 4 of 30 s: add"
                + " engines");

        r.generatorSaturatedSeconds = 3;
        assertThat(criteria().judge(r.unjudged()).passed).as("10 % of the window is allowed").isTrue();
        r.measuredSeconds = 2;
        r.generatorSaturatedSeconds = 1;
        assertThat(criteria().judge(r.unjudged()).passed).as("one second is forgiven however short the window").isTrue();
        r.generatorSaturatedSeconds = 2;
        assertThat(criteria().judge(r.unjudged()).limit).isEqualTo(StepCriteria.Limit.GENERATOR);
        r.measuredSeconds = 30;
        r.generatorSaturatedSeconds = 0;
        r.machineSaturatedSeconds = 20;
        r.deliveredRate = 500;
        j = criteria().judge(r.unjudged());
        assertThat(j.limit).isEqualTo(StepCriteria.Limit.MACHINE);
        assertThat(j.breaches).extracting(b -> b.criterion).containsExactly("machine", "delivered");
    }

    @Test
    void aSaturationAllowedByARaisedThreshold_isSaidBesideTheBrokersFailure_notOnAPass() {
        StepCriteria allowing = criteria();
        allowing.maxSaturatedPercent = 100;
        StepResult.Builder r = healthy();
        r.machineSaturatedSeconds = 31;
        assertThat(allowing.judge(r.unjudged()).passed).isTrue();
        assertThat(allowing.judge(r.unjudged()).saturationCaveat).isNull();

        r.deliveredRate = 900;
        StepCriteria.Judgement j = allowing.judge(r.unjudged());
        assertThat(j.limit).isEqualTo(StepCriteria.Limit.BROKER);
        assertThat(j.saturationCaveat).isEqualTo("the engine's machine was over 90 % busy for 30 of 30 s (allowed:"
                + " saturated <= 100 %)");
        assertThat(j.reasons()).endsWith("; while " + j.saturationCaveat);

        r.machineSaturatedSeconds = 3;
        assertThat(allowing.judge(r.unjudged()).saturationCaveat).as("within the default's 10 %").isNull();
        r.generatorSaturatedSeconds = 12;
        assertThat(allowing.judge(r.unjudged()).saturationCaveat).startsWith("the generator's process used over 90 % of every core"
                + " for 12 of 30 s");
    }

    @Test
    void aRunThatWasStoppedOrIncomplete_hasNothingToJudge_butAFailedOneIsTheBrokers() {
        StepResult.Builder stopped = healthy();
        stopped.verdict = Verdict.STOPPED;
        stopped.verdictText = "STOPPED at 12 s";
        assertThat(criteria().judge(stopped.unjudged()).limit).isEqualTo(StepCriteria.Limit.RUN);

        StepResult.Builder failed = healthy();
        failed.verdict = Verdict.FAILED;
        failed.verdictText = "FAILED: 12 connects failed";
        StepCriteria.Judgement j = criteria().judge(failed.unjudged());
        assertThat(j.limit).isEqualTo(StepCriteria.Limit.BROKER);
        assertThat(j.reason()).isEqualTo("verdict FAILED: FAILED: 12 connects failed");

        StepResult.Builder refused = healthy();
        refused.verdict = Verdict.FAILED;
        refused.verdictText = "FAILED: no connection succeeded: 40 connect(s) failed (most often: 40 x connection refused)";
        refused.clients = 0;
        j = criteria().judge(refused.unjudged());
        assertThat(j.limit).as("a plan that never connected offered no load: not the broker's limit at it")
                .isEqualTo(StepCriteria.Limit.RUN);
        assertThat(j.reason()).isEqualTo("no connection succeeded, so no load was offered: " + refused.verdictText);

        StepResult.Builder noReport = new StepResult.Builder(1, "x", null, "run", "step-1");
        noReport.exitCode = 1;
        assertThat(criteria().judge(noReport.unjudged()).reason()).isEqualTo("JMeter exit code 1");
    }

    @Test
    void anUnpacedPlan_failsASearchStep_butASweepJudgesWithoutTheRate() {
        StepResult.Builder r = healthy();
        r.offeredRate = 0;
        r.intendedP99Millis = Double.NaN;
        assertThat(criteria().judge(r.unjudged()).reason()).startsWith("offered rate: unknown: no Publish sampler was paced");

        StepCriteria sweep = new StepCriteria();
        StepCriteria.Judgement j = sweep.judge(r.unjudged());
        assertThat(j.passed).isTrue();
        assertThat(j.notJudged).hasSize(2);
    }


    /** The criteria with the operating point's: the broker at most 75 % of its CPU. */
    private static StepCriteria atMost75PercentBrokerCpu() {
        StepCriteria c = criteria();
        c.maxBrokerCpuPercent = 75;
        return c;
    }

    private static StepResult.Builder withBrokerCpu(double percentOfOneCore) {
        StepResult.Builder r = healthy();
        r.hasBroker = true;
        r.brokerCpuAvg = percentOfOneCore;
        r.brokerCpuMax = 99;
        return r;
    }

    @Test
    void aBrokerOver75PercentOfItsCpu_failsTheOperatingPoint_namingItsFigure_andUnder75Passes() {
        StepCriteria.Judgement over = atMost75PercentBrokerCpu().judge(withBrokerCpu(80).unjudged());
        assertThat(over.passed).isFalse();
        assertThat(over.limit).as("the broker's limit: the search bisects below it").isEqualTo(StepCriteria.Limit.BROKER);
        assertThat(over.reason()).isEqualTo("broker CPU: 80.0 % > 75 % (average over the window, of 1 core)");

        StepCriteria.Judgement under = atMost75PercentBrokerCpu().judge(withBrokerCpu(70).unjudged());
        assertThat(under.passed).isTrue();
        assertThat(atMost75PercentBrokerCpu().judge(withBrokerCpu(75).unjudged()).passed).as("at the limit").isTrue();
        assertThat(criteria().judge(withBrokerCpu(99).unjudged()).passed).as("not asked: not judged").isTrue();
    }

    @Test
    void aMultiCoreBrokersCpu_isAShareOfTheCoresItHas_andTheAverageIsJudged_notThePeak() {
        StepCriteria c = atMost75PercentBrokerCpu();
        c.brokerCores = 4;
        // 280 % of one core over 4 cores is 70 %; its 1 s peak of 99 % of one core is not what is judged.
        assertThat(c.judge(withBrokerCpu(280).unjudged()).passed).isTrue();
        assertThat(c.judge(withBrokerCpu(320).unjudged()).reason()).isEqualTo("broker CPU: 80.0 % > 75 % (average over"
                + " the window: 320.0 % of one core, of 4 cores)");
        assertThat(c.describe()).contains("broker CPU avg <= 75 % of 4 cores");
    }

    @Test
    void aStepWithoutTheBrokersCpu_isNotMeasured_neverPassed_andTheSearchCannotJudgeIt() {
        StepResult.Builder noMonitor = healthy();
        StepCriteria.Judgement j = atMost75PercentBrokerCpu().judge(noMonitor.unjudged());
        assertThat(j.passed).isFalse();
        assertThat(j.limit).isEqualTo(StepCriteria.Limit.RUN);
        assertThat(j.reason()).startsWith("broker CPU: not measured: no Broker Monitor reported the broker's CPU");
        assertThat(j.reason()).contains("--max-broker-cpu");

        // A monitor that found the process but read no CPU (memory only) reports NaN: not measured either.
        StepResult.Builder memoryOnly = withBrokerCpu(Double.NaN);
        assertThat(atMost75PercentBrokerCpu().judge(memoryOnly.unjudged()).limit).isEqualTo(StepCriteria.Limit.RUN);

        // Its other failures are still listed after it.
        noMonitor.deliveredRate = 500;
        assertThat(atMost75PercentBrokerCpu().judge(noMonitor.unjudged()).breaches).extracting(b -> b.criterion)
                .containsExactly(StepCriteria.BROKER_CPU, "delivered");
    }
}
