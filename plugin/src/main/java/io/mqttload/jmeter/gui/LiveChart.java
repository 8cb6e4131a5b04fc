package io.mqttload.jmeter.gui;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.FontMetrics;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import javax.swing.JComponent;
import javax.swing.UIManager;

import io.mqttload.live.LiveFigures;

/**
 * Publish and receive rates (left axis) and pub-to-sub p99 (right axis), one point a second, from the run's start.
 * Drawn in the look and feel's own colours, so that it reads on JMeter's dark theme as on the light one; each axis is
 * scaled to the first round grid value above its highest point.
 */
public final class LiveChart extends JComponent {
    private static final long serialVersionUID = 1L;
    /** Mid-tones that stand out on a white and on a dark grey background alike. */
    private static final Color PUBLISH = new Color(0x3d8fd6);
    private static final Color RECEIVE = new Color(0x3fae49);
    private static final Color P99 = new Color(0xe0483e);
    private static final Color P99_INTENDED = new Color(0xa77bdb);
    private static final int TOP = 8;
    private static final int GRID_LINES = 4;
    /** Room left and right of the plot for the axes' labels, and below it for the time axis and the legend. */
    private static final int MARGIN = 78;
    private static final int BELOW = 40;
    /** Shortest time axis: the first seconds of a run do not fill the width with two points. */
    private static final double MIN_SPAN_SECONDS = 10;
    private transient List<LiveFigures.Point> points = List.of();

    public LiveChart() {
        setPreferredSize(new Dimension(600, 190));
    }

    public void show(List<LiveFigures.Point> history) {
        if (history != points) {
            points = history;
            repaint();
        }
    }

