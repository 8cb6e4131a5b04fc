/**
 * The sweep runner and the capacity search (their own entry point): one plan at sizes the user gives, or at the
 * values a search chooses to find the highest the broker sustains; each step judged once ({@code StepCriteria}), with
 * table and charts; uses report and engine.
 */
package io.mqttload.sweep;
