/**
 * JMeter's distributed mode, over its RMI: the stamp a controller writes into the plan it sends each engine, the live
 * figures an engine offers the controller's GUI and the controller's calls for them, the watch on engines' processes,
 * and the reading of {@code -R} and {@code remote_hosts}. Headless: no Swing or AWT.
 */
package io.mqttload.jmeter.remote;
