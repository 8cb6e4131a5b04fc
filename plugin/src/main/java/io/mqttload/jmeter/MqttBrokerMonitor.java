package io.mqttload.jmeter;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.util.JMeterUtils;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.BrokerMonitorSettings;
import io.mqttload.common.settings.SettingText;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;

/**
 * MQTT Broker Monitor: what the broker costs during the run. A local broker process (by PID, PID file or
 * name) is sampled from /proc every interval: CPU, resident memory, open descriptors and sockets,
 * threads. A broker that publishes $SYS statistics (Mosquitto, EMQX) is also read through one client.
 * Samples go to InfluxDB with the run's tags (when MQTT Metrics is on) and the steady phase's CPU and
 * memory to the summary and the run report. Not a sample listener, so every engine runs it; the engine
 * filter picks the one next to the broker.
 */
public class MqttBrokerMonitor extends ConfigTestElement implements TestBean, MqttTestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(MqttBrokerMonitor.class);
    /** Engine property: seconds without any $SYS message before the broker is reported as publishing none. */
    public static final String SYS_GRACE_PROPERTY = "mqttload.sysGraceSeconds";

    private String brokerName = BrokerMonitorSettings.BROKER_NAME.defaultText();
    private String pid = BrokerMonitorSettings.PID.defaultText();
    private String pidFile = BrokerMonitorSettings.PID_FILE.defaultText();
    private String processName = BrokerMonitorSettings.PROCESS_NAME.defaultText();
    private String sysHost = BrokerMonitorSettings.SYS_HOST.defaultText();
    private String sysPort = BrokerMonitorSettings.SYS_PORT.defaultText();
    private String sysTopics = BrokerMonitorSettings.SYS_TOPICS.defaultText();
    private String agent = BrokerMonitorSettings.AGENT.defaultText();
    private String intervalSeconds = BrokerMonitorSettings.INTERVAL_SECONDS.defaultText();

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();
    private String engineFilter = BrokerMonitorSettings.ENGINE_FILTER.defaultText();

    @Override
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(controllerStamp.given());
        TestBeanHelper.prepare(this);
        EngineRuntime runtime = JvmRun.running().orElse(null);
        if (runtime == null) {
            return;
        }
        try {
            String filter = engineFilter == null ? "" : engineFilter.trim();
            if (!filter.isEmpty() && !matches(filter, runtime.config().engineId())) {
                return;
            }
            BrokerMonitor.Settings s = new BrokerMonitor.Settings();
            s.name = brokerName == null || brokerName.trim().isEmpty() ? "broker" : brokerName.trim();
            s.pid = BrokerMonitorSettings.PID.parse(pid);
            s.pidFile = pidFile == null ? "" : pidFile.trim();
            s.processName = processName == null ? "" : processName.trim();
            s.sysHost = sysHost == null ? "" : sysHost.trim();
            s.sysPort = BrokerMonitorSettings.SYS_PORT.parse(sysPort);
            s.sys = BrokerMonitorSettings.SYS_TOPICS.parse(sysTopics);
            s.agent = BrokerMonitorSettings.AGENT.parse(agent);
            if (s.agent && s.sysHost.isEmpty()) {
                throw new InvalidSettingException("sysHost", "", "agent = true needs the host of the broker the agent publishes to");
            }
            s.intervalMillis = BrokerMonitorSettings.INTERVAL_SECONDS.parse(intervalSeconds) * 1000;
            // EMQX publishes $SYS every 60 s by default: a broker is called silent only after longer than that.
            s.sysGraceMillis = SettingText.parseLong(SYS_GRACE_PROPERTY,
                    JMeterUtils.getPropDefault(SYS_GRACE_PROPERTY, "70"), 1, 3600) * 1000;
            if (s.pid == 0 && s.pidFile.isEmpty() && s.processName.isEmpty() && s.sysHost.isEmpty()) {
                // Like MQTT Metrics with an empty URL: a plan can carry the monitor, driven by ${__P(...)}, off by default.
                log.info("MQTT Broker Monitor '{}': no process and no broker host set, so it is off", getName());
                return;
            }
            runtime.addBrokerMonitor(s);
        } catch (InvalidSettingException e) {
            // As for a sampler: the run would go its full length without the broker's figures it was set up to show.
            MqttElements.invalidAtStart(getName(), e);
        }
    }

    private static boolean matches(String filter, String engineId) {
        try {
            return Pattern.compile(filter).matcher(engineId).matches();
        } catch (PatternSyntaxException e) {
            throw new InvalidSettingException("engineFilter", filter, "not a regular expression: " + e.getDescription());
        }
    }

    public String getBrokerName() {
        return brokerName;
    }

    public void setBrokerName(String brokerName) {
        this.brokerName = brokerName;
    }

    public String getPid() {
        return pid;
    }

    public void setPid(String pid) {
        this.pid = pid;
    }

    public String getPidFile() {
        return pidFile;
    }

    public void setPidFile(String pidFile) {
        this.pidFile = pidFile;
    }

    public String getProcessName() {
        return processName;
    }

    public void setProcessName(String processName) {
        this.processName = processName;
    }

    public String getSysHost() {
        return sysHost;
    }

    public void setSysHost(String sysHost) {
        this.sysHost = sysHost;
    }

    public String getSysPort() {
        return sysPort;
    }

    public void setSysPort(String sysPort) {
        this.sysPort = sysPort;
    }

    public String getSysTopics() {
        return sysTopics;
    }

    public void setSysTopics(String sysTopics) {
        this.sysTopics = sysTopics;
    }

    public String getAgent() {
        return agent;
    }

    public void setAgent(String agent) {
        this.agent = agent;
    }

    public String getIntervalSeconds() {
        return intervalSeconds;
    }

    public void setIntervalSeconds(String intervalSeconds) {
        this.intervalSeconds = intervalSeconds;
    }

    public String getEngineFilter() {
        return engineFilter;
    }

    public void setEngineFilter(String engineFilter) {
        this.engineFilter = engineFilter;
    }
}
