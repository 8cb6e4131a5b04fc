package io.mqttload.jmeter.run;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.Errors;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.SettingText;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.RunConfig;
import io.mqttload.engine.RunContext;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.PayloadHeader;
import io.mqttload.rendezvous.FleetClaim;
import io.mqttload.report.prometheus.PrometheusExport;
import io.mqttload.report.prometheus.PrometheusSettings;
import io.mqttload.summary.ClockReport;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.RunSummary;

/**
 * What every MQTT element shares: starting and stopping the engine runtime with the test. What it starts is held by
 * {@link JvmRun}: the startup error, the fleet claim and the verdict are the run's, not this class's.
 */
public final class MqttElements {
    private static final Logger log = LoggerFactory.getLogger(MqttElements.class);

    private MqttElements() {
    }

    /**
     * Starts this engine's MQTT runtime once per test; every MQTT element calls it at test start.
     *
     * @param given what the controller that sent the plan gave this engine ({@code FromController.NONE}: nothing)
     */
    public static void startRuntime(RunConfig.FromController given) {
        String script = FileServer.getFileServer().getScriptName();
        String scenario = script == null ? "mqtt" : script.replaceFirst("\\.jmx$", "");
        try {
            JvmRun.startEngineIfNone(() -> {
                ExitStatus.validate();
                FleetClaim claim = FleetStart.claimIfAsked(JMeterUtils::getProperty, scenario);
                if (claim == null) {
                    return RunConfig.from(JMeterUtils::getProperty, scenario, given);
                }
                JvmRun.current().fleetClaim(claim);
                return RunConfig.from(JMeterUtils::getProperty, scenario, given,
                        claim.claimed().engineNumber, claim.claimed().runId);
            }, System.out, runtime -> {
                String origins = "MQTT engine " + runtime.config().engineId() + ": " + runtime.config().origins();
                log.info(origins);
                System.out.println(origins);
                Map<String, String> parameters = changedProperties();
                // merge.sh counts the engines a run should have from here: a count the controller gave is the run's too.
                if (runtime.config().engines() > 1) {
                    parameters.putIfAbsent(RunConfig.ENGINES, Integer.toString(runtime.config().engines()));
                }
                runtime.describe(engineFacts(), parameters);
                runtime.context().setup().testPlan(TestPlanName.current());
                JMeterStop.testStarted();
                // Checked every second, and once more at the end: a stop within the last second is seen too.
                runtime.addIntervalListener(interval -> {
                    if (JMeterStop.asked()) {
                        runtime.stoppedBeforePlanEnd();
                    } else if (runtime.invalidAtStart() != null && runtime.firstTime("stopping: invalid at start")) {
                        // A plan whose threads run no MQTT sample soon (which stops the test, see AbstractMqttSampler).
                        stopTestNow(runtime.invalidAtStart());
                    }
                });
                startPrometheusExport(runtime);
                JvmRun.current().startupError(null);
            });
        } catch (InvalidSettingException e) {
            JvmRun.current().releaseFleetClaim();
            reportInvalid("engine properties", e);
            JvmRun.current().startupError("invalid engine property: " + e.getMessage());
        } catch (RuntimeException e) {
            // Out of an element's testStarted it would end JMeter's engine thread with the test still marked running:
            // a non-GUI run and a jmeter-server then wait forever. As a startup error the first sample stops the test.
            JvmRun.current().releaseFleetClaim();
            String why = "the MQTT runtime could not start: " + Errors.describe(e);
            log.error("MQTT: {}", why, e);
            System.out.println("MQTT: " + why);
            JvmRun.current().startupError(why);
        }
    }

    /**
     * The Prometheus endpoint and pushes the engine properties ask for ({@link PrometheusSettings}); a setting that
     * cannot work fails the run at its first sample, naming the property, as an element's invalid setting does.
     */
    private static void startPrometheusExport(EngineRuntime runtime) {
        try {
            PrometheusExport export = PrometheusExport.start(PrometheusSettings.from(JMeterUtils::getProperty),
                    runtime.context().metrics(), runtime.config());
            if (export != null) {
                runtime.addIntervalListener(export);
            }
        } catch (InvalidSettingException e) {
            prometheusRefused(runtime, e);
        } catch (RuntimeException e) {
            // The export asked for cannot run: the run would go its full length without it, to say so only in the log.
            prometheusRefused(runtime, new InvalidSettingException("mqttload.prometheus.*", "", "the Prometheus export"
                    + " cannot start: " + e, e));
        }
    }

    private static void prometheusRefused(EngineRuntime runtime, InvalidSettingException e) {
        reportInvalid("engine properties", e);
        RunContext run = runtime.context();
        run.metrics().failed(FailureTally.Kind.INVALID_SETTING, run.samplerMetrics("engine properties"), e.getMessage());
        runtime.invalidAtStart("invalid engine property, found at test start: " + e.getMessage());
    }

