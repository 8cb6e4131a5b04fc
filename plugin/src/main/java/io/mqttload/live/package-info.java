/**
 * The run as it goes, for a viewer in the same JVM (the JMeter GUI's Run Report panel): {@code LiveFeed} turns the
 * engine's one-second intervals into {@code LiveFigures} from the same counters, histograms and delivery ledger the
 * summary is made of; {@code LiveTables} makes the panel's tables of them (or of the merged report), and {@code LiveText}
 * writes them as text. No Swing here.
 */
package io.mqttload.live;
