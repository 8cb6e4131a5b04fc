package io.mqttload.jmeter;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Desktop;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.swing.BorderFactory;
import javax.swing.Box;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTextArea;
import javax.swing.JToggleButton;
import javax.swing.SwingConstants;
import javax.swing.SwingUtilities;
import javax.swing.UIManager;
import javax.swing.table.DefaultTableCellRenderer;
import javax.swing.text.DefaultCaret;

import io.mqttload.engine.EngineRuntime;
import io.mqttload.jmeter.gui.FiguresTableModel;
import io.mqttload.jmeter.gui.LiveChart;
import io.mqttload.jmeter.gui.LiveRunModel;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.live.LiveTables;

/**
 * The MQTT Run Report's panel: the run first, as it goes (refreshed every second from {@link LiveRunModel}) and once it
 * ended: status, the verdict, the chart, the latency and sampler tables and the rest of the figures, with a button to
 * open the HTML report; the InfluxDB fields (JMeter's bean editor) folded at the bottom. All Swing of the Run Report
 * is here and in {@link LiveChart}; the figures and their text come from the model.
 */
public class MqttRunReportGui extends MqttBeanGui {
    private static final long serialVersionUID = 1L;
    private static final int REFRESH_MILLIS = 1000;
    /** Room for a sampler's name or a latency row's; the figures share the rest. */
    private static final int FIRST_COLUMN_WIDTH = 170;
    private static final int HEADER_PADDING = 24;
    private static final Color PASSED_LIGHT = new Color(0x1b7f2a);
    private static final Color PASSED_DARK = new Color(0x6fd47c);
    private static final Color FAULT_LIGHT = new Color(0xb3261e);
    private static final Color FAULT_DARK = new Color(0xff7a70);

    /**
     * JMeter makes several instances of a GUI class (its menus, its cache, after a look-and-feel change): one model and
     * one refresher serve them all, and they work only while one of them is on screen, so a plan merely loaded with a
     * Run Report costs its run nothing.
     */
    private static final LiveRunModel MODEL = new LiveRunModel();
    private static final Set<MqttRunReportGui> PANELS = Collections.newSetFromMap(new WeakHashMap<>());
    private static ScheduledExecutorService refresher;
    private final JTextArea status = wrapped();
    private final JTextArea verdict = wrapped();
    private final LiveChart chart = new LiveChart();
    private final FiguresTableModel latency = new FiguresTableModel(new LiveTables.Table(List.of()));
    private final FiguresTableModel samplers = new FiguresTableModel(new LiveTables.Table(List.of()));
    private final JPanel latencyTable = table(latency);
    private final JPanel samplerTable = table(samplers);
    private final JTextArea figures = new JTextArea(12, 80);
    private final JScrollPane figuresPane = new JScrollPane(figures);
    private final JButton openReport = new JButton("Open HTML report");
    private final JPanel run = new JPanel();
    private final JToggleButton influx = new JToggleButton("InfluxDB: where the whole-run figures are written (show)");
    private transient Path htmlReport;

