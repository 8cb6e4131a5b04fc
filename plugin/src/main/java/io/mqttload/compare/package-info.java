/**
 * The comparison of two or more sides (a plan run with other properties, or results kept from elsewhere) over
 * interleaved rounds: every deciding figure declared once ({@code Figure}) with its unit and direction, compared with
 * a 95 % interval and a verdict against a threshold ({@code FigureComparison}), reported for people and CI; runs the
 * plan through the sweep runner and reads the results it and the run reports leave; uses sweep, summary, measure.
 */
package io.mqttload.compare;
