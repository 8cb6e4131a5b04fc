package io.mqttload.testsupport;

import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.control.OnceOnlyController;
import org.apache.jmeter.control.RunTime;
import org.apache.jmeter.testelement.TestElement;

import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttConnectionConfig;
import io.mqttload.jmeter.MqttDisconnectSampler;
import io.mqttload.jmeter.MqttOutageSampler;
import io.mqttload.jmeter.MqttPublishSampler;
import io.mqttload.jmeter.MqttRunEndSampler;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.jmeter.MqttSubscribeSampler;

/** The suite's elements as a plan author would add them in the GUI, with fields set by name. */
public final class MqttElements {
    private MqttElements() {
    }

    public static MqttConnectionConfig connection(String host, int port, String version) {
        MqttConnectionConfig c = PlanBuilder.testBean(new MqttConnectionConfig(), "MQTT Connection");
        c.setProperty("host", host);
        c.setProperty("port", Integer.toString(port));
        c.setProperty("mqttVersion", version);
        return c;
    }

    public static MqttConnectSampler connect(String group, int clients, String idTemplate) {
        MqttConnectSampler s = PlanBuilder.testBean(new MqttConnectSampler(), "connect " + group);
        s.setProperty("clientGroup", group);
        s.setProperty("clientCount", Integer.toString(clients));
        s.setProperty("clientIdTemplate", idTemplate);
        return s;
    }

    public static MqttSubscribeSampler subscribe(String group, String filters, int qos) {
        MqttSubscribeSampler s = PlanBuilder.testBean(new MqttSubscribeSampler(), "subscribe " + group);
        s.setProperty("clientGroup", group);
        s.setProperty("topicFilters", filters);
        s.setProperty("qos", Integer.toString(qos));
        return s;
    }

    public static MqttPublishSampler publish(String group, String topic, int qos, int messagesPerSample, String mode) {
        MqttPublishSampler s = PlanBuilder.testBean(new MqttPublishSampler(), "publish " + group);
        s.setProperty("clientGroup", group);
        s.setProperty("topic", topic);
        s.setProperty("qos", Integer.toString(qos));
        s.setProperty("messagesPerSample", Integer.toString(messagesPerSample));
        s.setProperty("mode", mode);
        return s;
    }

    public static MqttDisconnectSampler disconnect(String group) {
        MqttDisconnectSampler s = PlanBuilder.testBean(new MqttDisconnectSampler(), "disconnect " + group);
        s.setProperty("clientGroup", group);
        return s;
    }

    /** An MQTT Outage: {@code outage} DROP (of {@code clientPercent} % of the group) or BROKER_RESTART. */
    public static MqttOutageSampler outage(String group, String outage, int clientPercent, long recoveryBoundMs,
            long awaitRecoveryMs) {
        MqttOutageSampler s = PlanBuilder.testBean(new MqttOutageSampler(), "outage " + group);
        s.setProperty("clientGroup", group);
        s.setProperty("outage", outage);
        s.setProperty("clientPercent", Integer.toString(clientPercent));
        s.setProperty("offlineMs", "0");
        s.setProperty("recoveryBoundMs", Long.toString(recoveryBoundMs));
        s.setProperty("awaitRecoveryMs", Long.toString(awaitRecoveryMs));
        return s;
    }

    /** Ends the engine's MQTT run and sends its summary as a sample; belongs in a tearDown Thread Group. */
    public static MqttRunEndSampler runEnd() {
        return PlanBuilder.testBean(new MqttRunEndSampler(), "MQTT run end");
    }

    /** Merges every engine's summary into the run's report (on the controller in distributed runs). */
    public static MqttRunReport runReport() {
        return PlanBuilder.testBean(new MqttRunReport(), "MQTT run report");
    }

    public static LoopController loop(int times) {
        LoopController loop = PlanBuilder.element(new LoopController(), "loop", PlanBuilder.LOOP_CONTROLLER_GUI);
        loop.setLoops(times);
        return loop;
    }

    /** JMeter's Runtime Controller: runs its children again until {@code seconds} passed since its first run. */
    public static RunTime runtime(long seconds) {
        RunTime runtime = PlanBuilder.element(new RunTime(), "runtime", "org.apache.jmeter.control.gui.RunTimeGui");
        runtime.setRuntime(seconds);
        return runtime;
    }

    /** Runs its children in the first iteration of each thread only (connect and subscribe phases). */
    public static OnceOnlyController onceOnly() {
        return PlanBuilder.element(new OnceOnlyController(), "once", "org.apache.jmeter.control.gui.OnceOnlyControllerGui");
    }

    /** Sets any field by its property name, for the less common ones. */
    public static <T extends TestElement> T with(T element, String property, String value) {
        element.setProperty(property, value);
        return element;
    }
}
