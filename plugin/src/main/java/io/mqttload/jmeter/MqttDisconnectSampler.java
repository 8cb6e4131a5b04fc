package io.mqttload.jmeter;

import org.apache.jmeter.threads.JMeterContext;

import io.mqttload.common.settings.SettingText;
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

    private String disconnectTimeoutMs = "10000";
    private String drainTimeoutMs = "10000";

    @Override
    protected OperationResult perform(EngineRuntime runtime, JMeterContext context) {
        return operation().run(runtime.context(), existingGroup(runtime, context));
    }

    private DisconnectOperation operation() {
        return new DisconnectOperation(SettingText.parseLong("disconnectTimeoutMs", disconnectTimeoutMs, 1, 3_600_000),
                SettingText.parseLong("drainTimeoutMs", drainTimeoutMs, 0, 3_600_000));
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
