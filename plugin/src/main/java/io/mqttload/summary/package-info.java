/**
 * An engine's exact end-of-run figures (RunSummary), what travels from engine to controller (EngineSummary), their
 * merge into the run's report (MergedReport, ReportFigures) and the one JSON mapping of both (SummaryJson); uses
 * delivery, measure, rendezvous, broker and common.
 */
package io.mqttload.summary;
