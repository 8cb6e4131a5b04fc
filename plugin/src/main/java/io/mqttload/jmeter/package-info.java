/**
 * The JMeter elements: thin TestBean adapters over the runtime, and {@code EngineLifecycle}, the one holder of the
 * run this JVM's engine is in; the only package that sees JMeter types.
 */
package io.mqttload.jmeter;
