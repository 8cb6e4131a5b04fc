package io.mqttload.jmeter;

import java.awt.BasicStroke;
import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Desktop;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;
import javax.swing.text.DefaultCaret;

import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;

import io.mqttload.live.LiveFigures;

/**
 * The MQTT Run Report's panel: its InfluxDB fields (JMeter's bean editor) and, below them, the run as it goes —
 * refreshed every second from {@link LiveRunModel} — then the merged report and a button to open its HTML page.
 * All Swing of the suite is here; the figures and their text come from the model.
 */
public class MqttRunReportGui extends TestBeanGUI {
    private static final long serialVersionUID = 1L;
    private static final int REFRESH_MILLIS = 1000;
    private static final Color PUBLISH = new Color(0x1f77b4);
    private static final Color RECEIVE = new Color(0x2ca02c);
    private static final Color P99 = new Color(0xd62728);
    private static final Color P99_INTENDED = new Color(0x9467bd);

    /**
     * JMeter makes several instances of a GUI class (its menus, its cache, after a look-and-feel change): one model and
     * one refresher serve them all, and they work only while one of them is on screen, so a plan merely loaded with a
     * Run Report costs its run nothing.
     */
    private static final LiveRunModel MODEL = new LiveRunModel();
    private static final Set<MqttRunReportGui> PANELS = Collections.newSetFromMap(new WeakHashMap<>());
    private static ScheduledExecutorService refresher;
    private final JLabel status = new JLabel(LiveRunModel.IDLE);
    private final JTextArea figures = new JTextArea(22, 100);
    private final Chart chart = new Chart();
    private final JButton openReport = new JButton("Open HTML report");
    private final JPanel run = new JPanel(new BorderLayout(0, 5));
    private transient Path htmlReport;

