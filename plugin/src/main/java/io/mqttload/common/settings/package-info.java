/**
 * The elements' settings, each declared once: its name (the property in saved plans), default, editor, check and the
 * value it parses to. The JMeter elements read their fields and BeanInfo defaults here, the converter its defaults, the
 * engine its typed values; in {@code common} because all three use it. Uses {@code io.mqttload.common} alone.
 */
package io.mqttload.common.settings;
