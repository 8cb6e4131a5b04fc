package io.mqttload.jmeter;

import org.apache.jmeter.testelement.TestStateListener;

import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.remote.EngineLiveSource;
import io.mqttload.jmeter.run.ExitStatus;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.jmeter.run.RunState;


/**
 * Every MQTT element starts the engine's MQTT runtime at test start and ends it at test end; the
 * first to act does the work, the others find it done. Remote (host) notifications mean the same, and on a
 * jmeter-server engine the run's live figures are offered to the controller's GUI too.
 */
public interface MqttTestStateListener extends TestStateListener {
    /** What the controller that sent the plan gave this engine ({@link ControllerStamp}). */
    ControllerStamp controllerStamp();

    @Override
    default void testStarted(String host) {
        testStarted();
        JvmRun.running().ifPresent(EngineLiveSource::startFor);
    }

    /** A local run: ends the engine's run, then sees to the exit status of a headless JMeter. */
    @Override
    default void testEnded() {
        RunState ending = JvmRun.current();
        MqttElements.stopRuntime();
        ExitStatus.afterLocalRun(ending);
    }

    /** On a jmeter-server engine: the controller decides the exit status, the engine keeps serving. */
    @Override
    default void testEnded(String host) {
        EngineLiveSource.stop();
        MqttElements.stopRuntime();
    }
}
