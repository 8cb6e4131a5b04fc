package io.mqttload.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

/**
 * A line chart, as geometry for the page's SVG template: axis ticks, one polyline per run of defined points of each
 * series (NaN leaves a gap), and a legend. Over the run's time ({@link #overTime}), or a latency distribution over
 * its percentiles ({@link #distribution}).
 */
public final class TimeChart {
    private static final int WIDTH = 1100;
    private static final int HEIGHT = 260;
    private static final int LEFT = 70;
    private static final int TOP = 30;
    private static final int PLOT_WIDTH = WIDTH - LEFT - 20;
    private static final int PLOT_HEIGHT = HEIGHT - TOP - 40;
    public final String title;
    public final String unit;
    public final List<Tick> yTicks = new ArrayList<>();
    public final List<Tick> xTicks = new ArrayList<>();
    public final List<Line> lines = new ArrayList<>();
    public final List<Legend> legend = new ArrayList<>();

    /** A grid line or axis label at a position in the SVG, with its text. */
    public static final class Tick {
        public final String position;
        public final String label;

        Tick(double position, String label) {
            this.position = String.format(Locale.ROOT, "%.1f", position);
            this.label = label;
        }
    }

    /** One polyline: SVG points "x,y x,y ...", and its stroke width. */
    public static final class Line {
        public final String color;
        public final String points;
        public final String width;

        Line(String color, String points, String width) {
            this.color = color;
            this.points = points;
            this.width = width;
        }
    }

    /** One legend entry. */
    public static final class Legend {
        public final int x;
        public final String color;
        public final String name;

        Legend(int x, String color, String name) {
            this.x = x;
            this.color = color;
            this.name = name;
        }
    }

    /** The frame, for the template: the SVG's size, and the plot's top-left corner and size inside it. */
    public int getWidth() {
        return WIDTH;
    }

    public int getHeight() {
        return HEIGHT;
    }

    public int getLeft() {
        return LEFT;
    }

    public int getTop() {
        return TOP;
    }

    public int getPlotWidth() {
        return PLOT_WIDTH;
    }

    public int getPlotHeight() {
        return PLOT_HEIGHT;
    }

    /** The widest line is the first series': a later one on the same values is drawn inside it, not over it. */
    private static final String FIRST_WIDTH = "4";
    private static final String WIDTH_OF_OTHERS = "1.6";
    /** The distribution's last percentile: 99.999 %, five nines. */
    private static final double MAX_NINES = 5;
    private static final double NINES_STEP = 0.05;

    private TimeChart(String title, String unit, double[] x, List<ChartSeries> series, double xTop, double[] xTickValues,
            List<String> xTickLabels) {
        this.title = title;
        this.unit = unit;
        double yMax = 0;
        for (ChartSeries s : series) {
            yMax = Math.max(yMax, HtmlReport.max(s.y));
        }
        double yTop = HtmlReport.niceCeiling(yMax);
        for (int i = 0; i <= 5; i++) {
            yTicks.add(new Tick(TOP + PLOT_HEIGHT - PLOT_HEIGHT * i / 5.0, HtmlReport.label(yTop * i / 5)));
        }
        for (int i = 0; i < xTickValues.length; i++) {
            xTicks.add(new Tick(LEFT + PLOT_WIDTH * xTickValues[i] / xTop, xTickLabels.get(i)));
        }
        for (int si = 0; si < series.size(); si++) {
            ChartSeries s = series.get(si);
            String color = ChartSeries.COLORS.get(si % ChartSeries.COLORS.size());
            String width = si == 0 && series.size() > 1 ? FIRST_WIDTH : WIDTH_OF_OTHERS;
            for (String points : segments(x, s.y, xTop, yTop)) {
                lines.add(new Line(color, points, width));
            }
            legend.add(new Legend(LEFT + 10 + si * 190, color, s.name));
        }
    }

    /** Series over the run's seconds {@code x}: the axis ends on a round number of seconds, with round ticks. */
    static TimeChart overTime(String title, String unit, double[] x, List<ChartSeries> series) {
        double xTop = HtmlReport.niceCeiling(Math.max(1, HtmlReport.max(x)));
        double[] ticks = new double[6];
        List<String> labels = new ArrayList<>();
        for (int i = 0; i <= 5; i++) {
            ticks[i] = xTop * i / 5;
            labels.add(HtmlReport.label(ticks[i]) + " s");
        }
        return new TimeChart(title, unit, x, series, xTop, ticks, labels);
    }

    /**
     * A latency distribution: the value at each percentile, the x axis in nines (0 at the median's left edge, 1 at
     * 90 %, 2 at 99 %, ...) so that the tail has room, up to the percentile the sample count can tell apart.
     */
    static TimeChart distribution(String title, String unit, Histogram h) {
        double maxNines = Math.min(MAX_NINES, Math.max(1, Math.ceil(Math.log10(Math.max(10, h.getTotalCount())))));
        int n = (int) Math.round(maxNines / NINES_STEP) + 1;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * NINES_STEP;
            y[i] = h.getValueAtPercentile(100 * (1 - Math.pow(10, -x[i]))) / 1000.0;
        }
        double[] ticks = new double[(int) maxNines + 1];
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = i;
            labels.add(ninesLabel(i));
        }
        return new TimeChart(title, unit, x, List.of(new ChartSeries("value at percentile", y)), maxNines, ticks,
                labels);
    }

    /** The percentile of {@code nines} nines: 0 %, 90 %, 99 %, 99.9 %, ... */
    static String ninesLabel(int nines) {
        if (nines == 0) {
            return "0 %";
        }
        if (nines == 1) {
            return "90 %";
        }
        return "99" + (nines > 2 ? "." + "9".repeat(nines - 2) : "") + " %";
    }

    /** Runs of consecutive defined points, as SVG point lists; a single point becomes a tiny segment. */
    private List<String> segments(double[] x, double[] y, double xMax, double yTop) {
        List<String> out = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        int count = 0;
        double firstX = 0;
        double firstY = 0;
        for (int i = 0; i <= x.length; i++) {
            boolean defined = i < x.length && !Double.isNaN(y[i]);
            if (defined) {
                double px = LEFT + PLOT_WIDTH * x[i] / xMax;
                double py = TOP + PLOT_HEIGHT - PLOT_HEIGHT * Math.min(1, y[i] / yTop);
                if (count == 0) {
                    firstX = px;
                    firstY = py;
                }
                run.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                count++;
            } else if (count > 0) {
                if (count == 1) {
                    run.append(String.format(Locale.ROOT, "%.1f,%.1f", firstX + 1, firstY));
                }
                out.add(run.toString().trim());
                run.setLength(0);
                count = 0;
            }
        }
        return out;
    }
}