    public MqttRunReportGui() {
        super(MqttRunReport.class);
        figures.setEditable(false);
        ((DefaultCaret) figures.getCaret()).setUpdatePolicy(DefaultCaret.NEVER_UPDATE);
        figures.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 12));
        status.setText(LiveRunModel.IDLE);
        status.setBorder(BorderFactory.createEmptyBorder(2, 2, 2, 2));
        openReport.setEnabled(false);
        openReport.addActionListener(e -> open(htmlReport));
        JPanel top = new JPanel(new BorderLayout(8, 0));
        top.add(status, BorderLayout.CENTER);
        top.add(openReport, BorderLayout.EAST);
        run.setLayout(new GridBagLayout());
        run.setBorder(BorderFactory.createTitledBorder("Run"));
        // One column, each part as wide as the panel and as high as it needs; the rest of the figures take what is left.
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = 0;
        c.fill = GridBagConstraints.HORIZONTAL;
        c.weightx = 1;
        c.insets = new Insets(2, 2, 4, 2);
        for (JComponent part : new JComponent[] {top, verdict, chart, latencyTable, samplerTable}) {
            run.add(part, c);
        }
        c.fill = GridBagConstraints.BOTH;
        c.weighty = 1;
        run.add(figuresPane, c);
        // Takes the height nobody else wants, so that the parts stay at the top when the figures are hidden.
        c.weighty = 1e-4;
        run.add(Box.createVerticalStrut(0), c);
        figuresPane.setVisible(false);
        latencyTable.setVisible(false);
        samplerTable.setVisible(false);
        verdict.setVisible(false);
        register(this);
    }

    /**
     * The run goes in the middle of the panel, and the bean editor below it, folded behind a button: its fields matter
     * before a run, the run matters while it goes.
     */
    @Override
    protected Component page(Component fields) {
        fields.setVisible(false);
        influx.addActionListener(e -> {
            fields.setVisible(influx.isSelected());
            influx.setText("InfluxDB: where the whole-run figures are written ("
                    + (influx.isSelected() ? "hide" : "show") + ")");
            revalidate();
        });
        JPanel below = new JPanel(new BorderLayout(0, 4));
        below.add(influx, BorderLayout.NORTH);
        below.add(fields, BorderLayout.CENTER);
        JPanel page = new JPanel(new BorderLayout(0, 6));
        page.add(run, BorderLayout.CENTER);
        page.add(below, BorderLayout.SOUTH);
        return page;
    }

    /** A run starts in this JVM: while a Run Report panel exists, the panel's figures follow it from its start. */
    private static synchronized void runStarted(EngineRuntime runtime) {
        if (!PANELS.isEmpty()) {
            MODEL.follow(runtime);
        }
    }

    /** Adds a panel to those the shared refresher serves, starting the refresher with the first. */
    private static synchronized void register(MqttRunReportGui panel) {
        PANELS.add(panel);
        if (refresher == null) {
            JvmRun.followRuns(MqttRunReportGui::runStarted);
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
        verdict.setText(view.verdict);
        verdict.setVisible(!view.verdict.isEmpty());
        verdict.setForeground(tone(view.tone));
        show(latency, latencyTable, view.latency);
        show(samplers, samplerTable, view.samplers);
        figuresPane.setVisible(!view.text.isEmpty());
        if (!view.text.equals(figures.getText())) {
            // The caret never follows the text: whoever scrolled down to a line stays there.
            figures.setText(view.text);
        }
        chart.show(view.history);
        htmlReport = view.htmlReport;
        openReport.setEnabled(htmlReport != null);
    }

    private static void show(FiguresTableModel model, JPanel panel, LiveTables.Table table) {
        panel.setVisible(table != null && !table.rows.isEmpty());
        if (table != null) {
            model.show(table);
        }
    }

    /** Green or red that reads on the look and feel's background, light or dark. */
    private Color tone(LiveRunModel.Tone tone) {
        boolean dark = isDark(getBackground());
        switch (tone) {
            case PASSED:
                return dark ? PASSED_DARK : PASSED_LIGHT;
            case FAULT:
                return dark ? FAULT_DARK : FAULT_LIGHT;
            default:
                return UIManager.getColor("Label.foreground");
        }
    }

    private static boolean isDark(Color c) {
        return c != null && c.getRed() * 299 + c.getGreen() * 587 + c.getBlue() * 114 < 128_000;
    }

    /** A read-only text that wraps at the panel's width, in the label font, bold. */
    private static JTextArea wrapped() {
        JTextArea text = new JTextArea();
        text.setEditable(false);
        text.setLineWrap(true);
        text.setWrapStyleWord(true);
        text.setOpaque(false);
        text.setFont(UIManager.getFont("Label.font").deriveFont(Font.BOLD));
        return text;
    }

    /** A table with its header, all rows shown (the page scrolls, not the table), the first column wider. */
    private static JPanel table(FiguresTableModel model) {
        JTable table = new JTable(model);
        table.setFillsViewportHeight(false);
        table.setRowSelectionAllowed(true);
        table.setAutoResizeMode(JTable.AUTO_RESIZE_SUBSEQUENT_COLUMNS);
        table.setDefaultRenderer(Object.class, new DefaultTableCellRenderer() {
            private static final long serialVersionUID = 1L;

            @Override
            public Component getTableCellRendererComponent(JTable t, Object value, boolean selected, boolean focus,
                    int row, int column) {
                super.getTableCellRendererComponent(t, value, selected, focus, row, column);
                String cell = String.valueOf(value);
                // Figures right-aligned; a first column or a note (a sentence where a figure would be) left.
                boolean words = column == 0 || cell.indexOf(' ') > 0;
                setHorizontalAlignment(words ? SwingConstants.LEFT : SwingConstants.RIGHT);
                setToolTipText(words && column > 0 ? cell : null);
                return this;
            }
        });
        model.addTableModelListener(e -> {
            // The table shares its width out in proportion to these: each column its header's, the first more.
            FontMetrics fm = table.getTableHeader().getFontMetrics(table.getTableHeader().getFont());
            for (int i = 0; i < table.getColumnCount(); i++) {
                table.getColumnModel().getColumn(i).setPreferredWidth(i == 0 ? FIRST_COLUMN_WIDTH
                        : fm.stringWidth(model.getColumnName(i)) + HEADER_PADDING);
            }
        });
        JPanel panel = new JPanel(new BorderLayout());
        panel.add(table.getTableHeader(), BorderLayout.NORTH);
        panel.add(table, BorderLayout.CENTER);
        return panel;
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
}
