package io.mqttload.jmeter.gui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The chart's axes reach just past the data, in round steps (issue 31: a p99 axis at 1.0 ms for 37.8 ms figures). */
class LiveChartTest {
    @Test
    void axis_topsAtTheFirstRoundGridValueAboveTheHighestPoint() {
        assertThat(LiveChart.gridStep(37.8)).isEqualTo(10);
        assertThat(LiveChart.top(37.8, 10)).isEqualTo(40);
        assertThat(LiveChart.gridStep(1750)).isEqualTo(500);
        assertThat(LiveChart.top(1750, 500)).isEqualTo(2000);
        assertThat(LiveChart.gridStep(0.96)).isEqualTo(0.5);
        assertThat(LiveChart.top(0.96, 0.5)).isEqualTo(1.0);
        assertThat(LiveChart.top(1000, LiveChart.gridStep(1000))).isEqualTo(1000);
    }

    @Test
    void axis_ofNoData_isOneStepHigh() {
        double step = LiveChart.gridStep(0);

        assertThat(LiveChart.top(0, step)).isEqualTo(step).isPositive();
    }
}
