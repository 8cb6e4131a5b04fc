/**
 * What was sent, acknowledged and received per stream and receiver, the one loss calculation and the one verdict
 * rule; uses common and measure.
 */
package io.mqttload.delivery;
