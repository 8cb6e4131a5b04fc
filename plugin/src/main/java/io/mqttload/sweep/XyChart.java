package io.mqttload.sweep;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.imageio.ImageIO;

import io.mqttload.report.ChartSeries;
import io.mqttload.report.HtmlReport;

/**
 * A line chart of figures against a numeric x (clients), one marker per point, drawn once through
 * {@link Canvas} so that the SVG and the PNG show the same thing: SVG for the HTML page and the docs, PNG for
 * places that take no SVG (issue trackers, slides). The PNG comes from Java2D, so no browser is needed.
 */
final class XyChart {
    static final int WIDTH = 900;
    static final int HEIGHT = 380;
    private static final int LEFT = 80;
    private static final int RIGHT = 24;
    private static final int TOP = 52;
    private static final int BOTTOM = 48;

    final String title;
    final String xTitle;
    final String yTitle;
    final double[] x;
    /** What each x position is (the step's label), for the markers' tooltips. */
    final String[] pointLabels;
    final List<ChartSeries> series = new ArrayList<>();

    XyChart(String title, String xTitle, String yTitle, double[] x, String[] pointLabels) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
        this.x = x;
        this.pointLabels = pointLabels;
    }

    /** Writes each chart as {@code <name>.svg} and {@code <name>.png} in {@code dir}; returns the files' names. */
    static List<String> writeAll(Map<String, XyChart> charts, Path dir) throws IOException {
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, XyChart> c : charts.entrySet()) {
            Files.writeString(dir.resolve(c.getKey() + ".svg"), c.getValue().toSvg(), StandardCharsets.UTF_8);
            Files.write(dir.resolve(c.getKey() + ".png"), c.getValue().toPng());
            files.add(c.getKey() + ".svg");
            files.add(c.getKey() + ".png");
        }
        return files;
    }

    XyChart add(String name, double[] y) {
        series.add(new ChartSeries(name, y));
        return this;
    }

    /** What the chart is drawn on: SVG text or a Java2D image, in the same pixel coordinates. */
    private interface Canvas {
        void line(double x1, double y1, double x2, double y2, String color, double width);

        void rect(double x, double y, double w, double h, String stroke, String fill);

        void polyline(List<double[]> points, String color);

        void marker(double x, double y, String color, String tooltip);

        /** anchor: -1 start, 0 middle, 1 end; rotated: read bottom to top. */
        void text(double x, double y, String text, int size, boolean bold, int anchor, boolean rotated);
    }

    String toSvg() {
        StringBuilder s = new StringBuilder(16 * 1024);
        s.append(String.format(Locale.ROOT, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT,
                HtmlReport.esc(title)));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>%n", WIDTH, HEIGHT));
        draw(new Canvas() {
            @Override
            public void line(double x1, double y1, double x2, double y2, String color, double width) {
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                        + " stroke-width=\"%.1f\"/>%n", x1, y1, x2, y2, color, width));
            }

            @Override
            public void rect(double x, double y, double w, double h, String stroke, String fill) {
                s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                        + " fill=\"%s\" stroke=\"%s\"/>%n", x, y, w, h, fill == null ? "none" : fill,
                        stroke == null ? "none" : stroke));
            }

            @Override
            public void polyline(List<double[]> points, String color) {
                s.append("<polyline fill=\"none\" stroke-width=\"1.8\" stroke=\"").append(color).append("\" points=\"");
                for (double[] p : points) {
                    s.append(String.format(Locale.ROOT, "%.1f,%.1f ", p[0], p[1]));
                }
                s.setLength(s.length() - 1);
                s.append("\"/>\n");
            }

            @Override
            public void marker(double x, double y, String color, String tooltip) {
                s.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\""
                        + " fill=\"%s\"><title>%s</title></circle>%n", x, y, color, HtmlReport.esc(tooltip)));
            }

            @Override
            public void text(double x, double y, String text, int size, boolean bold, int anchor, boolean rotated) {
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\""
                        + " font-size=\"%d\"%s text-anchor=\"%s\"%s>%s</text>%n", x, y, size,
                        bold ? " font-weight=\"bold\"" : "", anchor < 0 ? "start" : anchor == 0 ? "middle" : "end",
                        rotated ? String.format(Locale.ROOT, " transform=\"rotate(-90 %.1f %.1f)\"", x, y) : "",
                        HtmlReport.esc(text)));
            }
        });
        s.append("</svg>\n");
        return s.toString();
    }

    byte[] toPng() throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            draw(new Canvas() {
                @Override
                public void line(double x1, double y1, double x2, double y2, String color, double width) {
                    g.setColor(Color.decode(color));
                    g.setStroke(new BasicStroke((float) width));
                    g.draw(new Line2D.Double(x1, y1, x2, y2));
                }

                @Override
                public void rect(double x, double y, double w, double h, String stroke, String fill) {
                    if (fill != null) {
                        g.setColor(Color.decode(fill));
                        g.fill(new Rectangle2D.Double(x, y, w, h));
                    }
                    if (stroke != null) {
                        g.setColor(Color.decode(stroke));
                        g.setStroke(new BasicStroke(1f));
                        g.draw(new Rectangle2D.Double(x, y, w, h));
                    }
                }

                @Override
                public void polyline(List<double[]> points, String color) {
                    Path2D.Double path = new Path2D.Double();
                    path.moveTo(points.get(0)[0], points.get(0)[1]);
                    for (double[] p : points.subList(1, points.size())) {
                        path.lineTo(p[0], p[1]);
                    }
                    g.setColor(Color.decode(color));
                    g.setStroke(new BasicStroke(1.8f));
                    g.draw(path);
                }

                @Override
                public void marker(double x, double y, String color, String tooltip) {
                    g.setColor(Color.decode(color));
                    g.fill(new Ellipse2D.Double(x - 3.5, y - 3.5, 7, 7));
                }

                @Override
                public void text(double x, double y, String text, int size, boolean bold, int anchor, boolean rotated) {
                    g.setColor(Color.decode("#222222"));
                    g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size));
                    FontMetrics m = g.getFontMetrics();
                    double shift = anchor < 0 ? 0 : anchor == 0 ? m.stringWidth(text) / 2.0 : m.stringWidth(text);
                    AffineTransform saved = g.getTransform();
                    g.translate(x, y);
                    if (rotated) {
                        g.rotate(-Math.PI / 2);
                    }
                    g.drawString(text, (float) -shift, 0f);
                    g.setTransform(saved);
                }
            });
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    private void draw(Canvas c) {
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        // Axes from zero: a sweep is read as "how does it grow", and a cropped axis exaggerates.
        double xTop = HtmlReport.niceCeiling(HtmlReport.max(x));
        double yMax = 0;
        for (ChartSeries s : series) {
            yMax = Math.max(yMax, HtmlReport.max(s.y));
        }
        double yTop = HtmlReport.niceCeiling(yMax);
        c.text(LEFT, 20, title, 14, true, -1, false);
        for (int i = 0; i <= 5; i++) {
            double y = TOP + plotH - plotH * i / 5.0;
            c.line(LEFT, y, LEFT + plotW, y, "#e5e5e5", 1);
            c.text(LEFT - 6, y + 4, HtmlReport.label(yTop * i / 5), 11, false, 1, false);
            double xp = LEFT + plotW * i / 5.0;
            c.line(xp, TOP, xp, TOP + plotH, "#f0f0f0", 1);
            c.text(xp, TOP + plotH + 16, HtmlReport.label(xTop * i / 5), 11, false, 0, false);
        }
        c.rect(LEFT, TOP, plotW, plotH, "#999999", null);
        c.text(LEFT + plotW / 2.0, HEIGHT - 8, xTitle, 12, false, 0, false);
        c.text(18, TOP + plotH / 2.0, yTitle, 12, false, 0, true);
        double legendX = LEFT;
        for (int si = 0; si < series.size(); si++) {
            ChartSeries s = series.get(si);
            String color = ChartSeries.COLORS.get(si % ChartSeries.COLORS.size());
            List<double[]> points = new ArrayList<>();
            List<Integer> indexes = new ArrayList<>();
            for (int i = 0; i < x.length; i++) {
                if (!Double.isNaN(s.y[i]) && !Double.isNaN(x[i])) {
                    points.add(new double[] {LEFT + plotW * x[i] / xTop, TOP + plotH - plotH * Math.min(1, s.y[i] / yTop)});
                    indexes.add(i);
                }
            }
            if (points.size() > 1) {
                c.polyline(points, color);
            }
            for (int k = 0; k < points.size(); k++) {
                int i = indexes.get(k);
                c.marker(points.get(k)[0], points.get(k)[1], color, String.format(Locale.ROOT, "%s: %s clients, %s %s %s",
                        pointLabels[i], HtmlReport.label(x[i]), s.name, format(s.y[i]), yTitle));
            }
            c.rect(legendX, 31, 14, 4, null, color);
            c.text(legendX + 18, 37, s.name, 12, false, -1, false);
            // No font metrics in SVG: 7 px per character is wide enough for sans-serif at 12 px.
            legendX += 36 + 7 * s.name.length();
        }
    }

    private static String format(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
