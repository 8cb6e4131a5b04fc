/**
 * Reads of JMeter's private state, in one class, so that a JMeter upgrade that renames what they read breaks one place;
 * used by the elements' package above, using nothing of it.
 */
package io.mqttload.jmeter.internals;
