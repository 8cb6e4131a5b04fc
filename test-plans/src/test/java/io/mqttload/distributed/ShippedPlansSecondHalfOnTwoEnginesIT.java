package io.mqttload.distributed;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The second half, by name, of the shipped plans on two engines ({@link ShippedPlansOnTwoEngines}). */
class ShippedPlansSecondHalfOnTwoEnginesIT extends ShippedPlansOnTwoEngines {
    static Stream<String> plansOfThisHalf() {
        return half(1);
    }

    @ParameterizedTest
    @MethodSource("plansOfThisHalf")
    void plan_onTwoEnginesStartedWithR_oneRunMergedWithNoLoss(String plan) throws Exception {
        runOnTwoEngines(plan);
    }
}
