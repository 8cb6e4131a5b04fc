package io.mqttload.jmeter;

import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.core.EngineRuntime;
import io.mqttload.core.InvalidSettingException;
import io.mqttload.core.RunConfig;

/** What every MQTT element shares: starting and stopping the engine runtime with the test. */
final class MqttElements {
    private static final Logger log = LoggerFactory.getLogger(MqttElements.class);

    /** Why the runtime could not start for the current test, so that every sample can say it. */
    private static volatile String startupError;

    private MqttElements() {
    }

    /** Starts this engine's MQTT runtime once per test; every MQTT element calls it at test start. */
    static void startRuntime() {
        if (EngineRuntime.isRunning()) {
            return;
        }
        String script = FileServer.getFileServer().getScriptName();
        String scenario = script == null ? "mqtt" : script.replaceFirst("\\.jmx$", "");
        try {
            EngineRuntime.start(RunConfig.from(JMeterUtils::getProperty, scenario), System.out);
            startupError = null;
        } catch (InvalidSettingException e) {
            reportInvalid("engine properties", e);
            startupError = "invalid engine property: " + e.getMessage();
        }
    }

    /** The reason the runtime is not running in this test, or null. */
    static String startupError() {
        return startupError;
    }

    /** Ends the run once: closes every client and writes the summary. */
    static void stopRuntime() {
        EngineRuntime.stop();
    }

    /** Logs and prints an invalid setting found at test start, so it is seen before the first sample. */
    static void reportInvalid(String element, InvalidSettingException e) {
        String line = "MQTT: invalid setting in '" + element + "': " + e.getMessage();
        log.error(line);
        System.out.println(line);
    }

    /** Identifies the JMeter thread that owns a group of clients. */
    static Object threadKey(JMeterContext context) {
        return context.getThread() != null ? context.getThread() : Thread.currentThread();
    }

    static int threadGroupNumber(EngineRuntime runtime, JMeterContext context) {
        return context.getThreadGroup() == null ? 0 : runtime.threadGroupNumber(context.getThreadGroup().getName());
    }
}
