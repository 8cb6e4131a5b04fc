package io.mqttload.jmeter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.Remoteable;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jmeter.visualizers.Visualizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.InfluxSettings;
import io.mqttload.engine.RunConfig;
import io.mqttload.jmeter.remote.EngineWatch;
import io.mqttload.jmeter.run.EngineReports;
import io.mqttload.jmeter.run.ExitStatus;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.jmeter.run.RunState;
import io.mqttload.report.ReportFiles;
import io.mqttload.report.ReportText;
import io.mqttload.report.influx.InfluxWriter;
import io.mqttload.report.influx.ReportPoints;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.SummaryJson;

/**
 * MQTT Run Report: the exact report of the whole run. It is a remoteable listener, so in distributed
 * mode JMeter keeps it on the controller, where it receives the summary every engine's MQTT Run End
 * sampler sends, and, once every engine has ended, merges them ({@link MergedReport}) and prints and
 * writes the report as text, JSON and Markdown. Run alone, it reports the local engine's run, with or
 * without a Run End sampler.
 */
public class MqttRunReport extends AbstractTestElement
        implements TestBean, SampleListener, TestStateListener, Remoteable, NoThreadClone, Visualizer {
    private static final long serialVersionUID = 1L;

    /** A plan saved before the element had its own panel opens with that panel, not JMeter's generic bean editor. */
    @Override
    public void setProperty(String name, String value) {
        super.setProperty(name, MqttBeanGui.guiClassAsRead(name, value, MqttRunReportGui.class));
    }
    private static final Logger log = LoggerFactory.getLogger(MqttRunReport.class);
    private String influxUrl = InfluxSettings.INFLUX_URL.defaultText();
    private String influxDatabase = InfluxSettings.INFLUX_DATABASE.defaultText();
    private String retentionPolicy = InfluxSettings.RETENTION_POLICY.defaultText();
    private String authentication = InfluxSettings.AUTHENTICATION.defaultText();
    private String username = InfluxSettings.USERNAME.defaultText();
    private String password = InfluxSettings.PASSWORD.defaultText();
    private String token = InfluxSettings.TOKEN.defaultText();

    /**
     * The run this copy reports. Run alone, this instance collects for itself; on a controller, JMeter gives every
     * remote engine its own copy of this listener, and the copies of one run report together through the run's
     * {@link EngineReports}.
     */
    private transient volatile RunState run;
    private transient EngineReports collector;

    private synchronized EngineReports collector() {
        if (collector == null) {
            collector = JvmRun.engineReportsAlone();
        }
        return collector;
    }

    /** Run alone (no remote engines): this instance collects for itself. */
    @Override
    public synchronized void testStarted() {
        collector = JvmRun.engineReportsAlone();
        run = JvmRun.beginOrJoin();
    }

    /** On the controller: one call per remote engine, each on that engine's copy of this listener. */
    @Override
    public void testStarted(String host) {
        RunState joined = JvmRun.engineStarted(host);
        EngineReports c = joined.engineReports();
        // The run's first engine: the gate's properties are checked once, and the watch is the run's, closed at its end.
        joined.resource(EngineWatch.class, () -> {
            try {
                ExitStatus.validate();
            } catch (InvalidSettingException e) {
                MqttElements.reportInvalid("controller properties", e);
            }
            return EngineWatch.start(c::running, gone -> engineGone(joined, c, gone));
        });
        synchronized (this) {
            run = joined;
            collector = c;
        }
    }

    /** An engine's process is gone: once every other engine has ended, report without it and end the controller. */
    private void engineGone(RunState joined, EngineReports c, EngineWatch.Gone gone) {
        synchronized (c) {
            if (c.reported() || c.enginesEnded.contains(gone.host)) {
                return;
            }
            c.enginesGone.put(gone.host, gone.describe());
            String line = "MQTT Run Report: engine " + gone.describe() + "; the report will name it, with the other"
                    + " engines' figures, once they have ended";
            log.error(line);
            System.out.println(line);
            if (c.allAccountedFor()) {
                finishWithoutEngines(joined, c);
            }
        }
    }

    /** Reports what arrived, then ends the controller, which JMeter would keep waiting for the dead engine. */
    private void finishWithoutEngines(RunState joined, EngineReports c) {
        report(joined, c);
        JvmRun.end(joined);
        ExitStatus.endControllerWithoutEngine(joined, "engine(s) " + c.enginesGone.keySet() + " died during the run",
                new ArrayList<>(c.enginesEnded));
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        SampleResult r = event.getResult();
        if (!MqttRunEndSampler.SUMMARY_CONTENT_TYPE.equals(r.getContentType()) || r.getSamplerData() == null) {
            return;
        }
        EngineSummary summary;
        try {
            summary = SummaryJson.readEngineSummary(r.getSamplerData());
        } catch (IllegalArgumentException e) {
            String why = "a Run End sample from " + r.getSampleLabel() + " held no readable summary: " + e.getMessage();
            log.warn("MQTT Run Report: {}", why);
            System.out.println("MQTT Run Report: " + why);
            EngineReports c = collector();
            synchronized (c) {
                c.unreadable.add(why);
            }
            return;
        }
        EngineReports c = collector();
        synchronized (c) {
            // Two Run End samples of one engine carry the same summary: one counts.
            c.summariesByEngine.putIfAbsent(summary.engineId, summary);
        }
    }

    /** JMeter's TestBean GUI files a listener under Add ▸ Listener only when it is a Visualizer. */
    @Override
    public void add(SampleResult sample) {
        // Not a GUI visualizer: the summaries arrive through sampleOccurred, in every mode.
    }

    @Override
    public boolean isStats() {
        return false;
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        // Only finished samples carry a summary.
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        // Only finished samples carry a summary.
    }

    /** Run alone: the local engine's run, ended here if no Run End sampler ended it already. */
    @Override
    public void testEnded() {
        RunState ending = runOrCurrent();
        RunSummary local = JvmRun.stopOrSummaryOf(ending);
        EngineReports c = collector();
        synchronized (c) {
            if (local != null && c.enginesStarted.isEmpty()) {
                c.summariesByEngine.putIfAbsent(local.engineId, local.figures());
            }
            report(ending, c);
        }
        JvmRun.end(ending);
        ExitStatus.afterLocalRun(ending);
    }

    /** The run this copy joined at test start; a copy whose test start JMeter never called reports the current one. */
    private synchronized RunState runOrCurrent() {
        return run != null ? run : JvmRun.current();
    }

    /** On the controller: reports once the last engine has ended; JMeter has flushed its samples by then. */
    @Override
    public void testEnded(String host) {
        RunState ending = runOrCurrent();
        EngineReports c = collector();
        synchronized (c) {
            c.enginesEnded.add(host);
            c.enginesGone.remove(host);
            if (!c.allAccountedFor()) {
                return;
            }
            if (!c.enginesGone.isEmpty()) {
                finishWithoutEngines(ending, c);
                return;
            }
            report(ending, c);
            JvmRun.end(ending);
            ExitStatus.afterControllerRun(ending);
        }
    }

    private void report(RunState ending, EngineReports c) {
        if (!c.markReported()) {
            return;
        }
        List<String> missing = new ArrayList<>(c.enginesGone.values());
        missing.addAll(c.unreadable);
        int engines = Math.max(c.enginesStarted.size(), c.summariesByEngine.size());
        for (int i = c.summariesByEngine.size() + missing.size(); i < engines; i++) {
            missing.add("engine " + (i + 1) + " of " + engines + " (started: " + String.join(", ", c.enginesStarted)
                    + ")");
        }
        if (c.summariesByEngine.isEmpty() && missing.isEmpty()) {
            log.warn("MQTT Run Report '{}': no MQTT run summary to report", getName());
            return;
        }
        MergedReport report;
        try {
            report = MergedReport.of(new ArrayList<>(c.summariesByEngine.values()), missing);
        } catch (IllegalArgumentException e) {
            log.error("MQTT Run Report '{}': {}", getName(), e.getMessage());
            System.out.println("MQTT Run Report: " + e.getMessage());
            return;
        }
        MqttElements.showCorrectedClockFigures(report, getName());
        ending.verdict(report.verdict());
        String table = ReportText.table(report);
        System.out.print(table);
        log.info("MQTT run report\n{}", table);
        ending.reported(report, write(report));
        writeToInflux(report);
    }

    /** The exact whole-run figures as points, for comparing runs in Grafana; skipped when no URL is set. */
    private void writeToInflux(MergedReport report) {
        TestBeanHelper.prepare(this);
        InfluxWriter writer;
        try {
            String url = evaluated(influxUrl);
            if (url == null || url.trim().isEmpty()) {
                return;
            }
            writer = MqttMetricsConfig.writer(url, evaluated(influxDatabase), evaluated(retentionPolicy),
                    evaluated(authentication), evaluated(username), evaluated(password), evaluated(token), 100);
        } catch (InvalidSettingException e) {
            MqttElements.reportInvalid(getName(), e);
            return;
        }
        ReportPoints.of(report, System.currentTimeMillis()).forEach(writer::offer);
        writer.close(10_000);
        String line = "MQTT run report: " + writer.written() + " points written to InfluxDB, " + writer.dropped()
                + " dropped" + (writer.dropped() == 0 || writer.lastError() == null ? "" : "; " + writer.lastError());
        log.info(line);
        System.out.println(line);
    }

    /**
     * A field's value with its functions evaluated. On a controller, the copies of this listener that JMeter makes
     * for the remote engines hold their fields as written in the plan ({@code ${__P(influx.url,)}}): nothing there
     * compiles them, so the controller's properties are read here.
     */
    private static String evaluated(String value) {
        if (value == null || !value.contains("${")) {
            return value;
        }
        try {
            CompoundVariable function = new CompoundVariable();
            function.setParameters(value);
            return function.execute();
        } catch (InvalidVariableException e) {
            throw new InvalidSettingException("influx settings", value, "not a valid JMeter expression: " + e.getMessage(),
                    e);
        }
    }

    /** The report's files; the HTML file's path, or null when they could not be written. */
    private Path write(MergedReport report) {
        Path dir = Path.of(JMeterUtils.getPropDefault(RunConfig.RESULTS_DIR, "mqttload-results"));
        try {
            Path html = ReportFiles.write(report, dir).toAbsolutePath();
            System.out.println("MQTT run report written to " + html + " (and .md, .json, .txt)");
            return html;
        } catch (IOException e) {
            log.error("MQTT run report could not be written to {}: {}", dir, e.toString());
            System.out.println("MQTT run report could not be written to " + dir + ": " + e);
            return null;
        }
    }

    public String getInfluxUrl() {
        return influxUrl;
    }

    public void setInfluxUrl(String influxUrl) {
        this.influxUrl = influxUrl;
    }

    public String getInfluxDatabase() {
        return influxDatabase;
    }

    public void setInfluxDatabase(String influxDatabase) {
        this.influxDatabase = influxDatabase;
    }

    public String getRetentionPolicy() {
        return retentionPolicy;
    }

    public void setRetentionPolicy(String retentionPolicy) {
        this.retentionPolicy = retentionPolicy;
    }

    public String getAuthentication() {
        return authentication;
    }

    public void setAuthentication(String authentication) {
        this.authentication = authentication;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    /** The report of the last run that ended in this JVM, for tests and embedding tools. */
    public static MergedReport lastReport() {
        return JvmRun.current().report();
    }
}
