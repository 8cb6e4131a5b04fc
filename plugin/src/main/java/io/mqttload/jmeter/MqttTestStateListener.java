package io.mqttload.jmeter;

import org.apache.jmeter.testelement.TestStateListener;

/**
 * Every MQTT element starts the engine's MQTT runtime at test start and ends it at test end; the
 * first to act does the work, the others find it done. Remote (host) notifications mean the same.
 */
interface MqttTestStateListener extends TestStateListener {
    @Override
    default void testStarted(String host) {
        testStarted();
    }

    @Override
    default void testEnded() {
        MqttElements.stopRuntime();
    }

    @Override
    default void testEnded(String host) {
        testEnded();
    }
}
