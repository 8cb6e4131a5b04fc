package io.mqttload.compare;

import java.util.List;
import java.util.Locale;

/**
 * {@code compare.html}: one page with nothing fetched: the sides' setups, the tables, and per figure a chart of every
 * run as a point, by side (colour) and round (x), so that an order effect (a side better in later rounds) or one
 * outlier is seen before a verdict is believed.
 */
final class CompareHtml {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    private static final int W = 560;
    private static final int H = 240;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 20;
    private static final int BOTTOM = 40;

    private CompareHtml() {
    }

    static String page(Comparison c, String capacityUnit, CompareOutput out) {
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(out.markdown().lines().findFirst().orElse("").substring(2))).append("</title><style>"
                        + "body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}"
                        + "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}.marked{color:#b00}"
                        + ".chart{display:inline-block;margin:0 1em 1em 0}</style></head><body>\n");
        h.append("<h1>").append(esc(out.markdown().lines().findFirst().orElse("").substring(2))).append("</h1>\n<ul>\n");
        for (String l : out.preamble()) {
            h.append(l.startsWith("* ") ? "<li class=\"marked\">" + esc(l.substring(2)) : "<li>" + esc(l)).append("</li>\n");
        }
        h.append("<li>Order of the runs: ").append(esc(out.order())).append("</li>\n</ul>\n");
        for (String b : c.against.keySet()) {
            h.append("<h2>").append(esc(b)).append(" against ").append(esc(c.sides.get(0).name)).append("</h2>\n<table>");
            h.append(row("th", out.header(b)));
            out.rows(b).forEach(r -> h.append(row("td", r)));
            h.append("</table>\n");
        }
        h.append("<p><strong>").append(esc(c.verdict())).append("</strong></p>\n<h2>Every run</h2>\n");
        for (Figure f : out.shownFigures()) {
            h.append(chart(c, f, f.titleWithUnit(capacityUnit)));
        }
        return h.append("</body></html>\n").toString();
    }

    private static String row(String cell, String[] cells) {
        StringBuilder r = new StringBuilder("<tr>");
        for (String s : cells) {
            r.append('<').append(cell).append('>').append(esc(s)).append("</").append(cell).append('>');
        }
        return r.append("</tr>\n").toString();
    }

    /** Every run's value of {@code f}: x is the round, each side a little apart so their points do not hide each other. */
    static String chart(Comparison c, Figure f, String title) {
        int rounds = 1;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Comparison.Side s : c.sides) {
            for (Run r : s.runs) {
                rounds = Math.max(rounds, r.round);
                double v = r.value(f);
                if (!Double.isNaN(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        if (lo > hi) {
            return "";
        }
        double pad = hi > lo ? (hi - lo) * 0.1 : Math.max(Math.abs(hi) * 0.1, 1);
        lo -= pad;
        hi += pad;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\""
                + " width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\"><title>%s</title>", W, H, esc(title), esc(title)));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"14\" font-size=\"13\">%s</text>", LEFT, esc(title)));
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
                LEFT, TOP, W - LEFT - RIGHT, H - TOP - BOTTOM));
        for (int k = 0; k <= 4; k++) {
            double v = lo + (hi - lo) * k / 4;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>",
                    LEFT - 4, y(v, lo, hi) + 3, f.format(v)));
        }
        for (int r = 1; r <= rounds; r++) {
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%d</text>",
                    x(r, 0, rounds), H - BOTTOM + 14, r));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">round</text>",
                (LEFT + W - RIGHT) / 2, H - 8));
        List<Comparison.Side> sides = c.sides;
        for (int i = 0; i < sides.size(); i++) {
            String colour = COLOURS[i % COLOURS.length];
            double offset = (i - (sides.size() - 1) / 2.0) * 0.12;
            for (Run r : sides.get(i).runs) {
                double v = r.value(f);
                if (Double.isNaN(v)) {
                    continue;
                }
                s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"%s><title>%s round %d"
                        + "%s: %s</title></circle>", x(r.round, offset, rounds), y(v, lo, hi), colour,
                        r.marks.isEmpty() ? "" : " stroke=\"#000\" stroke-width=\"2\"", esc(r.side), r.round,
                        r.sequence > 0 ? " (run " + r.sequence + ")" : "", f.format(v)));
            }
            s.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\""
                    + " font-size=\"11\">%s</text>", W - RIGHT - 110, TOP + 12 + 14 * i, colour, W - RIGHT - 102,
                    TOP + 16 + 14 * i, esc(sides.get(i).name)));
        }
        return s.append("</svg></div>\n").toString();
    }

    private static double x(double round, double offset, int rounds) {
        double span = W - LEFT - RIGHT;
        return LEFT + span * (round - 0.5 + offset) / rounds;
    }

    private static double y(double v, double lo, double hi) {
        double span = H - TOP - BOTTOM;
        return TOP + span * (1 - (v - lo) / (hi - lo));
    }

    private static String esc(String s) {
        return CompareOutput.xml(s);
    }
}
