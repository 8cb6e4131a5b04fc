package io.mqttload.distributed;

import java.util.stream.Stream;

/** The first half, by name, of the shipped plans on two engines ({@link ShippedPlansOnTwoEngines}). */
class ShippedPlansFirstHalfOnTwoEnginesIT extends ShippedPlansOnTwoEngines {
    @Override
    Stream<String> plansOfThisHalf() {
        return half(0);
    }
}
