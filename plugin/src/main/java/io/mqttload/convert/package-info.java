/**
 * The XMeter plan converter (its own entry point, {@link io.mqttload.convert.XmeterConverter}): reads a .jmx written
 * with XMeter's MQTT samplers (emqx/mqtt-jmeter) as XML, replaces each of their elements by this suite's in the same
 * place, and writes the plan and a report of every option's mapping. Works on the XML alone (the JDK's DOM), because
 * XMeter's classes are not on the class path and JMeter's SaveService cannot load such a plan; so it uses no JMeter
 * type and no other package of the plugin but {@code common}.
 */
package io.mqttload.convert;
