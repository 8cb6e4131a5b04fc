/**
 * One engine's run: its lifecycle, client groups, operations (connect, subscribe, publish, disconnect) and
 * timeline; uses the packages below it (summary, broker, rendezvous, traffic, client, delivery, measure, common), never
 * report, sweep or jmeter.
 */
package io.mqttload.engine;
