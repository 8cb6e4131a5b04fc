package io.mqttload.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.mqttload.delivery.Verdict;

/**
 * A broker that delivers at most {@code capacity} msg/s, above it the queue growing by the excess, judged by the real
 * {@link StepCriteria}: the search's tests run against it.
 */
class CapacityModelBroker implements CapacitySearch.StepRunner {
    static final double WINDOW_SECONDS = 30;

    final double capacity;
    /** Above this value the generator's process is saturated; infinite: never. */
    double generatorLimit = Double.POSITIVE_INFINITY;
    /** From this value on the engine's machine is busy throughout the window (a broker beside it); infinite: never. */
    double machineBusyFrom = Double.POSITIVE_INFINITY;
    /** Above the capacity the engine's machine is busy this many seconds of each window (a broker beside it). */
    long machineBusySecondsOverCapacity;
    /** Above this value a confirmation run (longer) fails although a short step passes. */
    double longRunCapacity = Double.POSITIVE_INFINITY;
    /**
     * Above this value a step fails whatever it offered, and the offered load moves in steps of
     * {@link #offeredStep}: a plan whose timers wait whole milliseconds, on a machine whose noise decides near them.
     */
    double noisyFrom = Double.POSITIVE_INFINITY;
    double offeredStep;
    /** The broker's CPU (% of one core, as its monitor reports it) per unit of value; NaN: not monitored. */
    double brokerCpuPerValue = Double.NaN;
    final List<Double> values = new ArrayList<>();
    final StepCriteria criteria = new StepCriteria();

    CapacityModelBroker(double capacity) {
        this.capacity = capacity;
        criteria.paceRequired = true;
    }

    @Override
    public StepResult run(double value, CapacitySearch.Phase phase, boolean repeat) {
        return step(value, phase, repeat).judgedBy(criteria);
    }

    /** The model's figures at {@code value}, before the criteria judge them; tests disturb them here. */
    StepResult.Builder step(double value, CapacitySearch.Phase phase, boolean repeat) {
        values.add(value);
        StepResult.Builder r = new StepResult.Builder(values.size(), "rate=" + value, new SweepOptions.Step("rate=" + value,
                Map.of("rate", Double.toString(value))), "run-" + values.size(),
                "step-" + values.size());
        r.exitCode = 0;
        r.verdict = Verdict.NO_LOSS;
        r.measuredSeconds = WINDOW_SECONDS;
        r.offeredRate = value;
        r.fanOut = 1;
        boolean over = value > capacity || (phase == CapacitySearch.Phase.CONFIRM && value > longRunCapacity);
        double delivered = over ? Math.min(value, capacity) * (value > capacity ? 1 : 0.99) : value;
        r.deliveredRate = delivered;
        r.windowReceiveRate = delivered;
        r.backlogGrowth = (value - delivered) * WINDOW_SECONDS;
        double queueSeconds = r.backlogGrowth / Math.max(1, delivered);
        r.intendedP50Millis = 2 + queueSeconds * 500;
        r.intendedP99Millis = 5 + queueSeconds * 1000;
        r.generatorSaturatedSeconds = value >= generatorLimit ? (long) WINDOW_SECONDS : 0;
        r.machineSaturatedSeconds = value >= machineBusyFrom ? (long) WINDOW_SECONDS
                : value > capacity ? machineBusySecondsOverCapacity : 0;
        if (offeredStep > 0) {
            r.offeredRate = Math.floor(value / offeredStep) * offeredStep;
            r.deliveredRate = value >= noisyFrom ? r.offeredRate * 0.9 : r.offeredRate;
            r.windowReceiveRate = r.deliveredRate;
            r.backlogGrowth = 0;
            r.intendedP99Millis = 5;
        }
        r.expected = (long) (value * WINDOW_SECONDS);
        if (!Double.isNaN(brokerCpuPerValue)) {
            r.hasBroker = true;
            r.brokerCpuAvg = Math.min(value, capacity) * brokerCpuPerValue;
            r.brokerCpuMax = r.brokerCpuAvg * 1.2;
        }
        return r;
    }
}
