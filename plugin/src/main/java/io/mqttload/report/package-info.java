/** The run report for people: the self-contained HTML page; uses summary. */
package io.mqttload.report;
