package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;


import org.junit.jupiter.api.Test;


/**
 * The search's decisions against a model broker of known capacity: steps are judged by the real
 * {@link StepCriteria} on figures the model gives (delivered capped at the capacity, latency and backlog growing
 * above it), so the search must land on the capacity within its tolerance, say when the generator limited it, and
 * not quote a load that fails its longer run.
 */
class CapacitySearchTest {
    private static CapacitySearch.Settings settings(double start) {
        CapacitySearch.Settings s = new CapacitySearch.Settings();
        s.start = start;
        return s;
    }

    /** The first confirmation fails at whatever value it runs; the next passes where the steps did. */
    private static CapacityModelBroker firstConfirmationFails(double capacity) {
        return new CapacityModelBroker(capacity) {
            private int confirmations;

            @Override
            public StepResult run(double value, CapacitySearch.Phase phase, boolean repeat) {
                if (phase == CapacitySearch.Phase.CONFIRM && confirmations++ == 0) {
                    StepResult r = super.run(value + 10_000, phase, repeat);
                    values.set(values.size() - 1, value);
                    return r;
                }
                return super.run(value, phase, repeat);
            }
        };
    }

    /**
     * The first run at {@code disturbedValue} is hit by a stall of the load generator's machine: 3 s saturated and a
     * p99 from the intended time far over the SLA, though the broker kept up; every later run is the model's.
     */
    private static CapacityModelBroker disturbedOnce(double capacity, double disturbedValue) {
        return new CapacityModelBroker(capacity) {
            private boolean disturbed;

            @Override
            StepResult.Builder step(double value, CapacitySearch.Phase phase, boolean repeat) {
                StepResult.Builder r = super.step(value, phase, repeat);
                if (value == disturbedValue && !disturbed) {
                    disturbed = true;
                    r.machineSaturatedSeconds = 3;
                    r.intendedP99Millis = 1400;
                }
                return r;
            }
        };
    }

