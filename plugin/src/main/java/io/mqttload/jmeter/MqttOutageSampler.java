package io.mqttload.jmeter;

import org.apache.jmeter.threads.JMeterContext;

import io.mqttload.common.settings.OutageSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.OutageOperation;

/**
 * MQTT Outage: declares an outage the plan expects, so that the run is judged on recovery instead of failed by the
 * connections it takes. DROP closes a share of this thread's clients abruptly; they come back through their own
 * reconnect policy once its offline time has passed. BROKER_RESTART declares that the broker will be restarted from
 * outside: the connections lost from then on are the outage's.
 */
public class MqttOutageSampler extends AbstractMqttSampler {
    private static final long serialVersionUID = 1L;

    private String outage = OutageSettings.OUTAGE.defaultText();
    private String clientPercent = OutageSettings.CLIENT_PERCENT.defaultText();
    private String offlineMs = OutageSettings.OFFLINE_MS.defaultText();
    private String recoveryBoundMs = OutageSettings.RECOVERY_BOUND_MS.defaultText();
    private String awaitRecoveryMs = OutageSettings.AWAIT_RECOVERY_MS.defaultText();
    private String restartWindowMs = OutageSettings.RESTART_WINDOW_MS.defaultText();

    @Override
    protected OperationResult perform(EngineRuntime runtime, JMeterContext context) {
        return operation().run(runtime.context(), existingGroup(runtime, context));
    }

    /** The one place this element's fields are parsed and checked. */
    private OutageOperation operation() {
        SettingValues v = new SettingValues(OutageSettings.ALL);
        v.read(OutageSettings.OUTAGE, outage);
        v.read(OutageSettings.CLIENT_PERCENT, clientPercent);
        v.read(OutageSettings.OFFLINE_MS, offlineMs);
        v.read(OutageSettings.RECOVERY_BOUND_MS, recoveryBoundMs);
        v.read(OutageSettings.AWAIT_RECOVERY_MS, awaitRecoveryMs);
        v.read(OutageSettings.RESTART_WINDOW_MS, restartWindowMs);
        return new OutageOperation(v);
    }

    @Override
    protected void validate() {
        operation();
    }

    public String getOutage() {
        return outage;
    }

    public void setOutage(String outage) {
        this.outage = outage;
    }

    public String getClientPercent() {
        return clientPercent;
    }

    public void setClientPercent(String clientPercent) {
        this.clientPercent = clientPercent;
    }

    public String getOfflineMs() {
        return offlineMs;
    }

    public void setOfflineMs(String offlineMs) {
        this.offlineMs = offlineMs;
    }

    public String getRecoveryBoundMs() {
        return recoveryBoundMs;
    }

    public void setRecoveryBoundMs(String recoveryBoundMs) {
        this.recoveryBoundMs = recoveryBoundMs;
    }

    public String getAwaitRecoveryMs() {
        return awaitRecoveryMs;
    }

    public void setAwaitRecoveryMs(String awaitRecoveryMs) {
        this.awaitRecoveryMs = awaitRecoveryMs;
    }

    public String getRestartWindowMs() {
        return restartWindowMs;
    }

    public void setRestartWindowMs(String restartWindowMs) {
        this.restartWindowMs = restartWindowMs;
    }
}
