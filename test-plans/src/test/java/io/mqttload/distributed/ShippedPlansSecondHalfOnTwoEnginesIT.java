package io.mqttload.distributed;

import java.util.stream.Stream;

/** The second half, by name, of the shipped plans on two engines ({@link ShippedPlansOnTwoEngines}). */
class ShippedPlansSecondHalfOnTwoEnginesIT extends ShippedPlansOnTwoEngines {
    @Override
    Stream<String> plansOfThisHalf() {
        return half(1);
    }
}
