package io.mqttload.jmeter;

import org.apache.jmeter.testelement.TestStateListener;


/**
 * Every MQTT element starts the engine's MQTT runtime at test start and ends it at test end; the
 * first to act does the work, the others find it done. Remote (host) notifications mean the same, and on a
 * jmeter-server engine the run's live figures are offered to the controller's GUI too.
 */
interface MqttTestStateListener extends TestStateListener {
    /** What the controller that sent the plan gave this engine ({@link ControllerStamp}). */
    ControllerStamp controllerStamp();

    @Override
    default void testStarted(String host) {
        testStarted();
        EngineLifecycle.running().ifPresent(EngineLiveSource::startFor);
    }

    /** A local run: ends the engine's run, then sees to the exit status of a headless JMeter. */
    @Override
    default void testEnded() {
        MqttElements.stopRuntime();
        ExitStatus.afterLocalRun();
    }

    /** On a jmeter-server engine: the controller decides the exit status, the engine keeps serving. */
    @Override
    default void testEnded(String host) {
        EngineLiveSource.stop();
        MqttElements.stopRuntime();
    }
}
