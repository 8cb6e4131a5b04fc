package io.mqttload.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart over the run's time, as geometry for the page's SVG template: axis ticks, one polyline per run of
 * defined points of each series (NaN leaves a gap), and a legend.
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

    /** One polyline: SVG points "x,y x,y ...". */
    public static final class Line {
        public final String color;
        public final String points;

        Line(String color, String points) {
            this.color = color;
            this.points = points;
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

    TimeChart(String title, String unit, double[] x, List<ChartSeries> series) {
        this.title = title;
        this.unit = unit;
        double xMax = Math.max(1, HtmlReport.max(x));
        double yMax = 0;
        for (ChartSeries s : series) {
            yMax = Math.max(yMax, HtmlReport.max(s.y));
        }
        double yTop = HtmlReport.niceCeiling(yMax);
        for (int i = 0; i <= 5; i++) {
            yTicks.add(new Tick(TOP + PLOT_HEIGHT - PLOT_HEIGHT * i / 5.0, HtmlReport.label(yTop * i / 5)));
            xTicks.add(new Tick(LEFT + PLOT_WIDTH * i / 5.0, HtmlReport.label(xMax * i / 5)));
        }
        for (int si = 0; si < series.size(); si++) {
            ChartSeries s = series.get(si);
            String color = ChartSeries.COLORS.get(si % ChartSeries.COLORS.size());
            for (String points : segments(x, s.y, xMax, yTop)) {
                lines.add(new Line(color, points));
            }
            legend.add(new Legend(LEFT + 10 + si * 190, color, s.name));
        }
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
