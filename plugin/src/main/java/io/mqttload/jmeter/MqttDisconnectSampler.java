package io.mqttload.jmeter;

import org.apache.jmeter.threads.JMeterContext;

import io.mqttload.common.settings.DisconnectSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.engine.DisconnectOperation;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;

/**
 * MQTT Disconnect: sends DISCONNECT for every client of this thread's group, after its subscribers
 * received what they are owed so far (bounded by the drain timeout). Clients a plan never
 * disconnects are closed at test end anyway, whatever stopped the threads.
 */
public class MqttDisconnectSampler extends AbstractMqttSampler {
    private static final long serialVersionUID = 1L;

    private String disconnectTimeoutMs = DisconnectSettings.DISCONNECT_TIMEOUT_MS.defaultText();
    private String drainTimeoutMs = DisconnectSettings.DRAIN_TIMEOUT_MS.defaultText();

    @Override
    protected OperationResult perform(EngineRuntime runtime, JMeterContext context) {
        return operation().run(runtime.context(), existingGroup(runtime, context));
    }

    /** The one place this element's fields are parsed and checked. */
    private DisconnectOperation operation() {
        SettingValues v = new SettingValues(DisconnectSettings.ALL);
        v.read(DisconnectSettings.DISCONNECT_TIMEOUT_MS, disconnectTimeoutMs);
        v.read(DisconnectSettings.DRAIN_TIMEOUT_MS, drainTimeoutMs);
        return new DisconnectOperation(v);
    }

    @Override
    protected void validate() {
        operation();
    }

    public String getDrainTimeoutMs() {
        return drainTimeoutMs;
    }

    public void setDrainTimeoutMs(String drainTimeoutMs) {
        this.drainTimeoutMs = drainTimeoutMs;
    }

    public String getDisconnectTimeoutMs() {
        return disconnectTimeoutMs;
    }

    public void setDisconnectTimeoutMs(String disconnectTimeoutMs) {
        this.disconnectTimeoutMs = disconnectTimeoutMs;
    }
}
