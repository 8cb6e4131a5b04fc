/**
 * The clock, the payload's measurement header, latency recorders and the counters of the engine and of each
 * sampler, with failures by reason; uses common.
 */
package io.mqttload.measure;
