package io.mqttload.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The report's charts: round ticks on the time axis, every series visible, and a distribution that is the data's. */
class TimeChartTest {
    @Test
    void theTimeAxisEndsOnARoundNumber_withRoundTicks() {
        double[] x = {0, 5.8, 11.6, 17.4, 23.2, 29};
        TimeChart c = TimeChart.overTime("t", "msg/s", x, List.of(new ChartSeries("a", new double[] {1, 2, 3, 4, 5, 6})));

        assertThat(c.xTicks).extracting(t -> t.label).containsExactly("0 s", "6 s", "12 s", "18 s", "24 s", "30 s");
    }

    @Test
    void theFirstSeriesIsDrawnWider_soThatAnEqualSecondOneDoesNotHideIt() {
        double[] same = {1000, 1000, 1000};
        TimeChart c = TimeChart.overTime("t", "msg/s", new double[] {0, 1, 2}, List.of(new ChartSeries("published", same),
                new ChartSeries("received", same)));

        assertThat(c.lines).hasSize(2);
        assertThat(Double.parseDouble(c.lines.get(0).width)).isGreaterThan(Double.parseDouble(c.lines.get(1).width));
        assertThat(c.lines.get(0).points).isEqualTo(c.lines.get(1).points);
    }

    @Test
    void theDistribution_isTheHistogramsValueAtEachPercentile_onANinesAxis() {
        Histogram h = new Histogram(3);
        for (int us = 1; us <= 10_000; us++) {
            h.recordValue(us);
        }
        TimeChart c = TimeChart.distribution("d", "ms", h);

        assertThat(c.xTicks).extracting(t -> t.label).containsExactly("0 %", "90 %", "99 %", "99.9 %", "99.99 %");
        // Points at x = 0, 1, 2 nines: the values at 0 %, 90 %, 99 % (1 us, 9 ms, 9.9 ms), as HdrHistogram has them.
        String[] points = c.lines.get(0).points.split(" ");
        assertThat(points).hasSize(81);
        assertThat(y(c, points[0])).isCloseTo(h.getValueAtPercentile(0) / 1000.0, within(0.05));
        assertThat(y(c, points[20])).isCloseTo(h.getValueAtPercentile(90) / 1000.0, within(0.05));
        assertThat(y(c, points[40])).isCloseTo(h.getValueAtPercentile(99) / 1000.0, within(0.05));
    }

    /** A point's value back from its SVG position, on the chart's y axis (its top tick is the axis' top). */
    private static double y(TimeChart c, String point) {
        double py = Double.parseDouble(point.split(",")[1]);
        double top = Double.parseDouble(c.yTicks.get(5).label);
        return (c.getTop() + c.getPlotHeight() - py) / c.getPlotHeight() * top;
    }
}
