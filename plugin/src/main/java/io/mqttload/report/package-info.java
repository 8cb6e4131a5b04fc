/**
 * The run report for people: the console table, Markdown and the self-contained HTML pages (FreeMarker templates
 * under resources/io/mqttload/report/templates, chart geometry, the shared layout the sweep page uses too); uses
 * summary.
 */
package io.mqttload.report;
