package io.mqttload.jmeter;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.TestBeanHelper;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.InfluxSettings;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.report.influx.InfluxMetrics;
import io.mqttload.report.influx.InfluxWriter;

/**
 * MQTT Metrics (InfluxDB): streams this engine's MQTT metrics to InfluxDB every interval. It is not a
 * sample listener, so in distributed mode it runs on every engine (JMeter's Backend Listener runs
 * only on the controller) and each engine writes its own points, tagged with its engine id.
 * An empty URL turns it off.
 */
public class MqttMetricsConfig extends ConfigTestElement implements TestBean, MqttTestStateListener {
    private static final long serialVersionUID = 1L;

    private String influxUrl = InfluxSettings.INFLUX_URL.defaultText();
    private String influxDatabase = InfluxSettings.INFLUX_DATABASE.defaultText();
    private String retentionPolicy = InfluxSettings.RETENTION_POLICY.defaultText();
    private String authentication = InfluxSettings.AUTHENTICATION.defaultText();
    private String username = InfluxSettings.USERNAME.defaultText();
    private String password = InfluxSettings.PASSWORD.defaultText();
    private String token = InfluxSettings.TOKEN.defaultText();
    private String bufferedPoints = InfluxSettings.BUFFERED_POINTS.defaultText();
    private String intervalSeconds = InfluxSettings.INTERVAL_SECONDS.defaultText();

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();

    @Override
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(controllerStamp.given());
        TestBeanHelper.prepare(this);
        EngineRuntime runtime = JvmRun.running().orElse(null);
        if (influxUrl == null || influxUrl.trim().isEmpty() || runtime == null) {
            return;
        }
        try {
            InfluxWriter writer = writer(influxUrl, influxDatabase, retentionPolicy, authentication, username, password,
                    token, InfluxSettings.BUFFERED_POINTS.parse(bufferedPoints));
            try {
                runtime.addIntervalListener(new InfluxMetrics(writer, runtime.context().metrics(), runtime.config(),
                        InfluxSettings.INTERVAL_SECONDS.parse(intervalSeconds)));
            } catch (IllegalArgumentException e) {
                writer.close(0);
                throw new InvalidSettingException("mqttload.engineId / runId / scenario", runtime.config().engineId(),
                        e.getMessage());
            }
        } catch (InvalidSettingException e) {
            // As for a sampler: the run would go its full length with no live metrics, to say so only in the log.
            MqttElements.invalidAtStart(getName(), e);
        }
    }

    /** A writer for the InfluxDB settings these fields (and the Run Report's, named alike) hold. */
    static InfluxWriter writer(String url, String database, String retentionPolicy, String authentication,
            String username, String password, String token, int bufferedPoints) {
        InfluxWriter.Auth auth = InfluxWriter.Auth.valueOf(InfluxSettings.AUTHENTICATION.parse(authentication));
        String credentials = auth == InfluxWriter.Auth.TOKEN ? token : username + ":" + password;
        return new InfluxWriter(url, database, retentionPolicy, auth, credentials, bufferedPoints);
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

    public String getIntervalSeconds() {
        return intervalSeconds;
    }

    public void setIntervalSeconds(String intervalSeconds) {
        this.intervalSeconds = intervalSeconds;
    }

    public String getBufferedPoints() {
        return bufferedPoints;
    }

    public void setBufferedPoints(String bufferedPoints) {
        this.bufferedPoints = bufferedPoints;
    }
}
