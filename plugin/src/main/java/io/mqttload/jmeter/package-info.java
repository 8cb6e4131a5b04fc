/**
 * The JMeter elements, thin TestBean adapters over the runtime: each element with its BeanInfo, its resources and
 * the GUI classes plans name, here because their class names are in saved {@code .jmx} files. Everything else of the
 * JMeter side is on the floors below, each using only those under it: {@code gui} (the Run Report panel's model and
 * charts), {@code remote} (the controller's stamp, the engines' live figures and the watch on them over RMI),
 * {@code run} (the one holder of this JVM's run, its start and end, exit status and pacing), {@code internals} (the
 * reflection into JMeter). The only package that sees JMeter types.
 */
package io.mqttload.jmeter;
