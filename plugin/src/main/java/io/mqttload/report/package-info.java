/** The run report for people: the console table, Markdown and the self-contained HTML page; uses summary. */
package io.mqttload.report;
