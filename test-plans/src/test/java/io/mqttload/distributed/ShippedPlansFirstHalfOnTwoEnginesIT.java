package io.mqttload.distributed;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The first half, by name, of the shipped plans on two engines ({@link ShippedPlansOnTwoEngines}). */
class ShippedPlansFirstHalfOnTwoEnginesIT extends ShippedPlansOnTwoEngines {
    static Stream<String> plansOfThisHalf() {
        return half(0);
    }

    @ParameterizedTest
    @MethodSource("plansOfThisHalf")
    void plan_onTwoEnginesStartedWithR_oneRunMergedWithNoLoss(String plan) throws Exception {
        runOnTwoEngines(plan);
    }
}
