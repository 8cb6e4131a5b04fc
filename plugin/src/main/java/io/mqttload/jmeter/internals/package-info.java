/**
 * Reads of JMeter's private state, in one class, so that a JMeter upgrade that renames what they read breaks one place;
 * used by the floors above, using nothing of them.
 */
package io.mqttload.jmeter.internals;
