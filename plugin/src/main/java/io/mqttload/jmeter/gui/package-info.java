/**
 * The Run Report panel's parts under its GUI class: the model that reads the run holder and the engines' live
 * figures each second, its chart and tables, and the listener on the GUI's Remote Start. Nothing below calls it: the
 * panel follows runs through {@code JvmRun.followRuns}.
 */
package io.mqttload.jmeter.gui;