    /**
     * An element's setting found invalid at test start: logged and printed, counted as a refused setting of the
     * element (the verdict is FAILED, and the live panel shows the error at once), and kept in the run, so that the
     * first MQTT sample of any thread fails with it and stops the test now, rather than the run going its full length
     * to say at the end that its plan was wrong. Stopping here, on JMeter's engine thread before the thread groups
     * start, would race with their start: JMeter's stop runs on a thread of its own.
     */
    public static void invalidAtStart(String element, InvalidSettingException e) {
        reportInvalid(element, e);
        JvmRun.running().ifPresent(runtime -> {
            RunContext run = runtime.context();
            run.metrics().failed(FailureTally.Kind.INVALID_SETTING, run.samplerMetrics(element), e.getMessage());
            runtime.invalidAtStart("invalid setting in '" + element + "', found at test start: " + e.getMessage());
        });
    }

    /** Asks JMeter to stop the test now, saying why on the console and in the log. */
    public static void stopTestNow(String why) {
        String line = "MQTT: stopping the test now: " + why;
        log.error(line);
        System.out.println(line);
        StandardJMeterEngine.stopEngineNow();
    }

    /** The machine, JVM and JMeter this engine runs on, for the run report. */
    public static Map<String, String> engineFacts() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("host", JMeterUtils.getLocalHostName());
        f.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            long bytes = ((com.sun.management.OperatingSystemMXBean) os).getTotalPhysicalMemorySize();
            f.put("memory", String.format(Locale.ROOT, "%.1f GiB", bytes / 1073741824.0));
        }
        f.put("os", os.getName() + " " + os.getVersion() + " " + os.getArch());
        f.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        f.put("maxHeap", String.format(Locale.ROOT, "%.1f GiB", Runtime.getRuntime().maxMemory() / 1073741824.0));
        f.put("jmeter", JMeterUtils.getJMeterVersion());
        f.put(PayloadHeader.LAYOUT_FACT, Integer.toString(PayloadHeader.LAYOUT));
        return f;
    }

    /**
     * The JMeter properties this run set (-J, -G, -q, user.properties): those that differ from
     * bin/jmeter.properties. That is what a plan's ${__P(...)} parameters read, so the report can show
     * what the run was; values of names that look secret are masked.
     */
    public static Map<String, String> changedProperties() {
        Properties defaults = new Properties();
        Path file = Path.of(JMeterUtils.getJMeterBinDir(), "jmeter.properties");
        try (InputStream in = Files.newInputStream(file)) {
            defaults.load(in);
        } catch (IOException e) {
            log.debug("cannot read {} to tell the run's own properties apart: {}", file, e.toString());
        }
        Map<String, String> changed = new TreeMap<>();
        Properties now = JMeterUtils.getJMeterProperties();
        for (String name : now.stringPropertyNames()) {
            String value = now.getProperty(name);
            // JVM system properties (java.*, file.encoding, ...) are the JVM's, not the run's.
            if (name.startsWith("START.") || name.startsWith("TESTSTART.") || value.equals(defaults.getProperty(name))
                    || value.equals(System.getProperty(name))) {
                continue;
            }
            changed.put(name, name.toLowerCase(Locale.ROOT).matches(".*(password|token|secret|passphrase|credential|auth).*")
                    ? "***" : value);
        }
        return changed;
    }

    /** The reason the runtime is not running in this test, or null. */
    public static String startupError() {
        return JvmRun.current().startupError();
    }

    /** Ends the run once: closes every client, writes the summary, and ends what the run held. */
    public static void stopRuntime() {
        RunState run = JvmRun.current();
        if (JMeterStop.asked()) {
            JvmRun.running().ifPresent(EngineRuntime::stoppedBeforePlanEnd);
        }
        RunSummary summary = JvmRun.stopEngine();
        if (summary != null) {
            run.verdict(summary.verdict());
        }
        JvmRun.end(run);
    }

    /** Corrected figures go beside the measured ones only when asked for: they rest on the clock estimates. */
    public static void showCorrectedClockFigures(MergedReport report, String reportName) {
        try {
            report.clocks.showCorrected(SettingText.parseBoolean(ClockReport.CORRECT_PROPERTY,
                    JMeterUtils.getPropDefault(ClockReport.CORRECT_PROPERTY, "false")));
        } catch (InvalidSettingException e) {
            log.error("MQTT Run Report '{}': {}; no corrected clock figures", reportName, e.getMessage());
            System.out.println("MQTT Run Report: " + e.getMessage() + "; no corrected clock figures");
        }
    }

    /** Logs and prints an invalid setting found at test start, so it is seen before the first sample. */
    public static void reportInvalid(String element, InvalidSettingException e) {
        String line = "MQTT: invalid setting in '" + element + "': " + e.getMessage();
        log.error(line);
        System.out.println(line);
    }

    /** Identifies the JMeter thread that owns a group of clients. */
    public static Object threadKey(JMeterContext context) {
        return context.getThread() != null ? context.getThread() : Thread.currentThread();
    }

    public static int threadGroupNumber(EngineRuntime runtime, JMeterContext context) {
        return context.getThreadGroup() == null ? 0 : runtime.threadGroupNumber(context.getThreadGroup().getName());
    }
}