    @Test
    void aStepFailedWhileTheMachineWasSaturated_isRunOnceMore_andTheRepeatDecides() throws Exception {
        CapacityModelBroker broker = disturbedOnce(1234, 1200);
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.sustained).isBetween(1234 * 0.98, 1234 * 1.005);
        int first = broker.values.indexOf(1200.0);
        assertThat(broker.values.get(first + 1)).as("the disturbed value again, at once").isEqualTo(1200.0);
        CapacitySearch.Step disturbed = r.steps.get(first);
        CapacitySearch.Step repeat = r.steps.get(first + 1);
        assertThat(disturbed.passed()).isFalse();
        assertThat(CapacitySearch.disturbed(disturbed)).isTrue();
        assertThat(repeat.repeatOf).isSameAs(disturbed);
        assertThat(repeat.passed()).isTrue();
        assertThat(repeat.phase).isEqualTo(disturbed.phase);
        assertThat(repeat.title()).isEqualTo(disturbed.phase.title + ", repeated");
        assertThat(r.steps.stream().filter(s -> s.repeatOf != null)).as("only the disturbed step was repeated")
                .containsExactly(repeat);
    }

    @Test
    void aFailureOnAMachineBusyForMostOfTheWindow_isNotRepeated() throws Exception {
        // A broker beside the engine near its limit: the machine busy 20 of 30 s (allowed by --max-saturated 100).
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        broker.machineBusySecondsOverCapacity = 20;
        broker.criteria.maxSaturatedPercent = 100;
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.steps).noneMatch(step -> step.repeatOf != null);
        assertThat(r.failedStep.result.judgement.saturationCaveat).startsWith("the engine's machine was over 90 % busy");
    }

    @Test
    void aDisturbedFailure_stands_whenTheUserAcceptsIt() throws Exception {
        CapacityModelBroker broker = disturbedOnce(1234, 1200);
        CapacitySearch.Settings s = settings(100);
        s.repeatDisturbed = false;
        CapacitySearch.Result r = new CapacitySearch(s).run(broker);

        assertThat(r.steps).noneMatch(step -> step.repeatOf != null);
        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.sustained).as("the stall's failure bounded the search").isLessThan(1200);
    }

    @Test
    void aDisturbedStepThatFailsAgain_failsOnItsRepeat_andIsNotRepeatedTwice() throws Exception {
        // Over the capacity the machine is busy a few seconds in every window (allowed), and the broker falls behind.
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        broker.machineBusySecondsOverCapacity = 2;
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.sustained).isBetween(1234 * 0.98, 1234 * 1.005);
        assertThat(r.failedStep.repeatOf).as("the failure quoted is the repeat's").isNotNull();
        for (CapacitySearch.Step s : r.steps) {
            if (!s.passed() && s.repeatOf == null) {
                assertThat(r.steps.get(r.steps.indexOf(s) + 1).repeatOf).isSameAs(s);
            }
        }
        assertThat(r.steps.stream().filter(s -> s.repeatOf != null && s.repeatOf.repeatOf != null)).isEmpty();
    }

    @Test
    void findsTheCapacityWithinTheTolerance_rampingThenBisectingThenConfirming() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        // Just above the capacity a 30 s step still passes: its queue has not yet reached the SLA (0.3 % over).
        assertThat(r.sustained).isBetween(1234 * 0.98, 1234 * 1.005);
        assertThat(r.failed).isGreaterThan(1234);
        assertThat(r.failed - r.sustained).isLessThanOrEqualTo(0.02 * r.sustained + 1);
        assertThat(broker.values.subList(0, 5)).containsExactly(100.0, 200.0, 400.0, 800.0, 1600.0);
        CapacitySearch.Step last = r.steps.get(r.steps.size() - 1);
        assertThat(last.phase).isEqualTo(CapacitySearch.Phase.CONFIRM);
        assertThat(last.value).isEqualTo(r.sustained);
        assertThat(r.failedStep.result.judgement.reason()).matches("(delivered|backlog|p99 from intended): .*");
    }

    @Test
    void aFirstStepThatFailsRampsDown() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(30);
        CapacitySearch.Result r = new CapacitySearch(settings(1000)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(broker.values.subList(0, 7)).containsExactly(1000.0, 500.0, 250.0, 125.0, 63.0, 32.0, 16.0);
        assertThat(r.sustained).isEqualTo(30);
    }

    @Test
    void nothingSustained_downToTheResolution() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(0.5);
        CapacitySearch.Result r = new CapacitySearch(settings(8)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS_NONE);
        assertThat(broker.values).containsExactly(8.0, 4.0, 2.0, 1.0);
        assertThat(r.failed).isEqualTo(1.0);
    }

    @Test
    void aSaturatedGeneratorEndsTheSearch_asTheGeneratorsLimit_notTheBrokers() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(5000);
        broker.generatorLimit = 3000;
        CapacitySearch.Result r = new CapacitySearch(settings(1000)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.LIMITED_BY_GENERATOR);
        assertThat(r.outcome.answered).isFalse();
        assertThat(broker.values).containsExactly(1000.0, 2000.0, 4000.0);
        assertThat(r.failed).isEqualTo(4000);
        assertThat(r.sustained).isEqualTo(2000);
        assertThat(r.failedStep.result.judgement.reason()).isEqualTo("generator: its process used over 90 % of every"
                + " core for 30 of 30 s: add engines");
    }

    @Test
    void aLoadThatFailsItsLongerRunTwice_isNotConfirmed() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(1000);
        broker.longRunCapacity = 900;
        CapacitySearch.Result r = new CapacitySearch(settings(500)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.NOT_CONFIRMED);
        assertThat(r.steps.stream().filter(s -> s.phase == CapacitySearch.Phase.CONFIRM).count())
                .isEqualTo(CapacitySearch.CONFIRMATIONS);
        assertThat(r.note).contains("--step-seconds");
    }

    @Test
    void aLoadThatFailsItsLongerRunOnce_isSearchedAgainBelowIt() throws Exception {
        CapacityModelBroker broker = firstConfirmationFails(1000);
        CapacitySearch.Result r = new CapacitySearch(settings(500)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.sustained).isLessThan(r.steps.stream().filter(s -> s.phase == CapacitySearch.Phase.CONFIRM)
                .findFirst().orElseThrow().value);
    }

    @Test
    void aConfirmationThatFails_withNoPassBelowIt_rampsDown_ratherThanGivingUp() throws Exception {
        // 1000 passes its step and every value above it fails; its first long run fails, as on a hiccup of the machine.
        CapacityModelBroker broker = firstConfirmationFails(1010);
        CapacitySearch.Settings s = settings(1000);
        s.tolerancePercent = 10;
        CapacitySearch.Result r = new CapacitySearch(s).run(broker);

        assertThat(broker.values).containsExactly(1000.0, 2000.0, 1500.0, 1250.0, 1125.0, 1063.0, 1000.0, 500.0, 750.0,
                875.0, 938.0, 938.0);
        assertThat(r.steps.get(7).phase).isEqualTo(CapacitySearch.Phase.RAMP_DOWN);
        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.sustained).isEqualTo(938);
        assertThat(r.failed).isEqualTo(1000);
    }

    @Test
    void theMaximumPassing_sustainsAtLeastIt() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(1e9);
        CapacitySearch.Settings s = settings(100);
        s.max = 700;
        CapacitySearch.Result r = new CapacitySearch(s).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS_AT_LEAST);
        assertThat(broker.values).containsExactly(100.0, 200.0, 400.0, 700.0, 700.0);
        assertThat(r.sustained).isEqualTo(700);
    }

    @Test
    void aStepWithNothingToJudge_endsTheSearchInconclusive() throws Exception {
        CapacitySearch.StepRunner noReport = (value, phase, repeat) -> {
            StepResult.Builder r = new StepResult.Builder(1, "x", null, "run", "step-1");
            r.timedOut = true;
            return r.judgedBy(new StepCriteria());
        };
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(noReport);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.INCONCLUSIVE);
        assertThat(r.steps).hasSize(1);
        assertThat(r.failedStep.result.judgement.reason()).isEqualTo("timed out");
    }

    @Test
    void valuesKeepTheResolution() {
        CapacitySearch.Settings s = settings(0.25);
        s.resolution = 0.01;
        CapacitySearch search = new CapacitySearch(s);

        assertThat(search.round(0.123456)).isEqualTo(0.12);
        assertThat(search.number(0.5)).isEqualTo("0.5");
        assertThat(search.number(12.0)).isEqualTo("12");
        assertThat(search.round(0.001)).isEqualTo(0.01);
    }

    @Test
    void aPassAndAFailOfferingTheSameLoad_endTheBisection_andTheVerdictSaysWhy() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(1e9);
        broker.offeredStep = 100;
        broker.noisyFrom = 1230;
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.note).endsWith("offered the same load (1200.0 msg/s): the plan's throughput timers wait whole"
                + " milliseconds, so values between them offer it too and the search cannot resolve further");
        assertThat(r.failedStep.result.load.offeredRate).isEqualTo(r.sustainedStep.result.load.offeredRate);
    }

    @Test
    void aFailWithinTheToleranceThatOfferedTheSameLoad_isSaidSo() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(1e9);
        broker.offeredStep = 100;
        broker.noisyFrom = 1230;
        CapacitySearch.Settings s = settings(100);
        s.tolerancePercent = 5;
        CapacitySearch.Result r = new CapacitySearch(s).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.failed).isEqualTo(1250);
        assertThat(r.note).isEqualTo("1250 offered the same load as 1200 (1200.0 msg/s): the plan's throughput timers"
                + " wait whole milliseconds, so that step failed on the run's own variation, not on more load");
    }

    @Test
    void theOperatingPoint_isFoundAsTheCapacityIs_rampedBisectedAndConfirmed_belowTheHighestSustainedLoad()
            throws Exception {
        // 0.1 % of a core per msg/s: 75 % of the broker's core at 750 msg/s, its sustained limit at 1234.
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        broker.brokerCpuPerValue = 0.1;
        broker.criteria.maxBrokerCpuPercent = 75;
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.SUSTAINS);
        assertThat(r.sustained).isBetween(750 * 0.98, 750.0);
        assertThat(r.failed).isGreaterThan(750).isLessThanOrEqualTo(r.sustained * 1.02 + 1);
        assertThat(r.sustainedStep.phase).isEqualTo(CapacitySearch.Phase.CONFIRM);
        assertThat(r.failedStep.result.judgement.reason()).startsWith("broker CPU: ").endsWith(" > 75 % (average over"
                + " the window, of 1 core)");
    }

    @Test
    void aStepWhoseBrokerCpuWasNotRead_endsTheSearchInconclusive_ratherThanPassingOrRampingDown() throws Exception {
        CapacityModelBroker broker = new CapacityModelBroker(1234);
        broker.criteria.maxBrokerCpuPercent = 75;
        CapacitySearch.Result r = new CapacitySearch(settings(100)).run(broker);

        assertThat(r.outcome).isEqualTo(CapacitySearch.Outcome.INCONCLUSIVE);
        assertThat(r.steps).hasSize(1);
        assertThat(Double.isNaN(r.sustained)).isTrue();
        assertThat(r.failedStep.result.judgement.reason()).startsWith("broker CPU: not measured");
    }
}
