/**
 * An engine's exact end-of-run summary and the merge of every engine's into the run's report; uses delivery,
 * measure, rendezvous, broker and common.
 */
package io.mqttload.summary;
