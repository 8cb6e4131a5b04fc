/** The JMeter elements: thin TestBean adapters over the runtime; the only package that sees JMeter types. */
package io.mqttload.jmeter;
