/**
 * The sweep runner (its own entry point): one plan at increasing sizes, with table and charts; uses report and
 * engine.
 */
package io.mqttload.sweep;
