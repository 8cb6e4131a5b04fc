/** One engine's run: its lifecycle, client groups, operations (connect, subscribe, publish, disconnect) and timeline; uses every package above it, never report or jmeter. */
package io.mqttload.engine;