    public MqttRunReportGui() {
        super(MqttRunReport.class);
        figures.setEditable(false);
        ((DefaultCaret) figures.getCaret()).setUpdatePolicy(DefaultCaret.NEVER_UPDATE);
        figures.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 12));
        openReport.setEnabled(false);
        openReport.addActionListener(e -> open(htmlReport));
        JPanel top = new JPanel(new BorderLayout(8, 0));
        top.add(status, BorderLayout.CENTER);
        top.add(openReport, BorderLayout.EAST);
        run.setBorder(BorderFactory.createTitledBorder("Run"));
        run.add(top, BorderLayout.NORTH);
        run.add(chart, BorderLayout.CENTER);
        run.add(new JScrollPane(figures), BorderLayout.SOUTH);
        register(this);
    }

    /** The bean editor lays itself out on its first configure, replacing the layout: the run panel goes in after. */
    @Override
    public void configure(TestElement element) {
        super.configure(element);
        if (run.getParent() == null) {
            add(run, BorderLayout.SOUTH);
        }
    }

    /** JMeter lists this panel under Add > Listener in place of the generic bean panel, which the bean info hides. */
    @Override
    public boolean isHidden() {
        return false;
    }

    /** Adds a panel to those the shared refresher serves, starting the refresher with the first. */
    private static synchronized void register(MqttRunReportGui panel) {
        PANELS.add(panel);
        if (refresher == null) {
            // The model may wait on remote engines: it runs on a thread of its own, and Swing only shows the result.
            refresher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mqttload-run-report-panel");
                t.setDaemon(true);
                return t;
            });
            refresher.scheduleWithFixedDelay(MqttRunReportGui::refreshShowingPanels, REFRESH_MILLIS, REFRESH_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
    }

    private static void refreshShowingPanels() {
        List<MqttRunReportGui> showing = new ArrayList<>();
        synchronized (MqttRunReportGui.class) {
            for (MqttRunReportGui panel : PANELS) {
                if (panel.run.isShowing()) {
                    showing.add(panel);
                }
            }
        }
        if (showing.isEmpty()) {
            return;
        }
        try {
            LiveRunModel.View view = MODEL.refresh();
            SwingUtilities.invokeLater(() -> showing.forEach(p -> p.show(view)));
        } catch (RuntimeException e) {
            SwingUtilities.invokeLater(() -> showing.forEach(p -> p.status.setText("Live figures failed: " + e)));
        }
    }

    private void show(LiveRunModel.View view) {
        status.setText(view.status);
        if (!view.text.equals(figures.getText())) {
            // The caret never follows the text: whoever scrolled down to a sampler row or an engine stays there.
            figures.setText(view.text);
        }
        chart.show(view.history);
        htmlReport = view.htmlReport;
        openReport.setEnabled(htmlReport != null);
    }

    private void open(Path report) {
        if (report == null) {
            return;
        }
        try {
            if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
                Desktop.getDesktop().browse(report.toUri());
                return;
            }
        } catch (IOException | UnsupportedOperationException e) {
            JOptionPane.showMessageDialog(this, "Could not open a browser (" + e.getMessage() + "); the report is at\n"
                    + report, "MQTT Run Report", JOptionPane.INFORMATION_MESSAGE);
            return;
        }
        JOptionPane.showMessageDialog(this, "No browser is known to this desktop; the report is at\n" + report,
                "MQTT Run Report", JOptionPane.INFORMATION_MESSAGE);
    }

    /** Publish and receive rates (left axis) and pub-to-sub p99 (right axis), one point a second. */
    private static final class Chart extends JComponent {
        private static final long serialVersionUID = 1L;
        /** Room left and right of the plot for the axes' top values. */
        private static final int MARGIN = 80;
        private transient List<LiveFigures.Point> points = List.of();

        Chart() {
            setPreferredSize(new Dimension(600, 170));
        }

        void show(List<LiveFigures.Point> history) {
            if (history != points) {
                points = history;
                repaint();
            }
        }

        @Override
        protected void paintComponent(Graphics graphics) {
            Graphics2D g = (Graphics2D) graphics.create();
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, getWidth(), getHeight());
            int w = getWidth() - 2 * MARGIN;
            int h = getHeight() - 30;
            g.setColor(Color.GRAY);
            g.drawRect(MARGIN, 8, w, h);
            if (points.size() < 2) {
                g.drawString("rates and p99 appear here once the run has two seconds of figures", MARGIN + 8, 8 + h / 2);
                g.dispose();
                return;
            }
            double maxRate = Math.max(1, Math.max(max(p -> p.publishRate), max(p -> p.receiveRate)));
            double maxP99 = Math.max(0.001, Math.max(max(p -> p.pubToSubP99Millis), max(p -> p.pubToSubIntendedP99Millis)));
            // Receive under publish, publish dashed: in a one-to-one run the two lines coincide.
            line(g, p -> p.receiveRate, maxRate, RECEIVE, w, h, new BasicStroke(2f));
            line(g, p -> p.publishRate, maxRate, PUBLISH, w, h, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            line(g, p -> p.pubToSubP99Millis, maxP99, P99, w, h, new BasicStroke(1.5f));
            if (max(p -> p.pubToSubIntendedP99Millis) > 0) {
                // Dotted, over the p99 from the send: where they part, publishers sent late and the gap is the wait.
                line(g, p -> p.pubToSubIntendedP99Millis, maxP99, P99_INTENDED, w, h, new BasicStroke(1.5f,
                        BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f}, 0f));
            }
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%.0f msg/s", maxRate), 4, 18);
            g.drawString(String.format(Locale.ROOT, "%.1f ms", maxP99), MARGIN + w + 4, 18);
            double first = points.get(0).elapsedSeconds;
            double last = points.get(points.size() - 1).elapsedSeconds;
            g.drawString(String.format(Locale.ROOT, "%.0f s", first), MARGIN, 8 + h + 16);
            g.drawString(String.format(Locale.ROOT, "%.0f s", last), MARGIN + w - 30, 8 + h + 16);
            legend(g, MARGIN + w / 2 - 230, 8 + h + 16);
            g.dispose();
        }

        private double max(ToDoubleFunction<LiveFigures.Point> value) {
            return points.stream().mapToDouble(value).max().orElse(0);
        }

        private void line(Graphics2D g, ToDoubleFunction<LiveFigures.Point> value, double max, Color color, int w, int h,
                BasicStroke stroke) {
            double first = points.get(0).elapsedSeconds;
            double span = Math.max(1, points.get(points.size() - 1).elapsedSeconds - first);
            Path2D.Double path = new Path2D.Double();
            for (int i = 0; i < points.size(); i++) {
                LiveFigures.Point p = points.get(i);
                double x = MARGIN + (p.elapsedSeconds - first) / span * w;
                double y = 8 + h - value.applyAsDouble(p) / max * h;
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

        private static void legend(Graphics2D g, int x, int y) {
            String[] names = {"publish msg/s", "receive msg/s", "pub-to-sub p99 ms", "p99 from intended send"};
            Color[] colors = {PUBLISH, RECEIVE, P99, P99_INTENDED};
            int at = x;
            for (int i = 0; i < names.length; i++) {
                g.setColor(colors[i]);
                g.fillRect(at, y - 9, 10, 10);
                g.setColor(Color.DARK_GRAY);
                g.drawString(names[i], at + 14, y);
                at += 14 + g.getFontMetrics().stringWidth(names[i]) + 16;
            }
        }
    }
}
