/**
 * This JVM's run: {@link io.mqttload.jmeter.run.JvmRun}, the one holder of all per-run state (a
 * {@link io.mqttload.jmeter.run.RunState} begun whole and ended whole), the engine's start and stop with the test,
 * JMeter's stop, the exit status of a headless run, a fleet's start, and the pacing of publish samples. Headless: no
 * Swing or AWT; it uses nothing of the floors above it.
 */
package io.mqttload.jmeter.run;
