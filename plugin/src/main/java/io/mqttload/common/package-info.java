/**
 * Validation, name templates, MQTT topic syntax, the JSON writer, bounded waits: used by every package, uses none
 * of ours.
 */
package io.mqttload.common;