    /**
     * An axis' grid step for values up to {@code max}: 1, 2 or 5 times a power of ten, at most {@link #GRID_LINES} steps
     * to the top, so that every grid line has a round label.
     */
    static double gridStep(double max) {
        double least = max > 0 ? max / GRID_LINES : 1.0 / GRID_LINES;
        double power = Math.pow(10, Math.floor(Math.log10(least)));
        for (double step : new double[] {1, 2, 5}) {
            if (step * power >= least * (1 - 1e-9)) {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** The axis' top: the first grid line at or above {@code max}. */
    static double top(double max, double step) {
        return Math.max(step, Math.ceil(max / step - 1e-9) * step);
    }

    @Override
    protected void paintComponent(Graphics graphics) {
        Graphics2D g = (Graphics2D) graphics.create();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        Color background = colour("TextField.background", getBackground());
        Color text = colour("Label.foreground", getForeground());
        Color grid = blend(background, text, 0.25);
        g.setColor(background);
        g.fillRect(0, 0, getWidth(), getHeight());
        int w = getWidth() - 2 * MARGIN;
        int h = getHeight() - TOP - BELOW;
        FontMetrics fm = g.getFontMetrics();
        if (points.isEmpty()) {
            g.setColor(grid);
            g.drawRect(MARGIN, TOP, w, h);
            g.setColor(text);
            g.drawString("rates and p99 appear here each second once the run has begun", MARGIN + 8, TOP + h / 2);
            g.dispose();
            return;
        }
        double rates = Math.max(max(p -> p.publishRate), max(p -> p.receiveRate));
        double rateStep = gridStep(rates);
        double maxRate = top(rates, rateStep);
        double latency = Math.max(max(p -> p.pubToSubP99Millis), max(p -> p.pubToSubIntendedP99Millis));
        double latencyStep = gridStep(latency);
        double maxP99 = top(latency, latencyStep);
        double span = Math.max(MIN_SPAN_SECONDS, points.get(points.size() - 1).elapsedSeconds);
        // Grid lines of the rate axis; the latency axis labels its own steps at their heights.
        for (int i = 0; i * rateStep <= maxRate * (1 + 1e-9); i++) {
            int y = (int) Math.round(TOP + h - h * i * rateStep / maxRate);
            g.setColor(grid);
            g.drawLine(MARGIN, y, MARGIN + w, y);
            g.setColor(text);
            String rate = axisLabel(i * rateStep, "msg/s");
            g.drawString(rate, MARGIN - 6 - fm.stringWidth(rate), y + fm.getAscent() / 2 - 1);
        }
        for (int i = 0; i * latencyStep <= maxP99 * (1 + 1e-9); i++) {
            int y = (int) Math.round(TOP + h - h * i * latencyStep / maxP99);
            g.setColor(grid);
            g.drawLine(MARGIN + w, y, MARGIN + w + 4, y);
            g.setColor(text);
            g.drawString(axisLabel(i * latencyStep, "ms"), MARGIN + w + 6, y + fm.getAscent() / 2 - 1);
        }
        // Receive under publish, publish dashed: in a one-to-one run the two lines coincide.
        line(g, p -> p.receiveRate, maxRate, span, RECEIVE, w, h, new BasicStroke(2f));
        line(g, p -> p.publishRate, maxRate, span, PUBLISH, w, h, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        line(g, p -> p.pubToSubP99Millis, maxP99, span, P99, w, h, new BasicStroke(1.5f));
        boolean intended = max(p -> p.pubToSubIntendedP99Millis) > 0;
        if (intended) {
            // Dotted, over the p99 from the send: where they part, publishers sent late and the gap is the wait.
            line(g, p -> p.pubToSubIntendedP99Millis, maxP99, span, P99_INTENDED, w, h, new BasicStroke(1.5f,
                    BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f}, 0f));
        }
        int baseline = TOP + h + fm.getAscent() + 2;
        g.setColor(text);
        g.drawString("0 s", MARGIN, baseline);
        String end = String.format(Locale.ROOT, "%.0f s", span);
        g.drawString(end, MARGIN + w - fm.stringWidth(end), baseline);
        legend(g, text, MARGIN, baseline + fm.getHeight(), intended);
        g.dispose();
    }

    /** A grid value: a multiple of 1, 2 or 5 times a power of ten, with no more decimals than that needs. */
    private static String axisLabel(double value, String unit) {
        String number = new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros()
                .toPlainString();
        return number + " " + unit;
    }

    private static Color colour(String key, Color fallback) {
        Color c = UIManager.getColor(key);
        return c != null ? c : fallback;
    }

    private static Color blend(Color a, Color b, double share) {
        return new Color((int) (a.getRed() + (b.getRed() - a.getRed()) * share),
                (int) (a.getGreen() + (b.getGreen() - a.getGreen()) * share),
                (int) (a.getBlue() + (b.getBlue() - a.getBlue()) * share));
    }

    private double max(ToDoubleFunction<LiveFigures.Point> value) {
        return points.stream().mapToDouble(value).max().orElse(0);
    }

    private void line(Graphics2D g, ToDoubleFunction<LiveFigures.Point> value, double max, double span, Color color, int w,
            int h, BasicStroke stroke) {
        Path2D.Double path = new Path2D.Double();
        for (int i = 0; i < points.size(); i++) {
            LiveFigures.Point p = points.get(i);
            double x = MARGIN + p.elapsedSeconds / span * w;
            double y = TOP + h - value.applyAsDouble(p) / max * h;
            if (i == 0) {
                path.moveTo(x, y);
            } else {
                path.lineTo(x, y);
            }
        }
        g.setColor(color);
        g.setStroke(stroke);
        g.draw(path);
    }

    private static void legend(Graphics2D g, Color text, int x, int y, boolean intended) {
        String[] names = {"publish msg/s", "receive msg/s", "pub-to-sub p99 ms (right)", "p99 from intended send"};
        Color[] colors = {PUBLISH, RECEIVE, P99, P99_INTENDED};
        int at = x;
        for (int i = 0; i < (intended ? names.length : names.length - 1); i++) {
            g.setColor(colors[i]);
            g.fillRect(at, y - 9, 10, 10);
            g.setColor(text);
            g.drawString(names[i], at + 14, y);
            at += 14 + g.getFontMetrics().stringWidth(names[i]) + 16;
        }
    }
}
