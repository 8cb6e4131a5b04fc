package io.mqttload.distributed;

import java.util.stream.Stream;

/**
 * Every shipped plan on two engines ({@link ShippedPlansOnTwoEngines}), one after the other in one class: split in two
 * classes the halves ran side by side in the forks with two more JMeter engines and a controller, and saturated the
 * two cores under CapacitySearchIT (its generator offered 112 of 192 msg/s, "machine over 90 % busy").
 */
class ShippedPlansOnTwoEnginesIT extends ShippedPlansOnTwoEngines {
    @Override
    Stream<String> plansToRun() {
        return shippedPlans().stream();
    }
}
