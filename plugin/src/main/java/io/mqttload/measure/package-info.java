/**
 * The clock, the payload's measurement header, latency recorders, every count of a run declared once ({@link
 * io.mqttload.measure.Count}) and kept by the engine, each sampler and each broker node, with failures by reason;
 * uses common.
 */
package io.mqttload.measure;
